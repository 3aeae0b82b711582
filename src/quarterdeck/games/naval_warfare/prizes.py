"""Crews, surrender and prizes (seed 003, optional rules 5 and 6, with the rulings).

Optional rule 5: a ship needs tons/100 men to sail and one man per battery on top to fire; at
half her crew gunfire casualties are halved, at a quarter they cease but she tries to break off,
and if she is still in range of an enemy or grappled at the end of the move she surrenders on 1-2;
ships within two drift moves of a sinking may pick up survivors (a quarter of their own crew, half
of those aboard in all) and drift the next move. Optional rule 6: a ship may surrender at the end
of any move; the surrender must be accepted unless she dishonoured an earlier one; she may then
not be fired on, and is secured by an enemy alongside or, within two drift moves and less than
half damaged, by boats (up to a fifth of the crew). One carried by boarders stays grappled to her
boarder for an extra move and is secured at its end; while held, her own side coming up lets her
crew dishonour and fight on. A secured ship is a prize: on the table under her captor, sailed by a
prize crew of a fifth of the prisoners plus the sailing minimum, never fighting, retaken by her
own side's boarders. A prize crew under a fifth of the captives lets them try once to escape
(4-6). An unsecured ship that surrendered of her own accord may change her mind (dishonour). With
the rule off a surrendered ship leaves play as taken.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Captured, DieRolled, Marked, Struck

from .fire import BANDS
from .movement import CONTACT
from .ship import AFLOAT, PRIZE, SURRENDERED, Ship
from .wind import drift_distance

if TYPE_CHECKING:
    from .state import NavalState


def two_drift_moves(state: NavalState) -> int:
    """Two drift moves as a distance; a drift move is 1" in a calm for boats and survivors (rulings)."""
    return 2 * max(100, drift_distance(state.strength))


def prize_crew_needed(prize: Ship) -> int:
    """A fifth of the captives plus the sailing minimum (rulings: 1/100 of tonnage)."""
    return math.ceil(prize.crew / 5) + prize.spec.min_crew


def surrender(state: NavalState, ship: Ship, kind: str, captor: Ship | None = None) -> None:
    """She strikes. With prizes off she leaves play as taken (rulings); a ship carried by boarders
    stays grappled to her boarder through the next move and is secured at its end (optional rule 6)."""
    ship.surrender_kind = kind
    state.emit(Struck(ship.name, state.where(ship.point)))
    if not state.scenario.option("prizes"):
        ship.status = "taken"
        ship.captor = 1 - ship.side
        state.ship_lost(ship)
        return
    ship.status = SURRENDERED
    ship.captor = 1 - ship.side
    if kind == "boarding" and captor is not None:
        ship.held_until = state.move_number + 1
        state.emit(Marked(ship.name, f"is held by {captor.name}'s boarders until the end of the next move",
                          "optional rule 6"))


def secure_held(state: NavalState) -> None:
    """End of move: a ship carried by boarders, held for the extra move, is secured by her boarder."""
    from .boarding import release

    for ship in state.ordered_ships():
        if ship.status != SURRENDERED or not ship.held_until or ship.held_until > state.move_number:
            continue
        boarder = state.ships.get(ship.grappled)
        release(state, ship, "")
        ship.held_until = 0
        if boarder is not None and boarder.fighting:
            take(state, ship, boarder, min(prize_crew_needed(ship), max(0, boarder.crew - boarder.spec.min_crew)))


def take(state: NavalState, prize: Ship, captor: Ship, crew: int) -> None:
    """Secured: her crew become prisoners aboard, the captor's men sail her as a prize (optional rule 6)."""
    captor.crew -= crew
    prize.prisoners, prize.crew = prize.crew, crew
    prize.prize_crew = crew
    prize.captor = captor.side
    prize.status = PRIZE
    prize.held_until = 0
    state.emit(Captured(prize.name, state.where(prize.point), captor.name))
    state.ship_lost(prize)
    if crew * 5 < prize.prisoners and not prize.escape_tried:
        state.push_roll("escape", prize.name)


def freed(state: NavalState, prize: Ship, how: str, dishonoured: bool) -> None:
    """Her own crew have her again; the prize crew become their prisoners. Fire that killed every
    captive leaves nobody to have her: retaken empty, she is abandoned (rule 9, no crew left)."""
    prize.status = AFLOAT
    prize.crew, prize.prisoners = prize.prisoners, prize.crew
    prize.prize_crew = 0
    prize.captor = -1
    prize.dishonoured = prize.dishonoured or dishonoured
    state.emit(Marked(prize.name, how, "optional rule 6"))
    state.abandon_if_empty(prize)


def escape_die(state: NavalState, prize: Ship, value: int) -> None:
    """Dishonour 2: captives under-guarded try once to escape on 4-6; the prize crew become captives."""
    prize.escape_tried = True
    state.emit(DieRolled(f"the captives of {prize.name} try to escape (optional rule 6)", value))
    if value >= 4 and prize.status == PRIZE:
        freed(state, prize, "is retaken by her captives", True)


