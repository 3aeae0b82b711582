"""Running afoul, boarding and prizes.

Seed 001, MOVEMENT 6 (running afoul: facing conforms to the other ship's, the same way when entering
through one of its three rear hexsides, the opposite way through a front one; when both wanted it
the ship plotted to move the fewest points that segment, else the one furthest north, sets the
facing; the side-by-side record; screening; fire only at each other; automatic break-away from a
captured ship) and PRIZES 1-3 (capture by entering the hex of a merchantman or a ship with three
crew hits and announcing an attack at 1-1 or better; recapture likewise, even by a crippled ship;
destroying a prize after four consecutive game-turns afoul of it).

Reconstructed (shared/design/rules-decisions.md, Frigate, "Numbers and rulings"): the capture test
is the captor's full broadside after gun and crew hits against the target's Defence Strength;
melee at a segment's end is 1d6 + crew points (round(rating / 10) x (3 - crew hits) / 3) + 1 Crack /
-1 Low, the lower total taking a crew hit (both on a tie); a ship reaching three crew hits while
afoul of an enemy that meleed is captured. Cutting loose at Declaration: 1d6, 1-3 frees the pair,
automatic when both owners ask or from a captured ship.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from quarterdeck.core.events import CutLoose, Event, Meleed
from quarterdeck.core.hexes import PORT, STARBOARD, Hex, HexDir, centre, direction_between

from .combat import gunnery_strength
from .ships import Ship

if TYPE_CHECKING:
    from .state import FrigateState

ESCAPE, EMPTY, AFOUL, CAPTURE, RECAPTURE = "escape", "empty", "afoul", "capture", "recapture"


def entry(state: FrigateState, ship: Ship, dest: Hex) -> tuple[str, Ship | None, str]:
    """What entering `dest` means for `ship`: (kind, the ship there, why not) with kind one of
    escape, empty, afoul, capture, recapture, or "" when she may not enter."""
    if not state.grid.contains(dest):
        return ESCAPE, None, ""
    there = state.ships_at(dest)
    if not there:
        return EMPTY, None, ""
    if len(there) > 1:
        return "", None, f"{state.grid.name(dest)} already holds two ships"
    other = there[0]
    if ship.prize:
        return "", other, f"{ship.name} is a prize with a prize crew: she cannot run aboard {other.name}"
    if other.owner == ship.owner:
        if other.prize:
            return AFOUL, other, ""  # alongside one's own prize, to destroy her (ruling)
        return "", other, f"{other.name}, a ship of the same side, is in {state.grid.name(dest)}"
    if other.prize and other.side == ship.owner:
        return RECAPTURE, other, ""
    if other.capturable(state.tables) and can_capture(state, ship, other):
        return CAPTURE, other, ""
    return AFOUL, other, ""


def can_capture(state: FrigateState, captor: Ship, target: Ship) -> bool:
    """Seed, Prizes 1: an attack at odds of at least 1-1, i.e. the captor's full broadside (after gun
    and crew hits, no range or raking) at least the target's Defence Strength."""
    gs = gunnery_strength(state.tables, captor.gunnery(), False, 0, "", captor.crew)
    return not captor.prize and gs >= target.spec.ds


def entered_through(hex_: Hex, facing: HexDir, came_from: Hex) -> int:
    """The hexside of the ship in `hex_` that a ship coming from `came_from` crossed, counted
    clockwise from her bow (0 front ... 3 rear)."""
    way = direction_between(hex_, came_from)
    return 0 if way is None else (way - facing) % 6


def conform(entering: Ship, other: Ship, came_from: Hex) -> None:
    """Seed, Movement 6: the ship that did not set the facing conforms; the sides touching are set
    by where she came in (front and rear hexsides: the other's starboard side, Decision)."""
    side = entered_through(other.hex, other.facing, came_from)
    if side in (2, 3, 4):  # rear hexsides: the same way
        entering.facing = other.facing
    else:
        entering.facing = other.facing.opposite()
    other.afoul_side = PORT if side in (4, 5) else STARBOARD
    if entering.facing == other.facing:
        entering.afoul_side = PORT if other.afoul_side == STARBOARD else STARBOARD
    else:
        entering.afoul_side = other.afoul_side
    entering.afoul, other.afoul = other.name, entering.name
    for ship in (entering, other):
        ship.left = 0  # afoul ships stop


def facing_setter(a: Ship, b: Ship, plotted: dict[str, int]) -> tuple[Ship, Ship]:
    """Both wanted it (SiMove): the ship plotted to move the fewest points that segment sets the
    facing, else the one whose hex centre lies further north, else further west (ruling)."""
    def key(ship: Ship) -> tuple[int, float, float]:
        x, y = centre(ship.hex)
        return (plotted[ship.name], y, x)  # both moved at this step: both plotted

    return (a, b) if key(a) <= key(b) else (b, a)


def melee_points(state: FrigateState, ship: Ship) -> int:
    """Crew points: round(rating / 10) x (3 - crew hits) / 3, to the nearest (half to even), plus the
    force's efficiency modifier (+1 Crack, -1 Low)."""
    base = round(Fraction(ship.spec.rating, state.tables.melee_divisor))
    crew = round(Fraction(base * max(0, 3 - ship.crew), 3))
    return crew + state.tables.efficiency[state.force_state[ship.owner].efficiency].melee


def free_pair(a: Ship, b: Ship) -> None:
    for ship in (a, b):
        ship.afoul = ""
        ship.afoul_side = ""
        ship.destroying = -1


# --- the dice of this section ----------------------------------------------------------------------
def cut_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    ship = state.ships[subject]
    partner = state.ships[ship.afoul]
    freed = values[0] <= 3
    events.append(CutLoose(ship.name, partner.name, freed))
    if freed:
        free(state, ship, partner)
        return f"1-3: cut loose from {partner.name}"
    ship.ma = 0
    return f"4-6: still afoul of {partner.name}"


def free(state: FrigateState, ship: Ship, partner: Ship) -> None:
    free_pair(ship, partner)
    for s in (ship, partner):
        s.must_leave = s.ma > 0
        if not s.cut:
            s.ma = 0


def melee_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    ship = state.ships[subject]
    partner = state.ships[ship.afoul]
    own, theirs_points = melee_points(state, ship), melee_points(state, partner)
    mine, theirs = values[0] + own, values[1] + theirs_points
    events.append(Meleed(ship.name, partner.name, mine, theirs))
    if mine <= theirs:
        state.pending.append((ship.name, "crew", partner.name))
    if theirs <= mine:
        state.pending.append((partner.name, "crew", ship.name))
    losers = " and ".join(s.name for s, lost in ((ship, mine <= theirs), (partner, theirs <= mine)) if lost)
    return (f"{ship.name} {values[0]} + {own} = {mine} against {partner.name} {values[1]} + {theirs_points} = "
            f"{theirs}: {losers} {'take' if mine == theirs else 'takes'} a crew hit")


def pair(a: str, b: str) -> tuple[str, str]:
    """Two ships afoul (or meleeing) as one key, in name order."""
    return (a, b) if a < b else (b, a)
