"""Movement (seed 000, "Speed and Turn" and "Wind Chart"; leaving the board from the "General notes
on scenarios and tactics": convoys, chases and breakouts).

A ship spends her S move points (one square straight ahead, two running before a strong wind) and
T turn points (45 degrees on her square) in any order; every square entered must be free sea; no
move point may be spent heading into the wind's eye (rules-decisions.md, "Movement"). A ship may
sail off the board only by an edge her scenario names as an exit: she has then escaped.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.events import Escaped, Event, Moved, Turned, WindChanged
from ...core.geometry import Compass, Square
from ...core.protocol import Action
from . import non_adjacency
from .actions import EscapeShip, MoveShip
from .scenario import LAND

if TYPE_CHECKING:
    from .state import SquareRiggerState

STARBOARD_OF = {heading: heading.turned(1) for heading in Compass}  # a turn point, precomputed
PORT_OF = {heading: heading.turned(-1) for heading in Compass}


def squares_per_point(state: SquareRiggerState, heading: Compass) -> int:
    """The wind chart: squares one move point carries a ship on this heading."""
    off_wind = min((heading - state.wind_from) % 8, (state.wind_from - heading) % 8)
    return state.setup.wind_table[state.wind_strength][off_wind]


def reachable(state: SquareRiggerState, name: str) -> tuple[set[tuple[Square, Compass]], set[str]]:
    """Every end position (square, heading) and exit edge a ship can reach with her S and T."""
    _, speed, turning = state.factors(name)
    start = (state.square[name], state.heading[name], speed, turning)
    exits = state.setup.ships[name].exits
    ends: set[tuple[Square, Compass]] = set()
    edges: set[str] = set()
    seen = {start}
    queue = deque([start])
    while queue:
        square, heading, s_left, t_left = queue.popleft()
        ends.add((square, heading))
        following: list[tuple[Square, Compass, int, int]] = []
        if t_left:
            following.append((square, STARBOARD_OF[heading], s_left, t_left - 1))
            following.append((square, PORT_OF[heading], s_left, t_left - 1))
        if s_left:
            run = squares_per_point(state, heading)
            landing, crossed = _sail(state, name, square, heading, run, exits) if run else (None, ())
            edges.update(crossed)
            if landing is not None:
                following.append((landing, heading, s_left - 1, t_left))
        for node in following:
            if node not in seen:
                seen.add(node)
                queue.append(node)
    return ends, edges


def _sail(state: SquareRiggerState, name: str, square: Square, heading: Compass, run: int, exits: frozenset[str]):
    """Sail `run` squares straight ahead: (landing square, ()) or (None, the exit edges crossed).

    Leaving by a corner crosses two edges at once; each of them that is an exit may be named."""
    dx, dy = heading.delta
    x, y = square
    grid = state.setup.grid
    for _ in range(run):
        x, y = x + dx, y + dy
        if not grid.contains((x, y)):
            crossed = [e for e in ("E", "W") if (x >= grid.width if e == "E" else x < 0)]
            crossed += [e for e in ("N", "S") if (y >= grid.height if e == "N" else y < 0)]
            return None, tuple(e for e in crossed if e in exits)
        if state.setup.terrain[y][x] == LAND or state.occupant.get((x, y), name) != name:
            return None, ()
    return (x, y), ()


def may_move(state: SquareRiggerState, name: str) -> bool:
    """A ship of the commanding seat's squadron, afloat and not struck, that has not moved yet."""
    info = state.setup.ships[name]
    side, squadron = state.setup.seats[state.seat]
    return info.side == side and info.squadron == squadron and state.is_active(name) and name not in state.moved


def options(state: SquareRiggerState, name: str, strict: bool) -> list[Action]:
    """A ship's moves and escapes; `strict` as in `non_adjacency.guard`."""
    ends, edges = reachable(state, name)
    here = (state.square[name], state.heading[name])
    guard = non_adjacency.guard(state, name, strict)
    found: list[Action] = [
        MoveShip(name, square, heading)
        for square, heading in sorted(ends)
        if (square, heading) != here and square not in guard
    ]
    found.extend(EscapeShip(name, edge) for edge in sorted(edges))
    return found


def validate(state: SquareRiggerState, action: MoveShip | EscapeShip) -> None:
    """Raise IllegalAction unless the ship (already known to be the commander's own) may make this move."""
    name = action.ship
    if state.is_battery(name):
        raise IllegalAction("batteries-fixed", f"{name} is a shore battery and cannot move")
    if name in state.escaped:
        raise IllegalAction("escaped", f"{name} has left the battle")
    if state.is_struck(name):
        raise IllegalAction("struck-inert", f"{name} has struck her colours and cannot move")
    if name in state.moved:
        raise IllegalAction("one-move-per-turn", f"{name} has already moved this turn")
    ends, edges = reachable(state, name)
    if isinstance(action, EscapeShip):
        if action.edge not in state.setup.ships[name].exits:
            raise IllegalAction("exit-edges", f"{name} may not leave the board by the {action.edge} edge")
        if action.edge not in edges:
            raise IllegalAction("movement", f"{name} cannot reach the {action.edge} edge this turn")
        return
    if (action.square, action.heading) == (state.square[name], state.heading[name]):
        raise IllegalAction("movement", f"{name} is already there; a ship that stays needs no move")
    if (action.square, action.heading) not in ends:
        raise IllegalAction("movement", _why_unreachable(state, name, action))
    other = non_adjacency.guard(state, name, strict=False).get(action.square)
    if other is not None:
        raise IllegalAction(
            "non-adjacency",
            f"{name} would end next to {other}, which has already moved; own ships keep a square apart",
        )


def _why_unreachable(state: SquareRiggerState, name: str, action: MoveShip) -> str:
    where = state.setup.grid.name(action.square)
    if state.setup.terrain_at(action.square) == LAND:
        return f"{where} is land"
    if state.occupant.get(action.square, name) != name:
        return f"{where} is occupied by {state.occupant[action.square]}"
    _, speed, turning = state.factors(name)
    wind = f"wind {state.wind_strength} from {state.wind_from.name}"
    return f"{name} (S{speed} T{turning}, {wind}) cannot reach {where} heading {action.heading.name} this turn"


def move(state: SquareRiggerState, action: MoveShip) -> list[Event]:
    grid = state.setup.grid
    name = action.ship
    origin = state.square[name]
    del state.occupant[origin]
    state.occupant[action.square] = name
    state.square[name] = action.square
    state.heading[name] = action.heading
    state.moved.add(name)
    if origin == action.square:
        return [Turned(name, grid.name(origin), action.heading.name)]
    return [Moved(name, grid.name(origin), grid.name(action.square), action.heading.name)]


def escape(state: SquareRiggerState, action: EscapeShip) -> list[Event]:
    name = action.ship
    origin = state.square[name]
    del state.occupant[origin]
    state.escaped.add(name)
    state.moved.add(name)
    return [Escaped(name, state.setup.grid.name(origin), action.edge)]


def change_wind(state: SquareRiggerState) -> list[Event]:
    """The wind changes a scenario schedules for the turn now starting ("Wind Chart": "provision for a
    change of wind"; scheduled rather than rolled, so the game stays free of chance)."""
    events: list[Event] = []
    for turn, direction, strength in state.setup.wind_changes:
        if turn == state.turn:
            state.wind_from, state.wind_strength = direction, strength
            events.append(WindChanged(direction.name, strength))
    return events
