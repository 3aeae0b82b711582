"""Tables and scenarios: tables.toml (or a user's file of the same shape) and scenarios/*.toml,
checked field by field into the immutable setup every state of one game shares.

Seed 001 amends a base game whose tables are lost; tables.toml holds the seed's Quarterly Movement
Chart and Sag column as printed and the reconstructed rest (shared/design/rules-decisions.md,
Frigate). A bad field raises ScenarioError naming it as the file spells it: ``schedule[2].fresh[1]``,
``crt.table.1-1.hits``, ``ships[3].hex``, ``options.simove``.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quarterdeck.core.errors import (
    NotationError,
    ScenarioError,
    refuse_unknown_keys,
    unknown_option,
    unknown_scenario,
)
from quarterdeck.core.files import is_file_name, read_toml
from quarterdeck.core.hexes import Hex, HexDir, HexGrid

if TYPE_CHECKING:
    from .ships import Ship

SIDES = ("blue", "red")
VELOCITIES = ("no wind", "calm", "light", "moderate", "fresh")
SAILING_VELOCITIES = VELOCITIES[1:]
EFFICIENCIES = ("crack", "average", "green", "low")  # best to worst: a drop moves one to the right
CRTS = ("I", "II", "III")
CLASSES = ("ship", "frigate", "two-decker", "merchantman")
EDGES = ("north", "south", "east", "west")
FORMATIONS = ("line-ahead", "line-abreast")
WIND_TABLES = ("standard", "optional")
PRESERVATION_RULES = ("standard", "efficiency")
FLAGSHIPS = ("", "fleet", "squadron")
RELATIVE_INDEX = {"front": 0, "side-front": 1, "side-rear": 2, "rear": 3}

# The book's optional rules and the scenario's settings a player may change: name -> default.
OPTION_DEFAULTS: dict[str, Any] = {
    "simove": False,  # seed, SiMove: secret declarations and per-segment plots
    "no_wind": False,  # seed, Movement 2 (optional): a state of no wind at all
    "wind_table": "standard",  # or "optional" (2d6)
    "sagging": False,  # seed, Movement 8 (optional)
    "nearest_target": False,  # seed, Multi-ship combat b (optional)
    "flagship_fired_on": False,  # seed, Command Control (optional)
    "preservation": "standard",  # or "efficiency": seed, Preservation Level (optional)
    "tables": "",  # a user's tables file of tables.toml's shape
    "turns": 0,  # 0: the scenario's own length
}
# What each option a player may set does, in a line (the lobby and `quarterdeck scenarios` show them).
OPTION_NOTES: dict[str, str] = {
    "simove": "SiMove (Sequence of Play 3): both sides declare their Movement Allowances in secret and "
    "plot each segment's moves, carried out at once",
    "no_wind": "No wind (Movement 2, optional): a calm may fall to no wind at all, when no ship may move or turn",
    "wind_table": "how the wind changes each game-turn: standard (1d6, a step at a time) or optional "
    "(2d6, up to two steps)",
    "sagging": "Sagging (Movement 8, optional): in a Fresh wind every ship is carried downwind after movement",
    "nearest_target": "Nearest target (Multi-ship combat b, optional): a ship must fire on the nearest enemy "
    "not yet fired on",
    "flagship_fired_on": "Command Control (optional): a Fleet Flagship fired on undergoes Command Control the "
    "next game-turn",
    "preservation": "over its Preservation Level a force withdraws (standard), or its efficiency drops a "
    "level first (efficiency, optional)",
    "turns": "game-turns to play (the scenario's own length unless changed)",
}
OPTION_CHOICES: dict[str, tuple[str, ...]] = {"wind_table": WIND_TABLES, "preservation": PRESERVATION_RULES}

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_'.-]*$")


# --- the tables ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScheduleRow:
    ratings: tuple[int, ...]
    two_decker: bool
    merchantman: bool
    turn: int
    p: bool  # never three hexsides in one hex
    maxima: dict[str, tuple[int, int, int, int]]  # velocity -> front, side-front, side-rear, rear
    sag: int


@dataclass(frozen=True)
class CrtColumn:
    hits: tuple[int, ...]  # by die face 1-6
    confirm: frozenset[int] | None  # faces a second die must show, for the long-odds columns


@dataclass(frozen=True)
class Efficiency:
    command: int
    repair: int
    melee: int


@dataclass(frozen=True)
class Tables:
    columns: int
    rows: int
    chart: tuple[tuple[int, int, int, int], ...]  # MA 1..20
    schedule: tuple[ScheduleRow, ...]
    start_velocity: tuple[str, ...]
    direction_change: tuple[int, ...]
    velocity_change: tuple[int, ...]
    optional_velocity_change: tuple[int, ...]
    no_wind_face: int
    drift_velocities: frozenset[str]
    sag_velocities: frozenset[str]
    gs_divisor: int
    hull_divisor: int
    hull_extra: int
    crew_limit: int
    mast_limit: int
    melee_divisor: int
    broadside_range: int
    chase_range: int
    range_factors: tuple[tuple[int, int, int, int], ...]
    crt_columns: tuple[str, ...]
    crt_odds: tuple[tuple[int, int], ...]  # each column's odds a-b as the pair (a, b)
    crt_shift: dict[str, int]
    crt: dict[str, CrtColumn]
    hit_kinds: dict[str, tuple[str, ...]]
    efficiency: dict[str, Efficiency]
    flag_distance: int
    formation_gap: int
    sunk_divisor: int
    captured_divisor: int

    def points(self, ma: int) -> tuple[int, int, int, int]:
        """The Quarterly Movement Chart: points in segments 1-4 for a total MA (0: none)."""
        return (0, 0, 0, 0) if ma <= 0 else self.chart[min(ma, len(self.chart)) - 1]

    def row_for(self, rating: int, cls: str) -> ScheduleRow:
        """The schedule row of a ship: merchantmen their own; otherwise the nearest listed rating at
        or below (a 44 by its frigate or two-decker flag; ratings below the first use the first)."""
        if cls == "merchantman":
            return next(row for row in self.schedule if row.merchantman)
        warships = [row for row in self.schedule if not row.merchantman]
        listed = sorted({r for row in warships for r in row.ratings})
        at_or_below = [r for r in listed if r <= rating]
        chosen = at_or_below[-1] if at_or_below else listed[0]
        rows = [row for row in warships if chosen in row.ratings]
        if len(rows) > 1:
            rows = [row for row in rows if row.two_decker == (cls == "two-decker")] or rows
        return rows[0]


def _fail(where: str, message: str) -> ScenarioError:
    return ScenarioError(where, message)


def _get(data: dict[str, Any], key: str, where: str, default: Any = ...) -> Any:
    if key not in data:
        if default is ...:
            raise _fail(f"{where}{key}", "missing")
        return default
    return data[key]


def _integer(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(where, f"must be from {low} to {high}, not {value}")
    return value


def _integers(value: Any, where: str, length: int | None, low: int | None = None, high: int | None = None
              ) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _fail(where, f"must be a list of {length} whole numbers" if length else "must be a list of numbers")
    return tuple(_integer(v, f"{where}[{i}]", low, high) for i, v in enumerate(value))


def _boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"must be true or false, not {value!r}")
    return value


def _choice(value: Any, where: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _fail(where, f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
    return value


def _table(value: Any, where: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """`value` as a table; with `keys`, one that has no key but those (a misspelt one is refused,
    not left out)."""
    if not isinstance(value, dict):
        raise _fail(where, "must be a table")
    if keys is not None:
        refuse_unknown_keys(value, sorted(set(keys)), f"{where}.")
    return value


_TABLES_WIND_KEYS = ("start_velocity", "direction_change", "velocity_change", "optional_velocity_change",
                     "no_wind_face", "drift_velocities", "sag_velocities")
_TABLES_SHIPS_KEYS = ("gs_divisor", "hull_divisor", "hull_extra", "crew_limit", "mast_limit", "melee_divisor")


def parse_tables(data: dict[str, Any]) -> Tables:
    """Check a tables file (already read as TOML) field by field."""
    refuse_unknown_keys(data, sorted({"map", "quarterly", "schedule", "wind", "ships", "combat", "crt", "hit_kinds",
                                      "efficiency", "command", "victory"}), "")
    board = _table(_get(data, "map", ""), "map", ("columns", "rows"))
    chart_data = _get(_table(_get(data, "quarterly", ""), "quarterly", ("chart",)), "chart", "quarterly.")
    if not isinstance(chart_data, list) or not 1 <= len(chart_data) <= 20:
        raise _fail("quarterly.chart", "must list the points for MA 1 up to at most 20")
    chart = []
    for ma, row in enumerate(chart_data, start=1):
        points = _integers(row, f"quarterly.chart[{ma - 1}]", 4, 0, 20)
        if sum(points) != ma:
            raise _fail(f"quarterly.chart[{ma - 1}]", f"the four segments must add up to MA {ma}, not {sum(points)}")
        chart.append(points)
    schedule = _schedule(_get(data, "schedule", ""))
    wind = _table(_get(data, "wind", ""), "wind", _TABLES_WIND_KEYS)
    start = _get(wind, "start_velocity", "wind.")
    if not isinstance(start, list) or len(start) != 6:
        raise _fail("wind.start_velocity", "must list a velocity for each die face 1-6")
    ships = _table(_get(data, "ships", ""), "ships", _TABLES_SHIPS_KEYS)
    combat = _table(_get(data, "combat", ""), "combat", ("broadside_range", "chase_range", "range_factors"))
    factors = _get(combat, "range_factors", "combat.")
    if not isinstance(factors, list) or not factors:
        raise _fail("combat.range_factors", "must list [from, to, numerator, denominator] bands")
    crt_data = _table(_get(data, "crt", ""), "crt", ("columns", "shift", "table"))
    columns = _get(crt_data, "columns", "crt.")
    if not isinstance(columns, list) or not columns or not all(isinstance(c, str) for c in columns):
        raise _fail("crt.columns", "must list the odds columns, worst first")
    odds = tuple(_odds(column, f"crt.columns[{i}]") for i, column in enumerate(columns))
    shift = _table(_get(crt_data, "shift", "crt."), "crt.shift", CRTS)
    table = _table(_get(crt_data, "table", "crt."), "crt.table", columns)
    crt = {}
    for column in columns:
        entry = _table(_get(table, column, "crt.table."), f"crt.table.{column}")
        refuse_unknown_keys(entry, sorted({"hits", "confirm"}), f"crt.table.{column}.")
        confirm = entry.get("confirm")
        crt[column] = CrtColumn(
            _integers(_get(entry, "hits", f"crt.table.{column}."), f"crt.table.{column}.hits", 6, 0, 6),
            None if confirm is None else frozenset(_integers(confirm, f"crt.table.{column}.confirm", None, 1, 6)),
        )
    kinds = _table(_get(data, "hit_kinds", ""), "hit_kinds", ("hull", "rigging"))
    hit_kinds = {}
    for aim in ("hull", "rigging"):
        faces = _get(kinds, aim, "hit_kinds.")
        if not isinstance(faces, list) or len(faces) != 6:
            raise _fail(f"hit_kinds.{aim}", "must name the damage for each die face 1-6")
        hit_kinds[aim] = tuple(_choice(f, f"hit_kinds.{aim}[{i}]", ("hull", "crew", "gun", "mast"))
                               for i, f in enumerate(faces))
    efficiency_data = _table(_get(data, "efficiency", ""), "efficiency", EFFICIENCIES)
    efficiency = {}
    for name in EFFICIENCIES:
        entry = _table(_get(efficiency_data, name, "efficiency."), f"efficiency.{name}",
                       ("command", "repair", "melee"))
        efficiency[name] = Efficiency(
            _integer(_get(entry, "command", f"efficiency.{name}."), f"efficiency.{name}.command", 0, 6),
            _integer(_get(entry, "repair", f"efficiency.{name}."), f"efficiency.{name}.repair", 0, 6),
            _integer(_get(entry, "melee", f"efficiency.{name}."), f"efficiency.{name}.melee", -6, 6),
        )
    command = _table(_get(data, "command", ""), "command", ("flag_distance", "formation_gap"))
    victory = _table(_get(data, "victory", ""), "victory", ("sunk_divisor", "captured_divisor"))

    def number(table_: dict[str, Any], where: str, key: str, low: int, high: int) -> int:
        return _integer(_get(table_, key, where), f"{where}{key}", low, high)

    return Tables(
        columns=number(board, "map.", "columns", 4, 99),
        rows=number(board, "map.", "rows", 4, 99),
        chart=tuple(chart),  # type: ignore[arg-type]
        schedule=schedule,
        start_velocity=tuple(_choice(v, f"wind.start_velocity[{i}]", SAILING_VELOCITIES) for i, v in enumerate(start)),
        direction_change=_integers(_get(wind, "direction_change", "wind."), "wind.direction_change", 6, -3, 3),
        velocity_change=_integers(_get(wind, "velocity_change", "wind."), "wind.velocity_change", 6, -4, 4),
        optional_velocity_change=_integers(
            _get(wind, "optional_velocity_change", "wind."), "wind.optional_velocity_change", 11, -4, 4
        ),
        no_wind_face=number(wind, "wind.", "no_wind_face", 1, 6),
        drift_velocities=frozenset(_velocities(_get(wind, "drift_velocities", "wind."), "wind.drift_velocities")),
        sag_velocities=frozenset(_velocities(_get(wind, "sag_velocities", "wind."), "wind.sag_velocities")),
        gs_divisor=number(ships, "ships.", "gs_divisor", 1, 100),
        hull_divisor=number(ships, "ships.", "hull_divisor", 1, 100),
        hull_extra=number(ships, "ships.", "hull_extra", 0, 20),
        crew_limit=number(ships, "ships.", "crew_limit", 1, 9),
        mast_limit=number(ships, "ships.", "mast_limit", 1, 9),
        melee_divisor=number(ships, "ships.", "melee_divisor", 1, 100),
        broadside_range=number(combat, "combat.", "broadside_range", 1, 40),
        chase_range=number(combat, "combat.", "chase_range", 1, 40),
        range_factors=tuple(
            _integers(band, f"combat.range_factors[{i}]", 4, 0, 100)  # type: ignore[misc]
            for i, band in enumerate(factors)
        ),
        crt_columns=tuple(columns),
        crt_odds=odds,
        crt_shift={name: _integer(_get(shift, name, "crt.shift."), f"crt.shift.{name}", -3, 3) for name in CRTS},
        crt=crt,
        hit_kinds=hit_kinds,
        efficiency=efficiency,
        flag_distance=number(command, "command.", "flag_distance", 0, 99),
        formation_gap=number(command, "command.", "formation_gap", 0, 99),
        sunk_divisor=number(victory, "victory.", "sunk_divisor", 1, 100),
        captured_divisor=number(victory, "victory.", "captured_divisor", 1, 100),
    )


def _odds(column: str, where: str) -> tuple[int, int]:
    """An odds column's name, "3-1", as the pair (3, 1)."""
    a, dash, b = column.partition("-")
    if not (dash and a.isdigit() and b.isdigit() and int(a) > 0 and int(b) > 0):
        raise _fail(where, f"an odds column is named like 1-2 or 3-1, not {column!r}")
    return int(a), int(b)


