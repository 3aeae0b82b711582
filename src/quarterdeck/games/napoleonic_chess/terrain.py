"""Terrain (seed 002, "Advanced Scenarios" 3, "Optional Terrain Features"): hills, redoubts and
square border obstacles.

* Hills: +1 defence "unless attacked from an adjacent hill square" (the ruling: unless at least
  one attacker stands on a hill or a built redoubt); "Units cannot move on and off a Hill in a
  single turn" (by its move and its advance together, a unit may not come onto high ground and
  leave it again).
* Redoubts: built by "an agreed number of turns of uninterrupted occupation" (the scenario's
  `redoubts.turns`, default 3), then they "function as for Hills"; artillery attacks into one at 1
  "and cannot enter an enemy redoubt on the same turn if it falls".
* Obstacles on square edges: +1 defence "if they protect a unit from all units attacking it";
  artillery attacks across one at 1.

The terrain of a battle is part of its scenario: `read_terrain` reads a scenario file's `[terrain]`
and `[redoubts]` tables for scenario.py; the rest of this module is what terrain does to movement,
attacks and defence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from quarterdeck.core.errors import ScenarioError
from quarterdeck.core.events import Event
from quarterdeck.core.geometry import Square, SquareGrid

from .units import Unit, UnitType, integer_field, list_field, no_unknown_keys, square_field, squares_field

if TYPE_CHECKING:
    from .scenario import Scenario
    from .state import NapoleonicState

DEFAULT_REDOUBT_TURNS = 3
_TERRAIN_KEYS = {"hills", "obstacles"}
_REDOUBT_KEYS = {"turns", "sites", "built"}


@dataclass(frozen=True)
class RedoubtBuilt(Event):
    kind: ClassVar[str] = "redoubt-built"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} has dug a redoubt on {self.square}"


# --- the terrain of a scenario -------------------------------------------------------------------
def read_terrain(data: dict[str, Any], options: dict[str, Any], grid: SquareGrid) -> dict[str, Any]:
    """The `[terrain]` and `[redoubts]` tables of a scenario (and the option `redoubt_turns`) as the
    Scenario's terrain fields; ScenarioError names the faulty field, e.g. ``terrain.obstacles[0]``."""
    terrain = data.get("terrain", {})
    if not isinstance(terrain, dict):
        raise ScenarioError("terrain", "must be a table")
    no_unknown_keys(terrain, _TERRAIN_KEYS, "terrain.")
    hills = frozenset(squares_field(terrain.get("hills", []), "terrain.hills", grid))
    obstacles = frozenset(
        _obstacle_edge(text, f"terrain.obstacles[{i}]", grid)
        for i, text in enumerate(list_field(terrain.get("obstacles", []), "terrain.obstacles"))
    )

    redoubts = data.get("redoubts")
    if redoubts is not None and not isinstance(redoubts, dict):
        raise ScenarioError("redoubts", "must be a table")
    if "redoubt_turns" in options and redoubts is None:
        raise ScenarioError("options.redoubt_turns", "this scenario has no redoubts")
    redoubts = redoubts or {}
    no_unknown_keys(redoubts, _REDOUBT_KEYS, "redoubts.")
    turns = integer_field(redoubts.get("turns", DEFAULT_REDOUBT_TURNS), "redoubts.turns", 1, 99)
    if "redoubt_turns" in options:
        turns = integer_field(options["redoubt_turns"], "options.redoubt_turns", 1, 99)
    sites = frozenset(squares_field(redoubts["sites"], "redoubts.sites", grid)) if "sites" in redoubts else None
    return {
        "hills": hills,
        "obstacles": obstacles,
        "redoubts_enabled": "redoubts" in data,
        "redoubt_turns": turns,
        "redoubt_sites": sites,
        "redoubts_built": frozenset(squares_field(redoubts.get("built", []), "redoubts.built", grid)),
    }


def _obstacle_edge(value: Any, where: str, grid: SquareGrid) -> frozenset[Square]:
    """An obstacle along the edge between two orthogonally touching squares, written "a4|a5"."""
    if not isinstance(value, str) or value.count("|") != 1:
        raise ScenarioError(where, 'an obstacle is the edge between two squares, written like "a4|a5"')
    first, second = (square_field(part, where, grid) for part in value.split("|"))
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise ScenarioError(where, "an obstacle lies between two squares that share an edge")
    return frozenset((first, second))