def reinforced(state: NavalState, ship: Ship) -> bool:
    """Dishonour 1: a ship carried by boarders and not yet secured, with a fighting ship of her own side
    come alongside her or her boarder."""
    if ship.status != SURRENDERED or ship.surrender_kind != "boarding" or not ship.held_until:
        return False
    near = [ship] + ([state.ships[ship.grappled]] if ship.grappled in state.ships else [])
    return any(
        friend.side == ship.side and friend.fighting and friend is not ship
        and plane.polygon_gap(friend.hull(), other.hull()) <= CONTACT
        for friend in state.ships.values() for other in near if friend is not other
    )


def check_secure(state: NavalState, ship: Ship, target: Ship, gap: float, end: tuple[float, float]) -> None:
    """Optional rule 6: secured alongside, or by boats from within two drift moves while less than half
    damaged; `gap` and `end` are measured where her run ends, where she sends the boats from."""
    if not state.scenario.option("prizes"):
        raise IllegalAction("optional rule 6", "surrender and prizes is not in use in this battle")
    if target.status != SURRENDERED or target.side == ship.side:
        raise IllegalAction("optional rule 6", f"{target.name} is not an enemy that has surrendered")
    if target.held_until:
        raise IllegalAction("optional rule 6", f"{target.name} is held by {target.grappled}'s boarders")
    if gap <= CONTACT:
        return
    close = plane.distance(end, target.point) <= two_drift_moves(state)
    if not close or ship.lost_flotation * 2 >= ship.spec.flotation:
        raise IllegalAction("optional rule 6", f"{ship.name} secures {target.name} alongside, or by boats within "
                            "two drift moves while less than half damaged")


def secure(state: NavalState, ship: Ship, target: Ship) -> None:
    alongside = plane.polygon_gap(ship.hull(), target.hull()) <= CONTACT
    spare = max(0, ship.crew - ship.spec.min_crew)
    crew = min(prize_crew_needed(target), spare if alongside else ship.crew // 5)
    take(state, target, ship, crew)


def dishonour(state: NavalState, ship: Ship) -> None:
    """She fights again. Carried by boarders and reinforced, her crew join the fight: she stays
    grappled to her boarder and the fight goes on next move, she the attacker (dishonour 1)."""
    held = ship.held_until
    ship.status = AFLOAT
    ship.dishonoured = True
    ship.captor = -1
    ship.held_until = 0
    state.emit(Marked(ship.name, "dishonours her surrender", "optional rule 6"))
    if held and ship.grappled:
        state.continuing.append((ship.name, ship.grappled))


def in_enemy_range(state: NavalState, ship: Ship) -> bool:
    for enemy in state.ships.values():
        if enemy.side != ship.side and enemy.fighting and enemy.batteries:
            reach = max(max(BANDS[b.kind]) for _, b in enemy.batteries)
            if plane.distance(enemy.point, ship.point) <= reach:
                return True
    return False


def broken_crews(state: NavalState) -> list[Ship]:
    """Optional rule 5: ships down to a quarter of their crew, still in range or grappled."""
    if not state.scenario.option("crews"):
        return []
    return [
        s for s in state.ordered_ships()
        if s.fighting and s.crew * 4 <= s.spec.crew and (s.grappled or in_enemy_range(state, s))
    ]


def crew_die(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name}'s broken crew (optional rule 5)", value))
    if value <= 2 and ship.fighting:
        surrender(state, ship, "offered")


def end_of_move_options(state: NavalState, player: int) -> list:
    from .actions import Choose

    found = []
    if state.scenario.option("prizes"):
        found += [Choose("surrender", s.name) for s in state.ordered_ships() if s.side == player and s.fighting]
    if state.scenario.option("crews"):
        reach = two_drift_moves(state)
        for wreck, (x, y, count) in state.survivors.items():
            if count <= 0:
                continue
            for s in state.ordered_ships():
                if s.side == player and s.fighting and s.drift_next <= state.move_number and \
                        plane.distance(s.point, (x, y)) <= reach and s.crew >= 4:
                    found.append(Choose("pick-up", s.name, wreck))
    return found


def pick_up(state: NavalState, rescuer: Ship, wreck: str) -> None:
    x, y, count = state.survivors[wreck]
    taken = min(rescuer.crew // 4, count)
    state.survivors[wreck] = (x, y, count - taken)
    if state.ship_sides[wreck] == rescuer.side:
        rescuer.crew += taken
    else:
        rescuer.prisoners += taken
    rescuer.drift_next = state.move_number + 1
    state.emit(Marked(rescuer.name, f"picks up {taken} survivors of {wreck}", "optional rule 5"))


def offer(state: NavalState, ship: Ship) -> None:
    """A surrender offered at the end of the move: accepted at once unless she dishonoured one before."""
    if ship.dishonoured:
        state.push_decide(1 - ship.side, "accept", ship.name)
        return
    surrender(state, ship, "offered")
