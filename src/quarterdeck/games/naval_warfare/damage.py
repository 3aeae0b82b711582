"""Damage (seed 003, rule 5; Nelson rules 2 and 3; optional rules 2 and 7).

Rule 5: at the end of the move in which a ship first becomes quarter damaged, and again half
damaged, throw a die: 1-3 a mast is lost; on becoming three-quarters damaged a mast goes without a
throw. Nelson 2: at the quarter and the half throw again; a 1 means a second die: 1 the ship blows
up (ships within 3" catch fire), 2-6 she catches fire; at three-quarters the second die is thrown
at once. Nelson 3: a ship on fire throws at the start of each move, 5-6 puts it out; otherwise she
drifts and cannot fire; after five failed throws she blows up. Optional 2: one lost mast is
jury-rigged in five moves not fired on at close range. Optional 7: in Strong winds a ship three
quarters damaged loses a flotation point a move unless she jettisons a battery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.events import DieRolled, Exploded, Marked, MastLost

from .ship import Ship
from .wind import STRONG

if TYPE_CHECKING:
    from .state import NavalState

EXPLOSION_REACH = 300  # 3 inches, mainmast to mainmast
FIRE_LIMIT = 5


def threshold_checks(state: NavalState) -> None:
    """End of move: one mast check (and Nelson fire check) per threshold first reached."""
    for ship in state.ordered_ships():
        if not ship.in_play:
            continue
        level = ship.damage_level()
        for threshold in range(ship.marks + 1, level + 1):
            if threshold < 3:
                state.push_roll("mast", ship.name)
            else:
                state.push_do("lose-mast", ship.name)
            if state.scenario.option("nelson"):
                state.push_roll("powder" if threshold < 3 else "powder-second", ship.name)
        ship.marks = max(ship.marks, level)


def mast_die(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name}'s masts (rule 5)", value))
    if value <= 3:
        lose_mast(state, ship)


def lose_mast(state: NavalState, ship: Ship) -> None:
    if ship.masts_lost < 2 and ship.in_play:
        ship.masts_lost += 1
        state.emit(MastLost(ship.name, ship.masts_lost))


def powder_die(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name}'s fire check (Nelson rule 2)", value))
    if value == 1:
        state.push_roll("powder-second", ship.name)


def powder_second(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name}'s second fire die (Nelson rule 2)", value))
    if not ship.in_play:
        return
    if value == 1:
        blow_up(state, ship)
    else:
        catch_fire(state, ship)


def catch_fire(state: NavalState, ship: Ship) -> None:
    if ship.in_play and not ship.on_fire:
        ship.on_fire = 1
        state.emit(Marked(ship.name, "catches fire", "Nelson rules 2 and 3"))


def blow_up(state: NavalState, ship: Ship) -> None:
    state.emit(Exploded(ship.name, state.where(ship.point)))
    state.sink(ship, "blown-up", "")
    for other in state.ordered_ships():
        if other is not ship and other.in_play and plane.distance(other.point, ship.point) <= EXPLOSION_REACH:
            catch_fire(state, other)


def fire_die(state: NavalState, ship: Ship, value: int) -> None:
    """Nelson rule 3, thrown at the start of each move by a ship on fire."""
    state.emit(DieRolled(f"{ship.name} fights the fire (Nelson rule 3)", value))
    if value >= 5:
        ship.on_fire = 0
        state.emit(Marked(ship.name, "puts out her fire", "Nelson rule 3"))
        return
    ship.on_fire += 1
    if ship.on_fire > FIRE_LIMIT:
        blow_up(state, ship)


def jury_rig(state: NavalState) -> None:
    """Optional rule 2: five moves not fired on at close range raise one jury mast (once)."""
    for ship in state.ordered_ships():
        if not ship.fighting or ship.masts_lost == 0 or ship.jury_done:
            continue
        if ship.fired_close:
            continue  # a move fired on at close range is not counted
        ship.jury += 1
        if ship.jury >= 5:
            ship.masts_lost -= 1
            ship.jury_done = True
            state.emit(Marked(ship.name, "has a jury mast rigged", "optional rule 2"))


def foundering_ships(state: NavalState) -> list[Ship]:
    if not state.scenario.option("foundering") or state.strength != STRONG:
        return []
    return [s for s in state.ordered_ships() if s.in_play and s.damage_level() >= 3]


def founder(state: NavalState, ship: Ship) -> None:
    ship.flotation -= 1
    state.emit(Marked(ship.name, f"takes water: flotation {ship.flotation}", "optional rule 7"))
    if ship.flotation <= 0:
        state.sink(ship, "foundered", "")
