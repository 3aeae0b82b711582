"""Scenarios (seed 002, "Standard Scenario" and "Advanced Scenarios"): the battlefield, the armies
and their alliances, the order of battle and the terrain.

Scenarios are TOML files in the `scenarios` folder of this package (or any file a user names).
Every field is checked; a bad one raises ScenarioError naming it the way the file spells it, e.g.
``units[3].square`` or ``terrain.obstacles[0]``. Two parts are read beside the rules they feed:
`[unit_types]` (and tables.toml) by units.py, `[terrain]` and `[redoubts]` by terrain.py. A loaded
`Scenario` is shared by every state of a game and never changes, so it also caches the board
geometry (movement rays, adjacent squares).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from quarterdeck.core.errors import ScenarioError, unknown_option, unknown_scenario
from quarterdeck.core.files import is_file_name, parse_toml, read_toml
from quarterdeck.core.geometry import Square, SquareGrid

from .terrain import read_terrain
from .units import (
    UnitType,
    flag_field,
    integer_field,
    list_field,
    no_unknown_keys,
    parse_unit_types,
    square_field,
    standard_unit_types,
    text_field,
)

FIXED, SECRET, ALTERNATE = "fixed", "secret", "alternate"
DEPLOYMENTS = (FIXED, SECRET, ALTERNATE)
DEFAULT_QUIET_TURN_LIMIT = 50

_ARMY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_TOP_KEYS = {
    "title",
    "briefing",
    "width",
    "height",
    "deployment",
    "placements_per_turn",
    "allied_attacks",
    "quiet_turn_limit",
    "turn_order",
    "armies",
    "units",
    "terrain",
    "redoubts",
    "unit_types",
}
_ARMY_KEYS = {"name", "alliance", "zone"}
_UNIT_KEYS = {"army", "type", "square", "count"}
OPTION_KEYS = ("deployment", "placements_per_turn", "allied_attacks", "quiet_turn_limit", "redoubt_turns")
# What each option does, in a line (the lobby and `quarterdeck scenarios` show them).
OPTION_NOTES: dict[str, str] = {
    "deployment": "how the armies take the field: fixed (the scenario's squares), secret (Attack at Dawn: "
    "both place at once, in secret) or alternate (Marching Orders: a unit at a time, in turn)",
    "placements_per_turn": "units an army places at each turn of Marching Orders (the book's \"or more if agreed\")",
    "allied_attacks": "allied armies may add attacks without moving in the turn of the army to play",
    "quiet_turn_limit": "turns (both sides' together) without an elimination that end the battle drawn",
    "redoubt_turns": "turns of uninterrupted occupation that build a redoubt on a square",
}


@dataclass(frozen=True)
class Army:
    name: str
    alliance: str
    zone: frozenset[Square]


@dataclass(frozen=True)
class UnitSpec:
    """One unit of the order of battle; `square` is where a fixed deployment puts it."""

    army: int
    kind: UnitType
    square: Square | None


@dataclass(eq=False)
class Scenario:
    name: str
    title: str
    briefing: str
    data: dict[str, Any]  # the file as read, kept so that a saved game needs no file to reload
    options: dict[str, Any]
    grid: SquareGrid
    unit_types: dict[str, UnitType]
    armies: tuple[Army, ...]
    turn_order: tuple[int, ...]
    units: tuple[UnitSpec, ...]
    deployment: str
    placements_per_turn: int
    allied_attacks: bool
    quiet_turn_limit: int
    hills: frozenset[Square]
    obstacles: frozenset[frozenset[Square]]
    redoubts_enabled: bool
    redoubt_turns: int
    redoubt_sites: frozenset[Square] | None  # None: a redoubt may be dug anywhere
    redoubts_built: frozenset[Square]
    _rays: dict[tuple[str, Square], tuple[tuple[Square, ...], ...]] = field(default_factory=dict)
    _reach: dict[tuple[str, str, Square], tuple[Square, ...]] = field(default_factory=dict)
    _neighbours: dict[Square, tuple[Square, ...]] = field(default_factory=dict)

    # --- who is who ----------------------------------------------------------------------------
    @property
    def army_names(self) -> tuple[str, ...]:
        return tuple(army.name for army in self.armies)

    def allied(self, a: int, b: int) -> bool:
        return self.armies[a].alliance == self.armies[b].alliance

    def roster(self, army: int) -> dict[str, int]:
        """How many units of each type the army brings, in the order the scenario lists them."""
        counts: dict[str, int] = {}
        for spec in self.units:
            if spec.army == army:
                counts[spec.kind.name] = counts.get(spec.kind.name, 0) + 1
        return counts

    # --- geometry ------------------------------------------------------------------------------
    def square_name(self, square: Square) -> str:
        return self.grid.name(square)

    def rays(self, kind: UnitType, origin: Square) -> tuple[tuple[Square, ...], ...]:
        """The straight lines a unit of `kind` may move along from `origin`, nearest square first."""
        key = (kind.name, origin)
        rays = self._rays.get(key)
        if rays is None:
            rays = tuple(
                ray for direction in kind.move_directions if (ray := tuple(self.grid.ray(origin, direction, kind.move)))
            )
            self._rays[key] = rays
        return rays

    def reach(self, kind: UnitType, what: str, origin: Square) -> tuple[Square, ...]:
        """Adjacent squares a unit of `kind` on `origin` may attack or support (`what`) into."""
        key = (kind.name, what, origin)
        squares = self._reach.get(key)
        if squares is None:
            directions = kind.attack_directions if what == "attack" else kind.support_directions
            squares = tuple(s for d in directions if (s := self.grid.step(origin, d)) is not None)
            self._reach[key] = squares
        return squares

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The up to eight squares touching `square`."""
        squares = self._neighbours.get(square)
        if squares is None:
            squares = self._neighbours[square] = tuple(self.grid.neighbours(square))
        return squares


