"""Ships, the gun table and scenarios (seed 003, "ship characteristics", the gun table, the setup).

`tables.toml` holds the book's numbers; `scenarios/*.toml` (or a user's file) the battles. Every
field is checked and a bad one raises ScenarioError naming it as the file spells it
(``ships[3].heading``, ``options.boats``). A loaded `Scenario` never changes and is shared by every
state of a game. Distances are stored in hundredths of an inch (core/plane.py).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from quarterdeck.core.errors import ScenarioError, refuse_unknown_keys, unknown_option, unknown_scenario
from quarterdeck.core.files import is_file_name, read_toml

PORT, STARBOARD, AHEAD, ASTERN = "port", "starboard", "ahead", "astern"
MOUNTS = (PORT, STARBOARD, AHEAD, ASTERN)
KINDS = ("short", "medium", "long")
COMPASS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
COMPASS_NAMES = {v: k for k, v in COMPASS.items()}

# The book's optional rules and the choices the decisions file offers, all off by default
# ("basic" preset); `nelson` follows the period unless a scenario sets it.
OPTIONS: dict[str, str] = {
    "nelson": "the additional rules for the later (Nelson) period",
    "simplified": "crew points equal to flotation points",
    "keep-nine-pm": "a time roll of 6 starts the battle at 9 pm (campaign night rules)",
    "hour-moves": "a move is one hour instead of an hour and a half",
    "night-escape": "at nightfall a side may declare that it escapes on 5-6",
    "no-prevailing-wind": "a wind roll of 5 means no prevailing wind",
    "by-eye": "people see no range or arc aids before a move is committed",
    "auto-batteries": "batteries lost to sixes are chosen for the target's owner",
    "boats": "optional rule 1, ships' boats tow in calms and light airs",
    "jury-masts": "optional rule 2, one lost mast jury-rigged in five moves",
    "towing": "optional rule 3, towing",
    "oared": "optional rule 4, oared vessels may use their oars",
    "crews": "optional rule 5, crews (sailing minimum, gun crews, casualties, survivors)",
    "prizes": "optional rule 6, surrender and prizes",
    "foundering": "optional rule 7, foundering",
}


def inches(value: Any, where: str) -> int:
    """A distance in inches as whole hundredths."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ScenarioError(where, f"a distance in inches, not {value!r}")
    return round(value * 100)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(where, f"text, not {value!r}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(where, f"true or false, not {value!r}")
    return value


def _count(value: Any, where: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(where, f"{what} ({low}-{high}), not {value!r}")
    return value


def _one_of(value: Any, where: str, choices: Iterable[str]) -> str:
    """`value` if it is one of the names `choices` (a list or a table in a scenario is none of them)."""
    names = list(choices)
    if not isinstance(value, str) or value not in names:
        raise ScenarioError(where, f"one of {', '.join(names)}, not {value!r}")
    return value


@dataclass(frozen=True)
class Battery:
    kind: str  # short, medium or long
    half: bool = False

    @property
    def name(self) -> str:
        return ("half " if self.half else "") + self.kind


@dataclass(frozen=True)
class ShipSpec:
    """One ship's data (seed 003 tables; rulings for hull size, oared types and Nelson classes)."""

    type: str
    nation: str
    description: str
    year: int
    tons: int
    flotation: int
    crew: int
    batteries: tuple[tuple[str, Battery], ...]  # (mount, battery): the disposition ("diagram")
    speed: int  # hundredths of an inch under sail
    turn: int
    length: int
    beam: int
    guns: int | None = None
    oar_speed: int = 0
    oar_turn: int = 0
    one_turn: bool = False
    remainders: tuple[str, ...] = ()  # guns the battery calculator dropped

    @property
    def oared(self) -> bool:
        return self.oar_speed > 0

    @property
    def galley(self) -> bool:
        return self.type in ("Galley", "Galleasse")

    @property
    def min_crew(self) -> int:
        """Rulings: tons / 100 rounded half up, at least 1 (optional rule 5)."""
        return max(1, math.floor(self.tons / 100 + 0.5))


@dataclass(frozen=True)
class Placement:
    name: str
    side: int
    spec: ShipSpec
    x: int
    y: int
    heading: int
    arrives: int = 1  # the move it enters (reinforcements, rulings "Jury-rig ... Reinforcements")
    edge: str = ""  # the table edge a reinforcement enters at (north, east, south or west)
    oars: bool = False  # she begins under oars (optional rule 4), not under sail

    def arrival(self, move: int) -> str:
        """When and where a reinforcement comes on, as the table and the prompt say it on move `move`:
        from her move on she waits only while another ship lies in her place."""
        if move >= self.arrives:
            return f"waits to come on at the {self.edge} edge: another ship lies in her place"
        return f"arrives on move {self.arrives} at the {self.edge} edge"


@dataclass(frozen=True)
class Land:
    name: str
    kind: str  # land or shoal
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    briefing: str
    period: str
    width: int
    height: int
    sides: tuple[str, str]
    time: int | None  # minutes after midnight, None: rolled
    prevailing: int | None  # degrees; None: no prevailing wind
    roll_wind: bool
    wind: int
    strength: int
    options: dict[str, bool]
    land: tuple[Land, ...]
    ships: tuple[Placement, ...]
    off_table: str = "disengaged"  # what leaving the table means for the victory count (OFF_TABLE)
    data: dict[str, Any] = field(repr=False, hash=False, compare=False, default_factory=dict)

    @property
    def move_minutes(self) -> int:
        return 60 if self.options["hour-moves"] else 90

    def option(self, name: str) -> bool:
        return self.options[name]

    def placement(self, name: str) -> Placement:
        return next(p for p in self.ships if p.name == name)


# What a ship that leaves the table (sailing or drifting off, or slipping away in the night) means
# for the victory count: the rulings' default, or a scenario's objective ("Victory": scenarios may
# add objectives) for a battle fought to a finish.
# "disengaged": she scores nothing more for anyone; "struck": the enemy scores her remaining flotation.
OFF_TABLE = ("disengaged", "struck")
# The largest table a scenario may lay out, in hundredths: twenty feet each way, a large floor (the
# book plays on "a table about 6' x 3', or any available floor"); the terminal draws an inch a column.
TABLE_LIMIT = 24000


# --- tables ---------------------------------------------------------------------------------------
@cache
def tables() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("tables.toml").read_text())


def gun_rows(period: str) -> dict[str, dict[str, Any]]:
    """Gun type -> its row of the gun table (aliases such as 30-pdr resolved to their row)."""
    rows = {}
    for name, row in tables()["guns"][period].items():
        rows[name] = {**row, "type": name}
        for alias in row.get("also", ()):
            rows[alias] = rows[name]
    return rows


def batteries_from_guns(
    period: str, guns: dict[str, Any], where: str
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """The seed's battery calculator: (whole batteries by kind, half batteries by kind, dropped guns).

    Guns of one row are pooled before the remainder is taken; a remainder of at least half a
    battery's guns makes a half battery, less is dropped and reported (rulings, "Gun type").
    """
    rows = gun_rows(period)
    pooled: dict[str, int] = {}
    for name, count in guns.items():
        if name not in rows:
            raise ScenarioError(f"{where}.{name}", f"not a {period} gun type; types are {', '.join(rows)}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScenarioError(f"{where}.{name}", f"a number of guns, not {count!r}")
        row = rows[name]["type"]
        pooled[row] = pooled.get(row, 0) + count
    whole = {kind: 0 for kind in KINDS}
    half = {kind: 0 for kind in KINDS}
    dropped = []
    for row, count in pooled.items():
        spec = rows[row]
        groups, remainder = divmod(count, spec["guns"])
        whole[spec["range"]] += groups * spec["batteries"]
        if remainder and remainder * 2 >= spec["guns"]:
            half[spec["range"]] += 1
        elif remainder:
            dropped.append(f"{remainder} x {row}")
    return whole, half, dropped


def dispose(
    whole: dict[str, int], half: dict[str, int], ahead: dict[str, int], astern: dict[str, int], where: str
) -> tuple[tuple[str, Battery], ...]:
    """The diagram: named bow and stern guns first, the rest split evenly port and starboard, an
    odd one pointing ahead (rulings, "Disposition"), per battery type."""
    out: list[tuple[str, Battery]] = []
    for half_flag, counts in ((False, whole), (True, half)):
        for kind in KINDS:
            key = ("half " if half_flag else "") + kind
            total = counts.get(kind, 0)
            fore = ahead.get(key, 0)
            aft = astern.get(key, 0)
            if fore + aft > total:
                raise ScenarioError(where, f"more {key} batteries ahead and astern than the ship has ({total})")
            rest = total - fore - aft
            fore += rest % 2
            side = rest // 2
            battery = Battery(kind, half_flag)
            out += [(AHEAD, battery)] * fore + [(ASTERN, battery)] * aft
            out += [(PORT, battery)] * side + [(STARBOARD, battery)] * side
    return tuple(out)


def _count_map(value: Any, where: str) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(where, "a table of battery counts such as { long = 1 }")
    allowed = set(KINDS) | {"half " + k for k in KINDS}
    for key, count in value.items():
        if key not in allowed:
            raise ScenarioError(f"{where}.{key}", f"a battery type ({', '.join(sorted(allowed))})")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScenarioError(f"{where}.{key}", f"a number of batteries, not {count!r}")
    return dict(value)


def half_up(value: float) -> int:
    """Rulings: calculated flotation and crew round half up (Revenge 22.5 -> 23)."""
    return math.floor(value + 0.5)


def build_spec(entry: dict[str, Any], period: str, simplified: bool, where: str) -> ShipSpec:
    """A ship from the tables (`type`), a Nelson class (`class`) or its own data (`guns` or batteries)."""
    data: dict[str, Any] = {}
    type_name = entry.get("type")
    if type_name is not None:
        if not isinstance(type_name, str) or type_name not in tables()["ships"]:
            raise ScenarioError(f"{where}.type", f"no ship type {type_name!r} in the tables")
        data.update(tables()["ships"][type_name])
    class_name = entry.get("class")
    if class_name is not None:
        if not isinstance(class_name, str) or class_name not in tables()["classes"]:
            raise ScenarioError(f"{where}.class", f"no class {class_name!r}; classes: {', '.join(tables()['classes'])}")
        data.update(tables()["classes"][class_name])
        type_name = class_name
    data.update({k: v for k, v in entry.items() if k not in ("type", "class", "side", "name", "at", "heading")})
    type_name = type_name or entry.get("name", "ship")
    tons = data.get("tons")
    if isinstance(tons, bool) or not isinstance(tons, int) or tons <= 0:
        raise ScenarioError(f"{where}.tons", f"a ship's tonnage, not {tons!r}")
    remainders: list[str] = []
    armament = data.get("armament")
    if armament is not None:
        if not isinstance(armament, dict):
            raise ScenarioError(f"{where}.armament", 'a table of guns such as { "32-pdr" = 28 }')
        whole, half, remainders = batteries_from_guns(period, armament, f"{where}.armament")
        guns = data.get("guns", sum(n for g, n in armament.items() if g != "carronade"))
    else:
        whole = {k: _whole(data.get(k, 0), f"{where}.{k}") for k in KINDS}
        half = {k: _whole(data.get("half_" + k, 0), f"{where}.half_{k}") for k in KINDS}
        guns = data.get("guns")
    if guns is not None:
        _count(guns, f"{where}.guns", 0, 999, "a number of guns")
    if not any(whole.values()) and not any(half.values()):
        raise ScenarioError(where, "a ship needs at least one battery")
    ahead = _count_map(data.get("ahead"), f"{where}.ahead")
    astern = _count_map(data.get("astern"), f"{where}.astern")
    if _flag(data.get("all_ahead", False), f"{where}.all_ahead") and not ahead and not astern:
        ahead = {k: n for k, n in whole.items() if n} | {"half " + k: n for k, n in half.items() if n}
    batteries = dispose(whole, half, ahead, astern, where)
    flotation = data.get("flotation", half_up(tons / 20))
    crew = data.get("crew", half_up(tons / 10))
    if simplified:
        crew = flotation
    length = inches(data.get("length", tables()["periods"][period]["hull_length"]), f"{where}.length")
    turn = data.get("turn", 45)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 < turn <= 180:
        raise ScenarioError(f"{where}.turn", f"a turn in whole degrees (1-180), not {turn!r}")
    for key in ("flotation", "crew"):
        value = flotation if key == "flotation" else crew
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ScenarioError(f"{where}.{key}", f"a positive whole number, not {value!r}")
    oar_turn = _count(data.get("oar_turn", 0), f"{where}.oar_turn", 0, 180, "a turn under oars in whole degrees")
    return ShipSpec(
        type=str(type_name),
        nation=_text(data.get("nation", ""), f"{where}.nation"),
        description=_text(data.get("description", ""), f"{where}.description"),
        year=_count(data.get("year", 1588 if period == "armada" else 1800), f"{where}.year", 1000, 2000, "a year"),
        tons=tons,
        flotation=flotation,
        crew=crew,
        batteries=batteries,
        speed=inches(data.get("speed", 6.0), f"{where}.speed"),
        turn=turn,
        length=length,
        beam=length // 4,
        guns=guns,
        oar_speed=inches(data.get("oar_speed", 0), f"{where}.oar_speed"),
        oar_turn=oar_turn,
        one_turn=_flag(data.get("one_turn", False), f"{where}.one_turn"),
        remainders=tuple(remainders),
    )


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(where, f"a number of batteries, not {value!r}")
    return value


# --- scenarios -------------------------------------------------------------------------------------
_TOP = {
    "title", "briefing", "period", "table", "sides", "time", "prevailing", "wind", "strength", "options",
    "land", "ships", "victory",
}


def builtin_names() -> list[str]:
    folder = resources.files(__package__).joinpath("scenarios")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def _builtin(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("scenarios").joinpath(f"{name}.toml").read_text())


def load_scenario(name: str, options: dict[str, Any] | None = None) -> Scenario:
    """A built-in scenario by name, or a TOML file by path; `options` override the file's switches."""
    if is_file_name(name):
        data, key = read_toml(name), Path(name).stem
    elif name in builtin_names():
        data, key = _builtin(name), name
    else:
        raise unknown_scenario(name, builtin_names())
    return parse_scenario(key, data, options)


def parse_scenario(name: str, data: dict[str, Any], overrides: dict[str, Any] | None = None) -> Scenario:
    refuse_unknown_keys(sorted(data), sorted(_TOP))
    for key in ("title", "briefing"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ScenarioError(key, "required text")
    period = _one_of(data.get("period", "armada"), "period", tables()["periods"])
    options = _options(data.get("options", {}), overrides or {}, period)
    table = data.get("table", [72, 36])
    if not isinstance(table, list) or len(table) != 2:
        raise ScenarioError("table", "[width, height] in inches")
    width, height = inches(table[0], "table[0]"), inches(table[1], "table[1]")
    if not (500 <= width <= TABLE_LIMIT and 500 <= height <= TABLE_LIMIT):
        raise ScenarioError("table", f"a table from 5 to {TABLE_LIMIT // 100} inches each way")
    sides = data.get("sides", ["english", "spanish"])
    if (
        not isinstance(sides, list) or len(sides) != 2
        or not all(isinstance(s, str) and s.isidentifier() and s.islower() for s in sides)
        or sides[0] == sides[1]
    ):
        raise ScenarioError("sides", "two different lower-case side names")
    time = _time(data.get("time", "roll"))
    prevailing, roll_wind = _prevailing(data.get("prevailing", "roll"))
    wind_name = data.get("wind")
    wind = (prevailing or 0) if wind_name is None else COMPASS[_one_of(wind_name, "wind", COMPASS)]
    strengths = tables()["wind"]["strengths"]
    strength_name = _one_of(data.get("strength", "medium"), "strength", strengths)
    land = tuple(_land(entry, f"land[{i}]") for i, entry in enumerate(data.get("land", [])))
    ships = data.get("ships")
    if not isinstance(ships, list) or not ships:
        raise ScenarioError("ships", "a list of ships")
    placements = tuple(_placement(entry, f"ships[{i}]", sides, period, options) for i, entry in enumerate(ships))
    names = [p.name for p in placements]
    if len(set(names)) != len(names):
        raise ScenarioError("ships", "every ship needs a name of its own")
    for side in range(2):
        if not any(p.side == side and p.arrives == 1 for p in placements):
            raise ScenarioError("ships", f"the {sides[side]} side has no ship on the table at the start")
    scenario = Scenario(
        name=name,
        title=data["title"],
        briefing=data["briefing"].strip(),
        period=period,
        width=width,
        height=height,
        sides=(sides[0], sides[1]),
        time=time,
        prevailing=prevailing,
        roll_wind=roll_wind,
        wind=wind,
        strength=strengths.index(strength_name),
        options=options,
        land=land,
        ships=placements,
        off_table=_off_table(data.get("victory", {})),
        data=data,
    )
    _check_positions(scenario)
    return scenario


def _options(values: Any, overrides: dict[str, Any], period: str) -> dict[str, bool]:
    if not isinstance(values, dict):
        raise ScenarioError("options", "a table of switches")
    result = {key: False for key in OPTIONS}
    result["nelson"] = tables()["periods"][period]["nelson_rules"]
    for source in (values, overrides):
        for key, value in source.items():
            if key not in OPTIONS:
                raise unknown_option(key, OPTIONS)
            if not isinstance(value, bool):
                raise ScenarioError(f"options.{key}", f"true or false, not {value!r}")
            result[key] = value
    return result


def _off_table(values: Any) -> str:
    if not isinstance(values, dict):
        raise ScenarioError("victory", "a table of victory conditions")
    for key in values:
        if key != "off-table":
            raise ScenarioError(f"victory.{key}", "not a victory condition; the one condition is off-table")
    return _one_of(values.get("off-table", "disengaged"), "victory.off-table", OFF_TABLE)


def _time(value: Any) -> int | None:
    if value == "roll":
        return None
    if isinstance(value, str) and len(value) == 5 and value[2] == ":" and value.replace(":", "").isdigit():
        hours, minutes = int(value[:2]), int(value[3:])
        if hours < 24 and minutes < 60:
            return hours * 60 + minutes
    raise ScenarioError("time", f"'roll' or a time such as \"12:00\", not {value!r}")


def _prevailing(value: Any) -> tuple[int | None, bool]:
    if value == "roll":
        return None, True
    if value == "none":
        return None, False
    if isinstance(value, str) and value in COMPASS:
        return COMPASS[value], False
    raise ScenarioError("prevailing", f"'roll', 'none' or one of {', '.join(COMPASS)}")


def _land(entry: Any, where: str) -> Land:
    if not isinstance(entry, dict):
        raise ScenarioError(where, "a table with name, kind and points")
    refuse_unknown_keys(entry, _LAND_KEYS, f"{where}.")
    kind = entry.get("kind", "land")
    if kind not in ("land", "shoal"):
        raise ScenarioError(f"{where}.kind", "land or shoal")
    points = entry.get("points")
    if not isinstance(points, list) or len(points) < 3:
        raise ScenarioError(f"{where}.points", "at least three [x, y] points in inches")
    polygon = []
    for i, point in enumerate(points):
        if not isinstance(point, list) or len(point) != 2:
            raise ScenarioError(f"{where}.points[{i}]", "[x, y] in inches")
        polygon.append((inches(point[0], f"{where}.points[{i}]"), inches(point[1], f"{where}.points[{i}]")))
    return Land(_text(entry.get("name", kind), f"{where}.name"), kind, tuple(polygon))


def _placement(entry: Any, where: str, sides: list[str], period: str, options: dict[str, bool]) -> Placement:
    if not isinstance(entry, dict):
        raise ScenarioError(where, "a table describing one ship")
    refuse_unknown_keys(entry, _SHIP_KEYS, f"{where}.")
    name = entry.get("name") or entry.get("type")
    if not isinstance(name, str) or not name.strip() or name != " ".join(name.split()):
        raise ScenarioError(f"{where}.name", "a ship's name")
    if name.split()[0].lower() in _RESERVED or any(w.lower() in _RESERVED for w in name.split()):
        raise ScenarioError(f"{where}.name", f"a ship's name may not contain the words {', '.join(sorted(_RESERVED))}")
    _one_of(entry.get("side"), f"{where}.side", sides)
    at = entry.get("at")
    if not isinstance(at, list) or len(at) != 2:
        raise ScenarioError(f"{where}.at", "[x, y] in inches")
    heading = entry.get("heading", 0)
    if isinstance(heading, bool) or not isinstance(heading, int) or not 0 <= heading < 360:
        raise ScenarioError(f"{where}.heading", "whole degrees 0-359")
    arrives = entry.get("arrives", 1)
    if isinstance(arrives, bool) or not isinstance(arrives, int) or arrives < 1:
        raise ScenarioError(f"{where}.arrives", "the move number on which the ship enters (1 or more)")
    edge = entry.get("edge", "")
    if arrives > 1 and (not isinstance(edge, str) or edge not in EDGES):
        raise ScenarioError(f"{where}.edge", f"a reinforcement enters at a table edge: one of {', '.join(EDGES)}")
    if arrives == 1 and edge:
        raise ScenarioError(f"{where}.edge", "only a ship that arrives after the first move enters at an edge")
    spec = build_spec(entry, period, options["simplified"], where)
    oars = entry.get("oars", False)
    if not isinstance(oars, bool):
        raise ScenarioError(f"{where}.oars", "true (she begins under oars) or false (under sail)")
    if oars and not spec.oared:
        raise ScenarioError(f"{where}.oars", f"{name} has no oars to begin under (her type has no oar_speed)")
    # with optional rule 4 switched off (`--option oared=false`) an oared ship sails like any other
    return Placement(name, sides.index(entry["side"]), spec, inches(at[0], f"{where}.at"),
                     inches(at[1], f"{where}.at"), heading, arrives, edge, oars and options["oared"])


_LAND_KEYS = ("name", "kind", "points")
# A ship's entry: where she starts, and her data, which overrides her type's or class's (build_spec).
# "any_forward" only marks the oared types that may point any share of their guns ahead.
_SHIP_KEYS = (
    "name", "type", "class", "side", "at", "heading", "arrives", "edge", "oars", "nation", "description", "year",
    "tons", "flotation", "crew", *KINDS, *(f"half_{kind}" for kind in KINDS), "armament", "guns", "ahead", "astern",
    "all_ahead", "any_forward", "speed", "turn", "length", "oar_speed", "oar_turn", "one_turn",
)


# A reinforcement's table edge and the heading that points straight onto the table from it.
EDGES = {"north": 180, "east": 270, "south": 0, "west": 90}


# Words of the move notation (actions.py), which a ship's name may not use.
_RESERVED = {"turn", "run", "to", "heading", "board", "tow", "heave-to", "fire", "at", "remove", "with", "and"}


def _check_positions(scenario: Scenario) -> None:
    from quarterdeck.core import plane

    hulls = []
    for i, p in enumerate(scenario.ships):
        if not plane.in_table((p.x, p.y), scenario.width, scenario.height):
            raise ScenarioError(f"ships[{i}].at", f"{p.name} is off the table")
        shape = plane.hull((p.x, p.y), p.heading, p.spec.length, p.spec.beam)
        for j, other in hulls:
            if scenario.ships[j].arrives == p.arrives and plane.convex_overlap(shape, other):
                raise ScenarioError(f"ships[{i}].at", f"{p.name} overlaps {scenario.ships[j].name}")
        for land in scenario.land:
            if plane.polygons_touch(shape, land.polygon):
                raise ScenarioError(f"ships[{i}].at", f"{p.name} is aground on {land.name}")
        if p.edge:
            _check_entry(scenario, p, i)
        hulls.append((i, shape))


def _check_entry(scenario: Scenario, p: Placement, i: int) -> None:
    """Rulings: reinforcements "enter on a given move at a given edge": her mainmast within her own
    length of that edge, heading onto the table (a decision)."""
    from quarterdeck.core import plane

    gap = {"north": scenario.height - p.y, "east": scenario.width - p.x, "south": p.y, "west": p.x}[p.edge]
    if gap > p.spec.length:
        raise ScenarioError(f"ships[{i}].at", f"{p.name} enters at the {p.edge} edge: her mainmast within "
                            f"{p.spec.length / 100:.2f} in of it, not {gap / 100:.2f}")
    if plane.angle_off(p.heading, EDGES[p.edge]) >= 90:
        raise ScenarioError(f"ships[{i}].heading", f"{p.name} enters from the {p.edge} edge heading onto the "
                            f"table (within 90 degrees of {EDGES[p.edge]}), not {p.heading}")