def _velocities(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise _fail(where, "must list wind velocities")
    return [_choice(v, f"{where}[{i}]", SAILING_VELOCITIES) for i, v in enumerate(value)]


def _schedule(rows: Any) -> tuple[ScheduleRow, ...]:
    if not isinstance(rows, list) or not rows:
        raise _fail("schedule", "must list the rows of the Wind and Maneuver Schedule")
    parsed = []
    for index, row in enumerate(rows):
        where = f"schedule[{index}]."
        row = _table(row, f"schedule[{index}]")
        row_keys = {"ratings", "two_decker", "merchantman", "turn", "p", "sag", *SAILING_VELOCITIES}
        refuse_unknown_keys(row, sorted(row_keys), where)
        maxima = {}
        for velocity in SAILING_VELOCITIES:
            values = _integers(_get(row, velocity, where), f"{where}{velocity}", 4, 0, 20)
            if values[0] != 0:
                raise _fail(f"{where}{velocity}[0]", "a ship can never sail straight into the wind: front must be 0")
            maxima[velocity] = values
        parsed.append(ScheduleRow(
            ratings=_integers(_get(row, "ratings", where), f"{where}ratings", None, 1, 200),
            two_decker=_boolean(row.get("two_decker", False), f"{where}two_decker"),
            merchantman=_boolean(row.get("merchantman", False), f"{where}merchantman"),
            turn=_integer(_get(row, "turn", where), f"{where}turn", 1, 6),
            p=_boolean(_get(row, "p", where), f"{where}p"),
            maxima=maxima,  # type: ignore[arg-type]
            sag=_integer(_get(row, "sag", where), f"{where}sag", 0, 6),
        ))
    if sum(row.merchantman for row in parsed) != 1:
        raise _fail("schedule", "exactly one row must be the merchantmen's (merchantman = true)")
    if not any(row.ratings for row in parsed if not row.merchantman):
        raise _fail("schedule", "at least one warship row must list its ratings")
    return tuple(parsed)


def standard_tables_data() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("tables.toml").read_text(encoding="utf-8"))


