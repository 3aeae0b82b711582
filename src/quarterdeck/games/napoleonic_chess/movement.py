"""Movement (seed 002, "Movement and Combat": "Units basically move (or not) and then attack in a
single turn", and each unit's "may move"): the movement phase of a turn.

Every unit of the army to play may move once, in any order, one at a time, along a straight line
in its move directions, as far as its move allows (tables.toml); every square it passes must be
empty and units never share a square (the rulings of shared/design/rules-decisions.md). The hill
rule, "Units cannot move on and off a Hill in a single turn", is terrain.py's `enters_and_leaves`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Event, Moved
from quarterdeck.core.geometry import Square

from .actions import Move
from .scenario import Scenario
from .terrain import enters_and_leaves
from .units import Unit, UnitType

if TYPE_CHECKING:
    from .state import NapoleonicState


def moves(state: NapoleonicState, player: int) -> Iterator[Move]:
    """Every move of a unit of `player` that has not moved yet this turn."""
    board, moved, rays = state.board, state.moved, state.scenario.rays  # the hottest loop of a playout
    high = state.high_ground()
    for origin, unit in state.own_units(player):
        if unit.id in moved:
            continue
        for ray in rays(unit.kind, origin):
            for reached, square in enumerate(ray, start=1):
                if square in board:
                    break
                if high and enters_and_leaves(high, (origin, *ray[:reached])):
                    continue
                yield Move(origin, square)


def path(scenario: Scenario, kind: UnitType, origin: Square, destination: Square) -> tuple[Square, ...] | None:
    """The squares of a move from origin to destination, if the unit type can make it."""
    for ray in scenario.rays(kind, origin):
        if destination in ray:
            return (origin, *ray[: ray.index(destination) + 1])
    return None


def check_move(state: NapoleonicState, action: Move, player: int) -> None:
    unit = state.unit_of(player, action.origin)
    if unit.id in state.moved:
        raise IllegalAction("one-move-per-turn", f"{unit.id} has already moved this turn")
    squares = path(state.scenario, unit.kind, action.origin, action.destination)
    if squares is None:
        raise IllegalAction("movement", unit.kind.describe_move())
    if any(square in state.board for square in squares[1:-1]):
        raise IllegalAction("blocked-path", f"the first square of a two-square move must be empty ({unit.id})")
    if action.destination in state.board:
        raise IllegalAction("no-sharing", f"a unit already stands on {state.square_name(action.destination)}")
    if enters_and_leaves(state.high_ground(), squares):
        raise IllegalAction("hill-movement", "a unit may not move on and off a hill in a single move")


def apply_move(state: NapoleonicState, action: Move, player: int, events: list[Event]) -> None:
    unit = relocate(state, action.origin, action.destination)
    state.moved[unit.id] = path(state.scenario, unit.kind, action.origin, action.destination) or ()
    events.append(Moved(unit.id, state.square_name(action.origin), state.square_name(action.destination)))


def relocate(state: NapoleonicState, origin: Square, destination: Square) -> Unit:
    """Take the unit on `origin` to `destination` (a move or an advance)."""
    unit = state.board.pop(origin)
    state.board[destination] = unit
    return unit
