"""Movement: declaration against momentum and wind, the Quarterly Movement Chart, moving and turning.

Seed 001, MOVEMENT 1 (momentum: +2 / -4 a game-turn, running afoul excepted), 2 (wind: the
schedule's maximum by the wind on the ship), 3 (turning: the schedule's cost per hexside, +1 into
the wind, three hexsides in one hex only when tacking or falling off and never for "P" ships, turns
that borrow points from later segments, dead to windward), 4 (mast damage: 1 MP less in each later
segment), and the Quarterly Movement Chart. Readings from shared/design/rules-decisions.md, Frigate:
"Movement/Combat Execution" and "Numbers and rulings".
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from quarterdeck.core.hexes import Hex, HexDir, HexGrid, neighbour

from .actions import PORT, STARBOARD
from .ships import Ship

if TYPE_CHECKING:
    from .state import FrigateState

WAYS = {PORT: -1, STARBOARD: 1}
MOMENTUM_UP, MOMENTUM_DOWN = 2, 4


def wind_offset(facing: HexDir, wind_from: HexDir) -> int:
    """How many hexsides clockwise from the bow the wind comes from (0 dead ahead, 3 astern)."""
    return (wind_from - facing) % 6


@cache  # 72 possible questions, asked for every turn listed
def into_wind(facing: HexDir, way: int, wind_from: HexDir) -> bool:
    """Seed, Movement 3: the turn brings wind entering a side-rear hexside to a side-front one, or a
    side-front one to the front (rear to side-rear is not into the wind)."""
    before = _relative(wind_offset(facing, wind_from))
    after = _relative(wind_offset(facing.turned(way), wind_from))
    return (before, after) in (("side-rear", "side-front"), ("side-front", "front"))


def _relative(offset: int) -> str:
    return ("front", "side-front", "side-rear", "rear", "side-rear", "side-front")[offset]


# --- Movement Declaration ---------------------------------------------------------------------------
def declaration_range(state: FrigateState, ship: Ship) -> tuple[int, int, str]:
    """The allowed Movement Allowances (low, high) this turn and why (for the interfaces).

    Momentum (seed, Movement 1): at most last + 2 and at least last - 4; the maximum is the
    schedule's for the wind on her facing (after damage); when that is below last - 4 she carries
    way at exactly max(0, last - 4). Dismasted: 0 (ruling). (A ship cutting loose declares from rest:
    `cutting_top`.)"""
    low, high = declaration_limits(state, ship)
    if ship.dismasted(state.tables):
        return low, high, "dismasted: no Movement Allowance"
    last = ship.last_ma
    top = ship.max_ma(state.tables, state.velocity, state.wind_from)
    where = _relative(wind_offset(ship.facing, state.wind_from))
    why = f"schedule maximum {top} ({state.velocity}, wind on the {where})"
    why += f", momentum {low} to {last + MOMENTUM_UP} from last turn's {last}"
    if top < low:
        return low, low, why + f": carrying way at {low}"
    return low, high, why


def declaration_limits(state: FrigateState, ship: Ship) -> tuple[int, int]:
    """`declaration_range`'s (low, high), without the reasons (the computer captains read it often)."""
    if ship.dismasted(state.tables):
        return 0, 0
    last = ship.last_ma
    low = max(0, last - MOMENTUM_DOWN)
    high = min(ship.max_ma(state.tables, state.velocity, state.wind_from), last + MOMENTUM_UP, 20)
    return low, max(low, high)


def cutting_top(state: FrigateState, ship: Ship) -> int:
    """The most a ship cutting loose may declare: from rest (momentum +2), and, since an afoul pair
    drifts head to wind, read with the wind on her side-front as she pays off (Decision (ours))."""
    side_front = ship.copy()  # (dismasted or in no wind, her maximum is 0)
    side_front.facing = state.wind_from.turned(1)
    return min(side_front.max_ma(state.tables, state.velocity, state.wind_from), MOMENTUM_UP)


def dead_to_windward(state: FrigateState, ship: Ship) -> bool:
    """Seed, Movement 3: facing dead into the wind with no allowance left after momentum: the only
    movement of the whole turn is one free hexside away from the wind."""
    return (
        state.velocity != "no wind"
        and wind_offset(ship.facing, state.wind_from) == 0
        and not ship.dismasted(state.tables)
        and not ship.afoul
        and max(0, ship.last_ma - MOMENTUM_DOWN) == 0
    )


# --- points in a segment ----------------------------------------------------------------------------
def segment_allotment(state: FrigateState, ship: Ship, segment: int) -> int:
    """The chart's points for the segment (1-4), less the seed's mast penalty (floor 0)."""
    return max(0, state.tables.points(ship.ma)[segment - 1] - ship.penalty)