def load_tables(path: str = "") -> tuple[Tables, dict[str, Any]]:
    """The standard tables, or a user's file of the same shape; with the data as read."""
    data = standard_tables_data() if not path else read_toml(path, "options.tables")
    return parse_tables(data), data


# --- the scenario ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShipSpec:
    name: str
    side: int
    rating: int
    cls: str
    hex: Hex
    facing: HexDir
    ma: int  # the Movement Allowance of the turn before the battle (momentum)
    gs: int
    ds: int
    hull: int
    chase: tuple[str, ...]
    squadron: str
    flagship: str


@dataclass(frozen=True)
class Force:
    name: str
    efficiency: str
    crt: str
    preservation: int
    home_edge: str


@dataclass(frozen=True)
class Squadron:
    name: str
    side: int
    formation: str  # "" when not in a formation
    lead: str


@dataclass(frozen=True)
class Objective:
    side: int
    edge: str
    points: int  # per ship of `side` leaving the map by `edge` ("any": every edge); negative: a penalty
    cls: str  # only ships of this class count ("" for any)

    def names(self, ship: Ship) -> bool:
        """Whether the objective is about `ship`: a ship of its side, of its class when it names one."""
        return ship.side == self.side and self.cls in ("", ship.spec.cls)


@dataclass(eq=False)
class Scenario:
    name: str
    title: str
    briefing: str
    data: dict[str, Any]
    options: dict[str, Any]
    tables: Tables
    tables_data: dict[str, Any]
    grid: HexGrid
    turns: int
    forces: tuple[Force, Force]
    ships: tuple[ShipSpec, ...]
    squadrons: tuple[Squadron, ...]
    objectives: tuple[Objective, ...]
    wind_direction: HexDir | None
    wind_velocity: str | None
    _rows: dict[str, ScheduleRow] = field(default_factory=dict)

    def option(self, name: str) -> Any:
        return self.options[name]

    def row(self, ship: ShipSpec) -> ScheduleRow:
        row = self._rows.get(ship.name)
        if row is None:
            row = self._rows[ship.name] = self.tables.row_for(ship.rating, ship.cls)
        return row


