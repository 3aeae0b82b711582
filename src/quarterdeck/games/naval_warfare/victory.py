"""The clock and victory (seed 003, the setup's time and nightfall; victory is a decision).

A move is an hour and a half (an hour with the option); the battle ends at nightfall, 9 pm. With
the night rules (a kept 9 pm start, or the night-escape option) it goes on into the night: at the
end of each move from nightfall a side may declare that it escapes, and does on 5-6; the battle
ends at dawn, 6 am. It also ends when a side has no ship left that can fight or move. Each side
scores the flotation it took off enemy ships, plus the remaining flotation of every enemy ship
sunk, wrecked, blown up, foundered, surrendered or taken; disengaged ships score nothing more,
unless the scenario fights to a finish (`victory.off-table = "struck"`): then a ship that leaves the
table gives the enemy her remaining flotation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core.events import DieRolled, Escaped
from quarterdeck.core.protocol import ships_phrase

from .ship import HELD, LOST, ROWING, Ship

if TYPE_CHECKING:
    from .state import NavalState

NIGHTFALL = 21 * 60
DAWN = 30 * 60  # 6 am the next day


def night_rules(state: NavalState) -> bool:
    return state.scenario.option("keep-nine-pm") or state.scenario.option("night-escape")


def leaving_strikes(state: NavalState) -> bool:
    """Whether a ship that leaves the table counts as struck (the scenario's objective)."""
    return state.scenario.off_table == "struck"


_TAKEN = (*LOST, *HELD)  # statuses whose remaining flotation the enemy scores
_TAKEN_OR_GONE = (*_TAKEN, "disengaged")  # the same where leaving the table counts as struck


def scores(state: NavalState) -> tuple[int, int]:
    totals = [0, 0]
    gone = _TAKEN_OR_GONE if leaving_strikes(state) else _TAKEN
    for ship in state.ships.values():
        if ship.status == "waiting":
            continue
        taken = ship.lost_flotation + (ship.flotation if ship.status in gone else 0)
        totals[1 - ship.side] += taken
    return totals[0], totals[1]


def effective(ship: Ship) -> bool:
    """A ship that can still fight or move."""
    return ship.fighting and (bool(ship.batteries) or ship.masts_lost < 2 or ship.oars)


def side_beaten(state: NavalState) -> int | None:
    """The side with no ship left that can fight or move (reinforcements still to come count)."""
    for side in (0, 1):
        if not any(effective(s) or s.status == "waiting" for s in state.ships.values() if s.side == side):
            return side
    return None


FATES = {"afloat": "can neither fight nor move", "disengaged": "sailed off", "blown-up": "blew up",
         "rowing": "rowed for the beach", "prize": "taken as a prize"}  # the others read as their status


def fates(state: NavalState, side: int) -> str:
    """What became of a side's ships, for the reason a battle ends: "Calcutta, Pallas sailed off; Ajax sunk"."""
    grouped: dict[str, list[str]] = {}
    for ship in state.ordered_ships():
        if ship.side == side:
            grouped.setdefault(FATES.get(ship.status, ship.status), []).append(ship.name)
    return "; ".join(f"{ships_phrase(names)} {fate}" for fate, names in grouped.items())


def clock_text(minutes: int) -> str:
    hours, mins = divmod(minutes % (24 * 60), 60)
    suffix = "am" if hours < 12 else "pm"
    shown = hours % 12 or 12
    return f"{shown}:{mins:02d} {suffix}"


def is_night(state: NavalState) -> bool:
    return NIGHTFALL <= state.clock < DAWN


def escape_die(state: NavalState, side: int, value: int) -> None:
    state.emit(DieRolled(f"{state.players[side]} escape in the night", value))
    if value < 5:
        return
    for ship in state.ordered_ships():
        if ship.side == side and ship.in_play and ship.status != ROWING:  # an abandoned galley is nobody's
            ship.status = "disengaged"
            state.emit(Escaped(ship.name, state.where(ship.point), "night"))
    state.finish(f"{state.players[side]} slipped away in the night")