def points_to_come(state: FrigateState, ship: Ship) -> int:
    """Points she still has this game-turn: this segment's and the later segments', less debts."""
    later = sum(segment_allotment(state, ship, s) for s in range(state.segment + 1, 5))
    return ship.left + later - ship.debt


# --- turning -----------------------------------------------------------------------------------------
def turn_cost(state: FrigateState, ship: Ship, way: int) -> int:
    """The schedule's turning cost, +1 for a hexside turned into the wind (seed: rule 6.43 mandatory)."""
    return ship.row.turn + (1 if into_wind(ship.facing, way, state.wind_from) else 0)


def turn_problem(state: FrigateState, ship: Ship, way: int) -> tuple[str, str] | None:
    """Why she may not turn one hexside `way` now (rule, message), or None."""
    if ship.left <= 0:
        return "movement-points", f"{ship.name} has no Movement Points left in this segment"
    if ship.must_leave:
        return "cutting-loose", f"{ship.name} has just cut loose: her first point must take her out of the hex"
    if ship.course is not None and not _towards(ship.facing, way, ship.course):
        return "command-control", f"{ship.name} must sail {ship.course.name} (Command Control)"
    if ship.turned_here >= 2 and not _third_hexside_allowed(ship, way):
        if ship.row.p:
            return "three-hexsides", f"{ship.name}'s type is marked P: never three hexsides in one hex"
        return "three-hexsides", (
            f"{ship.name} has turned {ship.turned_here} hexsides in this hex; a third only when tacking "
            "or falling off the wind (seed, Turning), a fourth never"
        )
    cost = turn_cost(state, ship, way)
    if cost > points_to_come(state, ship):
        return "turning-cost", f"turning costs {cost} and {ship.name} has only {points_to_come(state, ship)} this turn"
    return None


def _third_hexside_allowed(ship: Ship, way: int) -> bool:
    """Seed, Turning: not "P"; tacking (at the segment's start the wind entered a side-front or
    side-rear hexside and she turns into the wind) or falling off (she faced dead into it)."""
    if ship.row.p or ship.turned_here != 2 or way != ship.turn_way:
        return False
    if ship.turn_k == 0:
        return True
    towards = 1 if ship.turn_k in (1, 2) else -1
    return ship.turn_k in (1, 2, 4, 5) and ship.turn_way == towards


def _towards(facing: HexDir, way: int, course: HexDir) -> bool:
    """Whether turning `way` is the (or a) shortest way round to `course`."""
    if facing == course:
        return False
    clockwise = (course - facing) % 6
    return clockwise == 3 or (way == 1) == (clockwise < 3)


def apply_turn(state: FrigateState, ship: Ship, way: int) -> None:
    cost = turn_cost(state, ship, way)
    if ship.turned_here == 0:
        ship.turn_k, ship.turn_way = ship.segment_k, way
    ship.turned_here += 1
    ship.facing = ship.facing.turned(way)
    spend(ship, cost)


def spend(ship: Ship, cost: int) -> None:
    """Spend points; what the segment lacks is borrowed from the later segments (seed, Turning)."""
    ship.started = True
    if cost > ship.left:
        ship.debt += cost - ship.left
        ship.left = 0
    else:
        ship.left -= cost


# --- moving ahead -------------------------------------------------------------------------------------
def move_problem(state: FrigateState, ship: Ship) -> tuple[str, str] | None:
    """Why she may not move one hex ahead now, or None (entering enemy hexes is judged by the caller)."""
    if ship.left <= 0:
        return "movement-points", f"{ship.name} has no Movement Points left in this segment"
    if ship.course is not None and ship.facing != ship.course:
        return "command-control", f"{ship.name} must turn to {ship.course.name} before moving (Command Control)"
    ahead = neighbour(ship.hex, ship.facing)
    force = state.force_state[ship.owner]
    if force.withdrawing and state.grid.contains(ahead):
        edge = state.scenario.forces[ship.owner].home_edge
        if edge_distance(state, ahead, edge) > edge_distance(state, ship.hex, edge):
            return "preservation", f"{state.players[ship.owner]} is withdrawing: no move away from the {edge} edge"
    return None


def edge_distance(state: FrigateState, h: tuple[int, int], edge: str) -> int:
    column, row = state.grid.to_offset(h)
    return {"north": row, "south": state.grid.rows - 1 - row, "west": column,
            "east": state.grid.columns - 1 - column}[edge]


def downwind(state: FrigateState) -> HexDir:
    """Drift and sag move a ship the way the wind blows TO (ruling)."""
    return state.wind_from.opposite()


def edge_of(grid: HexGrid, h: Hex) -> str:
    """The map edge beyond which `h` lies (a ship leaving the map there)."""
    column, row = grid.to_offset(h)
    if column < 0:
        return "west"
    if column >= grid.columns:
        return "east"
    return "north" if row < 0 else "south"