def ship_values(tables: Tables, rating: int) -> tuple[int, int]:
    """Reconstructed: GS per broadside = DS = max(1, round(rating / 8)); hull boxes ceil(rating / 12) + 2."""
    gs = max(1, round(rating / tables.gs_divisor))
    return gs, math.ceil(rating / tables.hull_divisor) + tables.hull_extra


_TOP_KEYS = {"title", "briefing", "turns", "options", "wind", "forces", "ships", "squadrons", "objectives"}
_SHIP_KEYS = {"name", "side", "rating", "class", "hex", "facing", "ma", "gs", "ds", "hull", "chase", "squadron",
              "flagship"}
_FORCE_KEYS = {"side", "name", "efficiency", "crt", "preservation", "home_edge"}


def check_options(given: dict[str, Any] | None, defaults: dict[str, Any]) -> dict[str, Any]:
    options = {**OPTION_DEFAULTS, **defaults}
    for key, value in (given or {}).items():
        if key not in OPTION_DEFAULTS:
            raise unknown_option(key, OPTION_DEFAULTS)
        options[key] = value
    for key in ("simove", "no_wind", "sagging", "nearest_target", "flagship_fired_on"):
        _boolean(options[key], f"options.{key}")
    _choice(options["wind_table"], "options.wind_table", WIND_TABLES)
    _choice(options["preservation"], "options.preservation", PRESERVATION_RULES)
    if not isinstance(options["tables"], str):
        raise _fail("options.tables", "must be the path of a tables file")
    _integer(options["turns"], "options.turns", 0, 200)
    return options