# --- loading ---------------------------------------------------------------------------------------
def builtin_names() -> list[str]:
    folder = resources.files(__package__).joinpath("scenarios")
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".toml"))


def read_scenario_data(name: str) -> dict[str, Any]:
    """The raw TOML table of a built-in scenario (by name) or of a file (a path ending in .toml)."""
    if is_file_name(name):
        return read_toml(name)
    if name not in builtin_names():
        raise unknown_scenario(name, builtin_names())
    text = resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return parse_toml(text, name)


_BUILTIN_CACHE: dict[tuple[str, str], Scenario] = {}
_DATA_CACHE: dict[str, Scenario] = {}
_DATA_CACHE_SIZE = 64


def load_scenario(name: str, options: dict[str, Any] | None = None) -> Scenario:
    """A scenario by name or path, with options applied; built-in ones are parsed only once."""
    options = dict(options or {})
    if is_file_name(name):  # a user's file may change between games
        return parse_scenario(read_scenario_data(name), name, options)
    key = (name, repr(sorted(options.items())))
    if key not in _BUILTIN_CACHE:
        _BUILTIN_CACHE[key] = parse_scenario(read_scenario_data(name), name, options)
    return _BUILTIN_CACHE[key]


def scenario_from_data(data: Any, name: str, options: dict[str, Any] | None = None) -> Scenario:
    """`parse_scenario`, remembering recent results: saved states carry their scenario's table."""
    key = repr((name, data, sorted((options or {}).items())))
    scenario = _DATA_CACHE.get(key)
    if scenario is None:
        if len(_DATA_CACHE) >= _DATA_CACHE_SIZE:
            _DATA_CACHE.clear()
        scenario = _DATA_CACHE[key] = parse_scenario(data, name, options)
    return scenario


