"""Scenarios and tables (seed 000, "Ship Classes", "Shore Batteries" and "General notes on scenarios
and tactics"): TOML files, validated, turned into the immutable `Setup` every state of a game shares.

tables.toml holds the book's numbers (ship classes, the fire chart's caps, the wind chart). A
scenario gives the board as rows of characters (top row = highest rank; ``.`` sea, ``#`` land,
``H`` harbour), the wind and its scheduled changes, the sides with their squadrons, ships and shore
batteries, and the victory conditions (checked by victory.py; damage tracks by damage.py). Every
mistake is reported as a ScenarioError naming the field, e.g. ``ships[3].at``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...core.errors import ScenarioError, unknown_field, unknown_option, unknown_scenario
from ...core.files import is_file_name, parse_toml, read_toml
from ...core.geometry import Compass, Square, SquareGrid
from .actions import EDGES
from .damage import checked_track
from .victory import Victory, conditions

SEA, LAND, HARBOUR = ".", "#", "H"
STRENGTHS = ("calm", "moderate", "strong")
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_'\-]*$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ClassSpec(_Model):
    title: str
    F: int = Field(ge=0, le=20)
    S: int = Field(ge=0, le=20)
    T: int = Field(ge=0, le=20)


class WindChangeSpec(_Model):
    turn: int = Field(ge=2)  # turn 1 has the scenario's own wind
    direction: str = Field(alias="from")
    strength: Literal["calm", "moderate", "strong"]


class WindSpec(_Model):
    direction: str = Field(alias="from")
    strength: Literal["calm", "moderate", "strong"] = "moderate"
    changes: list[WindChangeSpec] = []
    table: dict[str, list[int]] = {}


class SquadronSpec(_Model):
    side: str
    name: str = Field(pattern=r"^[a-z][a-z0-9\-]*$")


class ShipSpec(_Model):
    name: str = Field(pattern=NAME_PATTERN)
    side: str
    ship_class: str = Field(alias="class")
    role: Literal["warship", "merchant", "transport"] = "warship"
    at: str
    heading: str
    squadron: str | None = None
    exits: list[str] = []
    value: int | None = Field(default=None, ge=0)


class BatterySpec(_Model):
    name: str = Field(pattern=NAME_PATTERN)
    side: str
    at: str
    F: int = Field(ge=1, le=20)
    field: list[str] = Field(min_length=1)
    squadron: str | None = None
    value: int | None = Field(default=None, ge=0)


class VictorySpec(_Model):
    type: Literal["annihilation", "strike", "escape"]
    side: str
    count: int | None = Field(default=None, ge=1)
    roles: list[str] = []
    classes: list[str] = []
    ships: list[str] = []


class ScenarioSpec(_Model):
    name: str
    title: str
    briefing: str
    sides: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9\-]*$")]] = ["blue", "red"]
    board: str
    wind: WindSpec
    squadrons: list[SquadronSpec] = []
    ships: list[ShipSpec]
    batteries: list[BatterySpec] = []
    victory: list[VictorySpec] = []
    turn_limit: int | None = Field(default=None, ge=1)
    at_limit: str = "points"
    classes: dict[str, ClassSpec] = {}
    tracks: dict[str, list[list[int]]] = {}


class OptionsSpec(_Model):
    """Options a player may set on any scenario."""

    calm: bool = False
    wind_from: str | None = None
    wind_strength: Literal["calm", "moderate", "strong"] | None = None
    turn_limit: int | None = Field(default=None, ge=1)
    repetition_draw: bool = True


@dataclass(frozen=True)
class ShipInfo:
    name: str
    side: str
    ship_class: str
    role: str
    squadron: str
    exits: frozenset[str]
    value: int
    track: tuple[tuple[int, int, int], ...]  # factors after 0, 1, 2, ... hits; the last is (0, 0, 0)
    start: Square
    heading: Compass

    @property
    def armed(self) -> bool:
        return self.role == "warship"


@dataclass(frozen=True)
class BatteryInfo:
    name: str
    side: str
    squadron: str
    square: Square
    field: frozenset[Compass]
    value: int
    track: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Setup:
    """Everything about a game that never changes while it is played; shared by all its states."""

    name: str
    title: str
    briefing: str
    grid: SquareGrid
    terrain: tuple[str, ...]  # terrain[y][x]
    sides: tuple[str, ...]
    seats: tuple[tuple[str, str], ...]  # (side, squadron) in playing order
    ships: dict[str, ShipInfo]
    batteries: dict[str, BatteryInfo]
    wind_from: Compass
    wind_strength: str
    wind_changes: tuple[tuple[int, Compass, str], ...]
    wind_table: dict[str, tuple[int, ...]]
    cap_reduction: tuple[int, ...]
    class_titles: dict[str, str]
    victory: tuple[Victory, ...]
    turn_limit: int | None
    at_limit: str
    repetition_draw: bool
    source: dict[str, Any] = field(default_factory=dict, compare=False)  # the validated scenario data
    options: dict[str, Any] = field(default_factory=dict, compare=False)

    def terrain_at(self, square: Square) -> str:
        return self.terrain[square[1]][square[0]]

    @cached_property
    def sight_lines(self) -> dict[Square, tuple[tuple[Square, ...], ...]]:
        """Each square's eight lines, by compass point: the squares fire travels through, to the
        board's edge or the first land square, the last on its line (a battery there is seen). Fire
        and the captains' move scoring read them in every search, so they are made once a game."""
        lines: dict[Square, tuple[tuple[Square, ...], ...]] = {}
        for y in range(self.grid.height):
            for x in range(self.grid.width):
                lines[(x, y)] = tuple(self._line((x, y), direction) for direction in Compass)
        return lines

    def _line(self, origin: Square, direction: Compass) -> tuple[Square, ...]:
        squares: list[Square] = []
        for square in self.grid.ray(origin, direction):
            squares.append(square)
            if self.terrain_at(square) == LAND:
                break
        return tuple(squares)

    def seat_name(self, seat: int) -> str:
        side, squadron = self.seats[seat]
        if sum(1 for s, _ in self.seats if s == side) == 1:
            return side
        return f"{side}.{squadron}"


