"""Unit types: how far and which way each moves, attacks and supports, and what it defends with.

The values are data (tables.toml, beside this module, under `[unit_types.<name>]`) so that they
read like the rule book's table; a scenario may add or redefine types with the same keys in its own
`[unit_types.<name>]` tables.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from quarterdeck.core.errors import ScenarioError
from quarterdeck.core.geometry import DIAGONAL, ORTHOGONAL, Compass

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
            raise ScenarioError(f"{where}.{unknown[0]}", "unknown key")
        values: dict[str, Any] = {"name": name}
        for key, least in _INTEGER_KEYS.items():
            value = entry.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= 8:
                raise ScenarioError(f"{where}.{key}", f"must be a whole number from {least} to 8")
            values[key] = value
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
            value = entry.get(key, False)
            if not isinstance(value, bool):
                raise ScenarioError(f"{where}.{key}", "must be true or false")
            values[key] = value
        types[name] = UnitType(**values)
    return types


def standard_unit_types() -> dict[str, UnitType]:
    """The unit types of the rule book (tables.toml); the types themselves are shared and immutable."""
    return dict(_standard_unit_types())


@cache
def _standard_unit_types() -> dict[str, UnitType]:
    text = resources.files(__package__).joinpath("tables.toml").read_text(encoding="utf-8")
    return parse_unit_types(tomllib.loads(text)["unit_types"], "unit_types")