def parse_scenario(data: Any, name: str, options: dict[str, Any] | None = None) -> Scenario:
    """Check a scenario table and build it; ScenarioError names the first faulty field."""
    if not isinstance(data, dict):
        raise ScenarioError("scenario", "a scenario is a TOML table")
    no_unknown_keys(data, _TOP_KEYS, "")
    options = dict(options or {})
    unknown = [key for key in options if key not in OPTION_KEYS]
    if unknown:
        raise unknown_option(unknown[0], OPTION_KEYS)
    title = text_field(data, "title", "title")
    briefing = text_field(data, "briefing", "briefing")
    width = integer_field(data.get("width"), "width", 2, 26)
    height = integer_field(data.get("height"), "height", 2, 99)
    grid = SquareGrid(width, height)
    unit_types = standard_unit_types()
    if "unit_types" in data:
        unit_types = parse_unit_types(data["unit_types"], "unit_types", unit_types)

    armies = _armies(data.get("armies"), grid)
    army_index = {army.name: i for i, army in enumerate(armies)}
    turn_order = _turn_order(data.get("turn_order"), army_index)
    units = _units(data.get("units"), grid, army_index, unit_types)

    def setting(key: str, check: Callable[[Any, str], Any], default: Any) -> Any:
        if key in options:
            return check(options[key], f"options.{key}")
        return check(data[key], key) if key in data else default

    deployment = setting("deployment", _deployment, FIXED)
    placements_per_turn = setting("placements_per_turn", lambda v, f: integer_field(v, f, 1, 99), 1)
    allied_attacks = setting("allied_attacks", flag_field, True)
    quiet_turn_limit = setting(
        "quiet_turn_limit", lambda v, f: integer_field(v, f, 1, 10_000), DEFAULT_QUIET_TURN_LIMIT
    )

    terrain = read_terrain(data, options, grid)
    scenario = Scenario(
        name=name,
        title=title,
        briefing=briefing,
        data=data,
        options=options,
        grid=grid,
        unit_types=unit_types,
        armies=armies,
        turn_order=turn_order,
        units=units,
        deployment=deployment,
        placements_per_turn=placements_per_turn,
        allied_attacks=allied_attacks,
        quiet_turn_limit=quiet_turn_limit,
        **terrain,
    )
    _check_order_of_battle(scenario)
    return scenario


# --- the parts -------------------------------------------------------------------------------------
def _armies(value: Any, grid: SquareGrid) -> tuple[Army, ...]:
    entries = list_field(value, "armies")
    if len(entries) < 2:
        raise ScenarioError("armies", "a battle needs at least two armies")
    armies: list[Army] = []
    claimed: dict[Square, str] = {}
    for i, entry in enumerate(entries):
        where = f"armies[{i}]"
        if not isinstance(entry, dict):
            raise ScenarioError(where, "must be a table")
        no_unknown_keys(entry, _ARMY_KEYS, f"{where}.")
        name = text_field(entry, "name", f"{where}.name")
        if not _ARMY_NAME.match(name):
            raise ScenarioError(f"{where}.name", "an army name is lower-case letters, digits and underscores")
        if name in {army.name for army in armies} or name in ("chance", "draw"):
            raise ScenarioError(f"{where}.name", f"the name {name!r} is already taken")
        alliance = text_field(entry, "alliance", f"{where}.alliance") if "alliance" in entry else name
        zone: set[Square] = set()
        for j, spec in enumerate(list_field(entry.get("zone", []), f"{where}.zone")):
            for square in _zone_part(spec, f"{where}.zone[{j}]", grid):
                if square in claimed and claimed[square] != name:
                    raise ScenarioError(f"{where}.zone[{j}]", f"overlaps the zone of {claimed[square]}")
                claimed[square] = name
                zone.add(square)
        armies.append(Army(name, alliance, frozenset(zone)))
    if len({army.alliance for army in armies}) < 2:
        raise ScenarioError("armies", "every army is in one alliance: there is nobody to fight")
    return tuple(armies)


def _turn_order(value: Any, army_index: dict[str, int]) -> tuple[int, ...]:
    if value is None:
        return tuple(range(len(army_index)))
    names = list_field(value, "turn_order")
    order: list[int] = []
    for i, name in enumerate(names):
        if name not in army_index:
            raise ScenarioError(f"turn_order[{i}]", f"no army called {name!r}")
        if army_index[name] in order:
            raise ScenarioError(f"turn_order[{i}]", f"{name} is listed twice")
        order.append(army_index[name])
    if len(order) != len(army_index):
        missing = sorted(set(army_index) - set(names))
        raise ScenarioError("turn_order", f"every army takes turns; missing: {', '.join(missing)}")
    return tuple(order)