def load_tables() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("tables.toml").read_text()
    return tomllib.loads(text)


def scenario_names() -> list[str]:
    folder = resources.files(__package__).joinpath("scenarios")
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def shipped_setup(name: str) -> Setup:
    """A shipped scenario's setup without options, built once (the lobby and the server list them often)."""
    return build_setup(load_scenario_data(name))


def load_scenario_data(name: str) -> dict[str, Any]:
    """A shipped scenario's data by name, or a user's scenario file by its path (ending in .toml)."""
    if is_file_name(name):
        return read_toml(name)
    if name not in scenario_names():
        raise unknown_scenario(name, scenario_names())
    return parse_toml(resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(), name)


def _pydantic_error(exc: ValidationError, prefix: str = "", model: type[BaseModel] | None = None) -> ScenarioError:
    first = exc.errors()[0]
    parts: list[str] = []
    for item in first["loc"]:
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1]}[{item}]"] if parts else [f"[{item}]"]
        else:
            parts.append(str(item))
    where = ".".join(parts) or "scenario"
    holder = _model_at(model, first["loc"][:-1]) if model is not None else None
    if first["type"] == "extra_forbidden" and holder is not None:
        known = [field.alias or name for name, field in holder.model_fields.items()]
        if prefix == "options.":
            return unknown_option(where, known)
        return unknown_field(where, known)
    return ScenarioError(prefix + where, first["msg"])