def scenario_from_data(
    data: dict[str, Any], name: str, options: dict[str, Any] | None = None, tables_data: dict[str, Any] | None = None
) -> Scenario:
    """`tables_data`: tables already read (a saved game carries its own, so it needs no file)."""
    refuse_unknown_keys(data, sorted(_TOP_KEYS), "")
    title = _get(data, "title", "")
    briefing = _get(data, "briefing", "")
    if not isinstance(title, str) or not isinstance(briefing, str) or not title or not briefing:
        raise _fail("title", "a scenario needs a title and a briefing (text)")
    opts = check_options(options, _table(data.get("options", {}), "options"))
    if tables_data is None:
        tables, tables_data = load_tables(opts["tables"])
    else:
        tables = parse_tables(tables_data)
    grid = HexGrid(tables.columns, tables.rows)
    turns = opts["turns"] or _integer(_get(data, "turns", ""), "turns", 1, 200)
    forces = _forces(data.get("forces"))
    ships = _ships(data.get("ships"), tables, grid)
    squadrons = _squadrons(data.get("squadrons", []), ships)
    objectives = []
    for index, entry in enumerate(_list(data.get("objectives", []), "objectives")):
        where = f"objectives[{index}]."
        entry = _table(entry, f"objectives[{index}]")
        refuse_unknown_keys(entry, sorted({"side", "edge", "points", "class"}), where)
        objectives.append(Objective(
            SIDES.index(_choice(_get(entry, "side", where), f"{where}side", SIDES)),
            _choice(_get(entry, "edge", where), f"{where}edge", (*EDGES, "any")),
            _integer(_get(entry, "points", where), f"{where}points", -999, 999),
            _choice(entry.get("class", ""), f"{where}class", ("", *CLASSES)),
        ))
    wind = _table(data.get("wind", {}), "wind")
    refuse_unknown_keys(wind, sorted({"direction", "velocity"}), "wind.")
    direction = wind.get("direction")
    velocity = wind.get("velocity")
    return Scenario(
        name=name,
        title=title,
        briefing=briefing,
        data=data,
        options=opts,
        tables=tables,
        tables_data=tables_data,
        grid=grid,
        turns=turns,
        forces=forces,
        ships=ships,
        squadrons=squadrons,
        objectives=tuple(objectives),
        wind_direction=None if direction is None else HexDir.from_number(_integer(direction, "wind.direction", 1, 6)),
        wind_velocity=None if velocity is None else _choice(velocity, "wind.velocity", SAILING_VELOCITIES),
    )


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, "must be a list")
    return value


