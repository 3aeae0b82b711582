"""Units (seed 002, "Movement and Combat", "Additional/Variant Units" and "Other Epochs"): the
book's unit table and its reading.

The table itself is data, `tables.toml` beside this module, so that it reads like the rule book.
This module stays apart from scenario.py (which would otherwise pass 400 lines) because it reads
two files: tables.toml and a scenario's own `[unit_types.<name>]` tables, which add or redefine
types with the same keys. It also holds the field checks that scenario.py and terrain.py share
with it, so that every file names a faulty field the same way. `UnitType` is one row of the table,
`Unit` one piece on the board.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from quarterdeck.core.errors import NotationError, ScenarioError, refuse_unknown_keys, unknown_field
from quarterdeck.core.geometry import DIAGONAL, ORTHOGONAL, Compass, Square, SquareGrid

DIRECTION_SETS: dict[str, tuple[Compass, ...]] = {
    "any": tuple(Compass),
    "orthogonal": ORTHOGONAL,
    "diagonal": DIAGONAL,
}
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


# eq=False: types are compared and hashed by identity, which keeps units cheap to hash and copy.
@dataclass(frozen=True, slots=True, eq=False)
class UnitType:
    name: str
    title: str
    symbol: str
    move: int
    move_directions: tuple[Compass, ...]
    attack: int
    attack_directions: tuple[Compass, ...]
    support: int
    support_directions: tuple[Compass, ...]
    defence: int
    guard: bool = False
    artillery: bool = False
    book: str = ""

    def describe_move(self) -> str:
        reach = "1 square" if self.move == 1 else f"1 to {self.move} squares in a straight line"
        return f"{self.title} moves {reach} {directions_phrase(self.move_directions)}"

    def describe_reach(self, what: str) -> str:
        directions = self.attack_directions if what == "attack" else self.support_directions
        return f"{self.title} {what}s {directions_phrase(directions)} into an adjacent square"


class Unit(NamedTuple):
    """A unit on the board: its id (army, type and number), its army's seat and its type."""

    id: str
    army: int
    kind: UnitType


def directions_phrase(directions: tuple[Compass, ...]) -> str:
    for word, members in DIRECTION_SETS.items():
        if directions == members:
            return "in any direction" if word == "any" else f"{word}ly"
    return "along " + " ".join(d.name for d in directions)


_INTEGER_KEYS = {"move": 1, "attack": 0, "support": 0, "defence": 0}
_DIRECTION_KEYS = ("move_directions", "attack_directions", "support_directions")
_TEXT_KEYS = ("title", "symbol", "book")
_FLAG_KEYS = ("guard", "artillery")
_KNOWN_KEYS = {*_INTEGER_KEYS, *_DIRECTION_KEYS, *_TEXT_KEYS, *_FLAG_KEYS}


def parse_unit_types(table: Any, field: str, base: dict[str, UnitType] | None = None) -> dict[str, UnitType]:
    """Unit types from a TOML table of tables; ScenarioError names the faulty `field.name.key`."""
    if not isinstance(table, dict):
        raise ScenarioError(field, "must be a table of unit types")
    types = dict(base or {})
    for name, entry in table.items():
        where = f"{field}.{name}"
        if not _NAME.match(name):
            raise ScenarioError(where, "a unit type name is lower-case letters, digits and hyphens")
        if not isinstance(entry, dict):
            raise ScenarioError(where, "must be a table")
        unknown = sorted(set(entry) - _KNOWN_KEYS)
        if unknown:
            raise unknown_field(f"{where}.{unknown[0]}", sorted(_KNOWN_KEYS))
        values: dict[str, Any] = {"name": name}
        for key, least in _INTEGER_KEYS.items():
            values[key] = integer_field(entry.get(key), f"{where}.{key}", least, 8)
        for key in _DIRECTION_KEYS:
            word = entry.get(key, entry.get("attack_directions") if key == "support_directions" else None)
            if word not in DIRECTION_SETS:
                raise ScenarioError(f"{where}.{key}", f"must be one of {', '.join(DIRECTION_SETS)}")
            values[key] = DIRECTION_SETS[word]
        for key in _TEXT_KEYS:
            value = entry.get(key, name.replace("-", " ").title() if key == "title" else "")
            if not isinstance(value, str):
                raise ScenarioError(f"{where}.{key}", "must be text")
            values[key] = value
        if not 1 <= len(values["symbol"]) <= 2:
            raise ScenarioError(f"{where}.symbol", "a symbol is one or two characters")
        for key in _FLAG_KEYS:
            values[key] = flag_field(entry.get(key, False), f"{where}.{key}")
        types[name] = UnitType(**values)
    return types


def standard_unit_types() -> dict[str, UnitType]:
    """The unit types of the rule book (tables.toml); the types themselves are shared and immutable."""
    return dict(_standard_unit_types())


@cache
def _standard_unit_types() -> dict[str, UnitType]:
    text = resources.files(__package__).joinpath("tables.toml").read_text(encoding="utf-8")
    return parse_unit_types(tomllib.loads(text)["unit_types"], "unit_types")


# --- checking fields, of tables.toml and of scenario files (scenario.py, terrain.py) -----------
def no_unknown_keys(table: dict[str, Any], known: set[str], prefix: str) -> None:
    refuse_unknown_keys(sorted(table), sorted(known), prefix)  # the first unknown key by name, as before


def text_field(table: dict[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(where, "must be non-empty text")
    return value


def integer_field(value: Any, where: str, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise ScenarioError(where, f"must be a whole number from {least} to {most}")
    return value


def flag_field(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(where, "must be true or false")
    return value


def list_field(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(where, "must be a list")
    return value


def square_field(value: Any, where: str, grid: SquareGrid) -> Square:
    if not isinstance(value, str):
        raise ScenarioError(where, "a square is written like e4")
    try:
        return grid.parse(value)
    except NotationError as exc:
        raise ScenarioError(where, exc.message) from None


def squares_field(value: Any, where: str, grid: SquareGrid) -> list[Square]:
    return [square_field(text, f"{where}[{i}]", grid) for i, text in enumerate(list_field(value, where))]