# --- hills ----------------------------------------------------------------------------------------
def high_ground(scenario: Scenario, redoubts: frozenset[Square]) -> frozenset[Square]:
    """Hills, and built redoubts, which "function as for Hills"."""
    return scenario.hills | redoubts if redoubts else scenario.hills


def enters_and_leaves(high: frozenset[Square], path: tuple[Square, ...]) -> bool:
    """Whether a path comes onto high ground and later goes off it again."""
    if not high:
        return False
    entered = False
    for before, after in zip(path, path[1:], strict=False):
        if after in high and before not in high:
            entered = True
        elif entered and before in high and after not in high:
            return True
    return False


# --- obstacles ------------------------------------------------------------------------------------
def obstacle_between(scenario: Scenario, attacker: Square, target: Square) -> bool:
    """Whether an obstacle edge lies between two touching squares.

    Orthogonal neighbours: the edge they share. Diagonal neighbours share only a corner; the
    attack counts as crossing an obstacle when either edge of the target's square that meets
    that corner carries one (the defender is behind its hedge).

    One test serves both: the target's edges towards the attacker's file and towards its rank.
    For an orthogonal neighbour one of them is the shared edge and the other names the target
    twice, which is no edge and never an obstacle.
    """
    obstacles = scenario.obstacles
    if not obstacles:
        return False
    dx, dy = attacker[0] - target[0], attacker[1] - target[1]
    return (
        frozenset((target, (target[0] + dx, target[1]))) in obstacles
        or frozenset((target, (target[0], target[1] + dy))) in obstacles
    )


# --- what terrain does to an attack ---------------------------------------------------------------
def attack_value(
    scenario: Scenario, redoubts: frozenset[Square], kind: UnitType, origin: Square, target: Square
) -> int:
    """A unit's attack from `origin` on `target`: artillery attacks "at only 1" into a redoubt or
    across an obstacle (no more than 1; a scenario's artillery of attack 0 stays at 0)."""
    if kind.artillery and (target in redoubts or obstacle_between(scenario, origin, target)):
        return min(kind.attack, 1)
    return kind.attack


def terrain_bonus(
    scenario: Scenario, high: frozenset[Square], target: Square, attacker_squares: Iterable[Square]
) -> int:
    """+1 on high ground unless an attacker also stands on high ground; +1 behind an obstacle when
    it lies between the defender and every attacker."""
    attacker_squares = tuple(attacker_squares)
    bonus = 0
    if target in high and not any(square in high for square in attacker_squares):
        bonus += 1
    if attacker_squares and all(obstacle_between(scenario, square, target) for square in attacker_squares):
        bonus += 1
    return bonus


def advance_problem(state: NapoleonicState, unit: Unit, origin: Square, destination: Square) -> tuple[str, str] | None:
    """The terrain rule (as IllegalAction's rule and message) that forbids an advance, if any."""
    if unit.kind.artillery and destination in state.redoubts:
        return "redoubt-advance", "artillery cannot enter an enemy redoubt on the turn it falls"
    path = (*state.moved.get(unit.id, (origin,)), destination)
    if enters_and_leaves(state.high_ground(), path):
        return "hill-movement", f"{unit.id} came onto a hill this turn and may not leave it by advancing"
    return None


# --- redoubts -------------------------------------------------------------------------------------
def dig_in(state: NapoleonicState, events: list[Event]) -> None:
    """At the end of a turn, count the active army's turns of uninterrupted occupation on redoubt
    sites; a site held for the scenario's number of turns becomes a redoubt."""
    scenario = state.scenario
    if not scenario.redoubts_enabled:
        return
    works = {
        square: (unit_id, turns)
        for square, (unit_id, turns) in state.works.items()
        if (occupant := state.board.get(square)) is not None and occupant.id == unit_id
    }
    for square, unit in sorted(state.board.items()):
        if unit.army != state.active or square in state.redoubts:
            continue
        if scenario.redoubt_sites is not None and square not in scenario.redoubt_sites:
            continue
        turns = works[square][1] + 1 if square in works else 1
        if turns >= scenario.redoubt_turns:
            state.redoubts = state.redoubts | {square}
            works.pop(square, None)
            events.append(RedoubtBuilt(unit.id, state.square_name(square)))
        else:
            works[square] = (unit.id, turns)
    state.works = works