def _units(
    value: Any, grid: SquareGrid, army_index: dict[str, int], unit_types: dict[str, UnitType]
) -> tuple[UnitSpec, ...]:
    units: list[UnitSpec] = []
    occupied: dict[Square, int] = {}
    for i, entry in enumerate(list_field(value, "units")):
        where = f"units[{i}]"
        if not isinstance(entry, dict):
            raise ScenarioError(where, "must be a table")
        no_unknown_keys(entry, _UNIT_KEYS, f"{where}.")
        army = entry.get("army")
        if army not in army_index:
            raise ScenarioError(f"{where}.army", f"no army called {army!r}")
        kind = entry.get("type")
        if kind not in unit_types:
            raise ScenarioError(f"{where}.type", f"no unit type {kind!r}; types: {', '.join(unit_types)}")
        square = None
        if "square" in entry:
            if "count" in entry:
                raise ScenarioError(f"{where}.count", "a unit with a square is a single unit")
            square = square_field(entry["square"], f"{where}.square", grid)
            if square in occupied:
                raise ScenarioError(f"{where}.square", f"units[{occupied[square]}] already stands there")
            occupied[square] = i
        count = integer_field(entry.get("count", 1), f"{where}.count", 1, 99)
        units.extend(UnitSpec(army_index[army], unit_types[kind], square) for _ in range(count))
    return tuple(units)


def deployments(scenario: Scenario) -> tuple[str, ...]:
    """The ways this scenario's armies can take the field: fixed where every unit has its square, the
    other two where every army has a zone that holds its units (as `_check_order_of_battle` asks)."""
    squares = all(spec.square is not None for spec in scenario.units)
    zones = all(army.zone and sum(scenario.roster(i).values()) <= len(army.zone)
                for i, army in enumerate(scenario.armies))
    return tuple(way for way in DEPLOYMENTS if (squares if way == FIXED else zones))


def _check_order_of_battle(scenario: Scenario) -> None:
    """Every army has Guards, and the units fit the chosen way of deploying them."""
    for i, army in enumerate(scenario.armies):
        roster = scenario.roster(i)
        if not any(scenario.unit_types[kind].guard for kind in roster):
            raise ScenarioError(f"armies[{i}]", f"{army.name} has no Guards: nothing to win or lose")
        if scenario.deployment != FIXED:
            if not army.zone:
                raise ScenarioError(f"armies[{i}].zone", f"a {scenario.deployment} deployment needs a zone")
            if sum(roster.values()) > len(army.zone):
                raise ScenarioError(f"armies[{i}].zone", f"too small for the {sum(roster.values())} units")
    if scenario.deployment == FIXED:
        for i, spec in enumerate(scenario.units):
            if spec.square is None:
                raise ScenarioError(f"units[{_entry_of(scenario, i)}].square", "a fixed deployment needs a square")


def _entry_of(scenario: Scenario, unit_number: int) -> int:
    """The [[units]] entry that produced unit number `unit_number` (entries may carry a count)."""
    seen = 0
    for i, entry in enumerate(scenario.data["units"]):
        seen += entry.get("count", 1)
        if unit_number < seen:
            return i
    return len(scenario.data["units"]) - 1


# --- small checks ----------------------------------------------------------------------------------
def _deployment(value: Any, where: str) -> str:
    if value not in DEPLOYMENTS:
        raise ScenarioError(where, f"must be one of {', '.join(DEPLOYMENTS)}")
    return value


def _zone_part(value: Any, where: str, grid: SquareGrid) -> list[Square]:
    """A zone entry: one square ("d4") or a rectangle between two corners ("a2:h3")."""
    if not isinstance(value, str):
        raise ScenarioError(where, 'a zone entry is a square ("d4") or a rectangle ("a2:h3")')
    first, _, last = value.partition(":")
    a = square_field(first, where, grid)
    b = square_field(last, where, grid) if last else a
    return [
        (x, y) for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1) for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    ]