def _forces(value: Any) -> tuple[Force, Force]:
    entries = _list(value if value is not None else [], "forces")
    found: dict[int, Force] = {}
    for index, entry in enumerate(entries):
        where = f"forces[{index}]."
        entry = _table(entry, f"forces[{index}]")
        refuse_unknown_keys(entry, sorted(_FORCE_KEYS), where)
        side = SIDES.index(_choice(_get(entry, "side", where), f"{where}side", SIDES))
        if side in found:
            raise _fail(f"{where}side", f"{SIDES[side]} already has a force")
        found[side] = Force(
            name=str(_get(entry, "name", where)),
            efficiency=_choice(entry.get("efficiency", "average"), f"{where}efficiency", EFFICIENCIES),
            crt=_choice(entry.get("crt", "II"), f"{where}crt", CRTS),
            preservation=_integer(_get(entry, "preservation", where), f"{where}preservation", 0, 999),
            home_edge=_choice(_get(entry, "home_edge", where), f"{where}home_edge", EDGES),
        )
    if len(found) != 2:
        raise _fail("forces", "list one force for blue and one for red")
    return found[0], found[1]


def _ships(value: Any, tables: Tables, grid: HexGrid) -> tuple[ShipSpec, ...]:
    entries = _list(value if value is not None else [], "ships")
    ships: list[ShipSpec] = []
    taken: dict[Hex, str] = {}
    for index, entry in enumerate(entries):
        where = f"ships[{index}]."
        entry = _table(entry, f"ships[{index}]")
        refuse_unknown_keys(entry, sorted(_SHIP_KEYS), where)
        name = _get(entry, "name", where)
        if not isinstance(name, str) or not _NAME.match(name):
            raise _fail(f"{where}name", "a ship's name is one word of letters, digits, _ ' . -")
        if any(s.name.lower() == name.lower() for s in ships):
            raise _fail(f"{where}name", f"two ships are called {name}")
        rating = _integer(_get(entry, "rating", where), f"{where}rating", 1, 200)
        cls = _choice(entry.get("class", "ship"), f"{where}class", CLASSES)
        try:
            place = grid.parse(str(_get(entry, "hex", where)))
            facing = HexDir.parse(str(_get(entry, "facing", where)))
        except NotationError as exc:
            raise _fail(f"{where}{'hex' if exc.field == 'hex' else 'facing'}", exc.message) from None
        if place in taken:
            raise _fail(f"{where}hex", f"{taken[place]} is already in {grid.name(place)}")
        taken[place] = name
        gs, hull = ship_values(tables, rating)
        chase_default = ["stern"] if cls == "merchantman" else ["bow", "stern"]
        chase = entry.get("chase", chase_default)
        if not isinstance(chase, list) or any(c not in ("bow", "stern") for c in chase):
            raise _fail(f"{where}chase", "list the chase guns carried: bow, stern")
        ships.append(ShipSpec(
            name=name,
            side=SIDES.index(_choice(_get(entry, "side", where), f"{where}side", SIDES)),
            rating=rating,
            cls=cls,
            hex=place,
            facing=facing,
            ma=_integer(entry.get("ma", 0), f"{where}ma", 0, 20),
            gs=_integer(entry.get("gs", gs), f"{where}gs", 0, 99),
            ds=_integer(entry.get("ds", gs), f"{where}ds", 1, 99),
            hull=_integer(entry.get("hull", hull), f"{where}hull", 1, 99),
            chase=tuple(sorted(set(chase))),
            squadron=str(entry.get("squadron", "")),
            flagship=_choice(entry.get("flagship", ""), f"{where}flagship", FLAGSHIPS),
        ))
    for side in (0, 1):
        if not any(s.side == side for s in ships):
            raise _fail("ships", f"{SIDES[side]} has no ships")
    return tuple(ships)