def _model_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model that holds the field at `loc` (ships, 2 -> ShipSpec), so that a misspelt key deep
    in a scenario file is answered with the keys of the table it sits in."""
    kind: Any = model
    for item in loc:
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            fields = {field.alias or name: field for name, field in kind.model_fields.items()}
            if item not in fields:
                return None
            kind = fields[item].annotation
        elif get_origin(kind) in (list, dict):
            kind = get_args(kind)[-1]  # the element of a list, the value of a dict
        else:
            return None
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def build_setup(data: dict[str, Any], options: dict[str, Any] | None = None) -> Setup:
    """Validate scenario data (and options) and build the Setup. Raises ScenarioError."""
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, "", ScenarioSpec) from None
    try:
        opts = OptionsSpec.model_validate(options or {})
    except ValidationError as exc:
        raise _pydantic_error(exc, "options.", OptionsSpec) from None
    return _Builder(spec, opts, load_tables()).build()


class _Builder:
    def __init__(self, spec: ScenarioSpec, options: OptionsSpec, tables: dict[str, Any]):
        self.spec = spec
        self.options = options
        self.tables = tables

    def build(self) -> Setup:
        spec = self.spec
        grid, terrain = self._board()
        if len(set(spec.sides)) != len(spec.sides) or len(spec.sides) < 2:
            raise ScenarioError("sides", "give at least two different side names")
        if "chance" in spec.sides:
            raise ScenarioError("sides", "'chance' is reserved for chance outcomes in game records")
        classes = self._classes()
        seats = self._seats()
        occupied: dict[Square, str] = {}
        ships = {}
        for index, ship in enumerate(spec.ships):
            ships[ship.name] = self._ship(index, ship, grid, terrain, classes, seats, occupied)
        batteries = {}
        for index, battery in enumerate(spec.batteries):
            batteries[battery.name] = self._battery(index, battery, grid, terrain, seats, occupied, ships)
        self._check_spacing(spec, ships, grid, terrain)
        wind_from, strength, changes, table = self._wind()
        victory = conditions(spec.victory or [VictorySpec(type="annihilation", side=side) for side in spec.sides],
                             spec.sides, classes, ships)
        turn_limit = self.options.turn_limit or spec.turn_limit
        if spec.at_limit not in ("points", "draw", *spec.sides):
            raise ScenarioError("at_limit", "must be 'points', 'draw' or a side name")
        used_seats = tuple(seat for seat in seats if self._seat_used(seat, ships, batteries))
        for side in spec.sides:
            if not any(s == side for s, _ in used_seats):
                raise ScenarioError("sides", f"side {side!r} has no ships or batteries")
        return Setup(
            name=spec.name,
            title=spec.title,
            briefing=spec.briefing,
            grid=grid,
            terrain=terrain,
            sides=tuple(spec.sides),
            seats=used_seats,
            ships=ships,
            batteries=batteries,
            wind_from=wind_from,
            wind_strength=strength,
            wind_changes=changes,
            wind_table=table,
            cap_reduction=tuple(self.tables["fire"]["cap_reduction"]),
            class_titles={name: c.title for name, c in classes.items()},
            victory=victory,
            turn_limit=turn_limit,
            at_limit=spec.at_limit,
            repetition_draw=self.options.repetition_draw,
            source=spec.model_dump(by_alias=True, exclude_defaults=True),
            options=self.options.model_dump(exclude_defaults=True),
        )

    def _board(self) -> tuple[SquareGrid, tuple[str, ...]]:
        rows = [row.strip() for row in self.spec.board.strip().splitlines() if row.strip()]
        if not rows:
            raise ScenarioError("board", "the board has no rows")
        width = len(rows[0])
        for number, row in enumerate(rows):
            if len(row) != width:
                raise ScenarioError("board", f"row {number + 1} is {len(row)} squares wide, the first is {width}")
            bad = set(row) - {SEA, LAND, HARBOUR}
            if bad:
                raise ScenarioError("board", f"row {number + 1} has {''.join(sorted(bad))!r}; use . # or H")
        if width > 26:
            raise ScenarioError("board", "at most 26 files wide")
        terrain = tuple(reversed(rows))  # the text shows the top (highest rank) first
        return SquareGrid(width, len(rows)), terrain

    def _classes(self) -> dict[str, ClassSpec]:
        classes = {name: ClassSpec.model_validate(data) for name, data in self.tables["classes"].items()}
        classes.update(self.spec.classes)
        for name, spec in self.spec.classes.items():
            if spec.F + spec.S + spec.T == 0:
                raise ScenarioError(f"classes.{name}", "a class needs at least one of F, S, T above 0")
        for name in self.spec.tracks:
            if name not in classes:
                raise ScenarioError(f"tracks.{name}", f"unknown class {name!r}")
        return classes

    def _seats(self) -> list[tuple[str, str]]:
        seats: list[tuple[str, str]] = []
        for index, squadron in enumerate(self.spec.squadrons):
            if squadron.side not in self.spec.sides:
                raise ScenarioError(f"squadrons[{index}].side", f"unknown side {squadron.side!r}")
            if (squadron.side, squadron.name) in seats:
                raise ScenarioError(f"squadrons[{index}].name", f"squadron {squadron.name!r} given twice")
            seats.append((squadron.side, squadron.name))
        for side in self.spec.sides:
            if not any(s == side for s, _ in seats):
                seats.append((side, "fleet"))
        order = {side: i for i, side in enumerate(self.spec.sides)}
        return sorted(seats, key=lambda seat: order[seat[0]])

    def _squadron(self, field_name: str, side: str, wanted: str | None, seats: list[tuple[str, str]]) -> str:
        names = [name for s, name in seats if s == side]
        if wanted is None:
            return names[0]
        if wanted not in names:
            raise ScenarioError(field_name, f"side {side!r} has no squadron {wanted!r} (has {', '.join(names)})")
        return wanted

    def _place(self, field_name: str, text: str, grid: SquareGrid, occupied: dict[Square, str], name: str) -> Square:
        try:
            square = grid.parse(text)
        except Exception as exc:  # NotationError: re-labelled with the field that holds it
            raise ScenarioError(field_name, str(exc)) from None
        if square in occupied:
            raise ScenarioError(field_name, f"{text} is already taken by {occupied[square]}")
        occupied[square] = name
        return square

    def _unique(self, field_name: str, name: str) -> None:
        names = [s.name for s in self.spec.ships] + [b.name for b in self.spec.batteries]
        if names.count(name) > 1:
            raise ScenarioError(field_name, f"the name {name!r} is used more than once")

    def _ship(self, index, ship: ShipSpec, grid, terrain, classes, seats, occupied) -> ShipInfo:
        where = f"ships[{index}]"
        self._unique(f"{where}.name", ship.name)
        if ship.side not in self.spec.sides:
            raise ScenarioError(f"{where}.side", f"unknown side {ship.side!r}")
        if ship.ship_class not in classes:
            raise ScenarioError(f"{where}.class", f"unknown class {ship.ship_class!r} (known: {', '.join(classes)})")
        square = self._place(f"{where}.at", ship.at, grid, occupied, ship.name)
        if terrain[square[1]][square[0]] == LAND:
            raise ScenarioError(f"{where}.at", f"{ship.at} is land")
        try:
            heading = Compass.parse(ship.heading)
        except Exception as exc:
            raise ScenarioError(f"{where}.heading", str(exc)) from None
        for edge in ship.exits:
            if edge not in EDGES:
                raise ScenarioError(f"{where}.exits", f"an exit edge is one of {' '.join(EDGES)}, not {edge!r}")
        spec = classes[ship.ship_class]
        own_track = self.spec.tracks.get(ship.ship_class)
        track = checked_track(f"tracks.{ship.ship_class}", (spec.F, spec.S, spec.T), own_track)
        return ShipInfo(
            name=ship.name,
            side=ship.side,
            ship_class=ship.ship_class,
            role=ship.role,
            squadron=self._squadron(f"{where}.squadron", ship.side, ship.squadron, seats),
            exits=frozenset(ship.exits),
            value=ship.value if ship.value is not None else spec.F + spec.S + spec.T,
            track=track,
            start=square,
            heading=heading,
        )

    def _battery(self, index, battery: BatterySpec, grid, terrain, seats, occupied, ships) -> BatteryInfo:
        where = f"batteries[{index}]"
        self._unique(f"{where}.name", battery.name)
        if battery.side not in self.spec.sides:
            raise ScenarioError(f"{where}.side", f"unknown side {battery.side!r}")
        square = self._place(f"{where}.at", battery.at, grid, occupied, battery.name)
        if terrain[square[1]][square[0]] != LAND:
            raise ScenarioError(f"{where}.at", f"a shore battery stands on land; {battery.at} is not land")
        try:
            field_of_fire = frozenset(Compass.parse(d) for d in battery.field)
        except Exception as exc:
            raise ScenarioError(f"{where}.field", str(exc)) from None
        return BatteryInfo(
            name=battery.name,
            side=battery.side,
            squadron=self._squadron(f"{where}.squadron", battery.side, battery.squadron, seats),
            square=square,
            field=field_of_fire,
            value=battery.value if battery.value is not None else battery.F,
            track=tuple((f, 0, 0) for f in range(battery.F, -1, -1)),
        )

    def _check_spacing(self, spec: ScenarioSpec, ships: dict[str, ShipInfo], grid, terrain) -> None:
        listed = list(ships.values())
        for i, a in enumerate(listed):
            for b in listed[i + 1 :]:
                if a.side == b.side and grid.touching(a.start, b.start):
                    in_harbour = terrain[a.start[1]][a.start[0]] == HARBOUR == terrain[b.start[1]][b.start[0]]
                    if not in_harbour:
                        index = spec.ships.index(next(s for s in spec.ships if s.name == b.name))
                        raise ScenarioError(
                            f"ships[{index}].at",
                            f"{b.name} touches {a.name} of the same side (non-adjacency rule)",
                        )

    def _wind(self):
        spec = self.spec.wind
        try:
            direction = Compass.parse(self.options.wind_from or spec.direction)
        except Exception as exc:
            raise ScenarioError("wind.from", str(exc)) from None
        strength = "calm" if self.options.calm else (self.options.wind_strength or spec.strength)
        changes = []
        turns = [change.turn for change in spec.changes]
        for index, change in enumerate(spec.changes):
            if turns.count(change.turn) > 1:
                raise ScenarioError(f"wind.changes[{index}].turn", f"two wind changes on turn {change.turn}")
            try:
                changes.append((change.turn, Compass.parse(change.direction), change.strength))
            except Exception as exc:
                raise ScenarioError(f"wind.changes[{index}].from", str(exc)) from None
        if self.options.calm:
            changes = [(turn, d, "calm") for turn, d, _ in changes]
        table = {name: tuple(values) for name, values in self.tables["wind"].items()}
        for name, values in spec.table.items():
            if name not in STRENGTHS:
                raise ScenarioError(f"wind.table.{name}", f"a wind strength is one of {', '.join(STRENGTHS)}")
            if len(values) != 5 or any(v < 0 for v in values):
                raise ScenarioError(f"wind.table.{name}", "five non-negative squares-per-point values")
            table[name] = tuple(values)
        return direction, strength, tuple(sorted(changes)), table

    @staticmethod
    def _seat_used(seat, ships, batteries) -> bool:
        side, squadron = seat
        pieces = list(ships.values()) + list(batteries.values())
        return any(p.side == side and p.squadron == squadron for p in pieces)

