"""Command Control, Formations and the Preservation Level.

Seed 001, COMMAND CONTROL (standard, except that a Fleet Flagship is never subjected; optional: a
Fleet Flagship fired on undergoes it the next game-turn), FORMATIONS 1-2 (intervals may change; a
gap of more than two hexes makes the cut-off ships close it; changing formation by announcement,
the old formation holding until the new conditions are met), PRESERVATION LEVEL (optional: the
efficiency drops, the CRT shift at the second drop, Low falls back on the standard rule).

Reconstructed (shared/design/rules-decisions.md, Frigate, "Command, formations, preservation" and
"Numbers and rulings"): a ship more than 4 hexes from her squadron's flagship, or out of its line of
sight, rolls 1d6 against her force's efficiency (pass on 5 / 4 / 3 / 2 or less for Crack / Average /
Green / Low); on a failure a second die gives the one direction she must sail all turn (dead into
the wind: the nearest sailable direction, clockwise on a tie). Ships in a formation whose lead is
within 4 hexes and in sight are exempt. Line Ahead: each ship astern of the one ahead; Line Abreast:
each abeam of the one before. Preservation: over its Preservation Level a force withdraws toward
its home edge and fires only at ships that fired on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from quarterdeck.core.events import CourseOrdered, Event
from quarterdeck.core.hexes import HexDir, bearing, distance

from .scenario import CRTS, EFFICIENCIES, Squadron
from .ships import Ship

if TYPE_CHECKING:
    from .state import FrigateState


@dataclass
class ForceState:
    """What changes about a force during the battle (seed, Preservation Level)."""

    efficiency: str
    crt: str
    drops: int = 0
    withdrawing: bool = False

    def copy(self) -> ForceState:
        return ForceState(self.efficiency, self.crt, self.drops, self.withdrawing)


# --- formations --------------------------------------------------------------------------------------
def members(state: FrigateState, squadron: Squadron) -> list[Ship]:
    """The squadron's ships still sailing under their own colours, in the scenario's order."""
    return [s for s in state.ship_list if s.spec.squadron == squadron.name and s.side == squadron.side
            and s.afloat and not s.prize]


def _placed(shape: str, before: Ship, ship: Ship) -> bool:
    """Line Ahead: `ship` lies astern of `before` (150 degrees or more off her bow); Line Abreast:
    abeam of her (60 to 120 degrees off her bow, either side)."""
    off = abs(bearing(before.hex, before.facing, ship.hex))
    if shape == "line-ahead":
        return off >= 150.0 - 1e-7
    return 60.0 - 1e-7 <= off <= 120.0 + 1e-7


def formation_status(state: FrigateState, squadron: Squadron, shape: str) -> dict[str, str]:
    """Per ship of the squadron: "in" (in formation), "cut-off" (in formation, but behind a gap of
    more than two hexes: must close it, seed Formations 1) or "out"."""
    line = members(state, squadron)
    status: dict[str, str] = {}
    cut = False
    broken = False
    for before, ship in zip(line, line[1:], strict=False):
        if broken or not _placed(shape, before, ship):
            broken = True
            status[ship.name] = "out"
            continue
        if distance(before.hex, ship.hex) > state.tables.formation_gap + 1:
            cut = True
        status[ship.name] = "cut-off" if cut else "in"
    if line:
        status[line[0].name] = "in"
    return status


def squadron_flag(state: FrigateState, squadron: Squadron) -> Ship | None:
    """The squadron's flagship (a fleet flagship sailing in it is its flag too), or (when she is
    lost) the fleet flagship of the side."""
    for ship in members(state, squadron):
        if ship.spec.flagship in ("squadron", "fleet"):
            return ship
    for ship in state.ship_list:
        if ship.side == squadron.side and ship.afloat and not ship.prize and ship.spec.flagship == "fleet":
            return ship
    return None


def in_sight(state: FrigateState, a: Ship, b: Ship) -> bool:
    return state.grid.line_clear(a.hex, b.hex, state.occupied_hexes().keys())


def subject_to_command_control(state: FrigateState, ship: Ship) -> bool:
    """Whether she must roll for Command Control at the start of this game-turn."""
    if not ship.afloat or ship.prize or ship.afoul or ship.dismasted(state.tables):
        return False
    if ship.spec.flagship == "fleet":
        # Seed: never, unless the optional rule is in force and she was fired on last turn.
        return state.scenario.option("flagship_fired_on") and ship.fired_on_turn == state.turn - 1 > 0
    squadron = state.squadron_of(ship)
    if squadron is None:
        return False
    flag = squadron_flag(state, squadron)
    if flag is None or flag is ship:
        return False
    shape = state.formations[squadron.name][0]
    if shape:
        status = formation_status(state, squadron, shape)
        lead = members(state, squadron)[0]
        if status.get(ship.name) in ("in", "cut-off") and (
            distance(lead.hex, ship.hex) <= state.tables.flag_distance and in_sight(state, lead, ship)
        ):
            return False
    return distance(flag.hex, ship.hex) > state.tables.flag_distance or not in_sight(state, flag, ship)


def ordered_course(face: int, wind_from: HexDir) -> HexDir:
    """The die's direction; dead into the wind gives the nearest sailable one, clockwise on a tie."""
    course = HexDir.from_number(face)
    return course.turned(1) if course == wind_from else course


def cut_off(state: FrigateState, ship: Ship) -> bool:
    """Seed, Formations 1: cut off behind a gap, she must attempt to close it (she declares the
    highest allowance she may: Decision)."""
    squadron = state.squadron_of(ship)
    if squadron is None or not state.formations[squadron.name][0]:
        return False
    return formation_status(state, squadron, state.formations[squadron.name][0]).get(ship.name) == "cut-off"


def formation_met(state: FrigateState, squadron: Squadron, shape: str) -> bool:
    return all(value == "in" for value in formation_status(state, squadron, shape).values())


# --- preservation --------------------------------------------------------------------------------------
def preservation_drops(level: int, lost: int) -> int:
    """Seed: one drop over the Preservation Level, a second when it is exceeded by 6 (or by the
    level itself when that is under 6)."""
    if lost <= level:
        return 0
    return 2 if lost - level >= min(6, level) else 1


def apply_drop(force: ForceState, standard_rule: bool) -> str:
    """One efficiency drop (seed, optional rule); returns what happened."""
    if standard_rule or force.efficiency == EFFICIENCIES[-1]:
        force.withdrawing = True
        return "withdraws"
    force.efficiency = EFFICIENCIES[EFFICIENCIES.index(force.efficiency) + 1]
    return f"efficiency drops to {force.efficiency}"


def worse_crt(crt: str) -> str:
    return CRTS[min(CRTS.index(crt) + 1, len(CRTS) - 1)]


# --- the dice of this section ----------------------------------------------------------------------
def command_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    ship = state.ships[subject]
    needed = state.tables.efficiency[state.force_state[ship.owner].efficiency].command
    if values[0] > needed:
        state.rolls.insert(0, ("course", subject, 1))
        return f"fails (needs {needed} or less): a die sets her course"
    return f"passes (needs {needed} or less)"


def course_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    ship = state.ships[subject]
    ship.course = ordered_course(values[0], state.wind_from)
    events.append(CourseOrdered(ship.name, ship.course.name))
    return f"she must sail {ship.course.name} all this turn"