def _squadrons(value: Any, ships: tuple[ShipSpec, ...]) -> tuple[Squadron, ...]:
    squadrons = []
    for index, entry in enumerate(_list(value, "squadrons")):
        where = f"squadrons[{index}]."
        entry = _table(entry, f"squadrons[{index}]")
        refuse_unknown_keys(entry, sorted({"name", "side", "formation", "lead"}), where)
        name = str(_get(entry, "name", where))
        side = SIDES.index(_choice(_get(entry, "side", where), f"{where}side", SIDES))
        members = [s for s in ships if s.squadron == name and s.side == side]
        if not members:
            raise _fail(f"{where}name", f"no {SIDES[side]} ship belongs to squadron {name}")
        formation = entry.get("formation", "")
        if formation:
            _choice(formation, f"{where}formation", FORMATIONS)
        lead = str(entry.get("lead", members[0].name))
        if lead not in {s.name for s in members}:
            raise _fail(f"{where}lead", f"{lead} is not a ship of squadron {name}")
        squadrons.append(Squadron(name, side, formation, lead))
    for ship in ships:
        if ship.squadron and not any(q.name == ship.squadron and q.side == ship.side for q in squadrons):
            raise _fail("squadrons", f"{ship.name} names squadron {ship.squadron!r}, which is not listed")
    return tuple(squadrons)


# --- where scenarios come from ---------------------------------------------------------------------
def builtin_names() -> list[str]:
    folder = resources.files(__package__).joinpath("scenarios")
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".toml"))


def load_scenario(name: str, options: dict[str, Any] | None = None) -> Scenario:
    """A built-in scenario by name, or a scenario file by path (ending in .toml)."""
    if is_file_name(name):
        return scenario_from_data(read_toml(name), Path(name).stem, options)
    if name not in builtin_names():
        raise unknown_scenario(name, builtin_names())
    text = resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return scenario_from_data(tomllib.loads(text), name, options)
