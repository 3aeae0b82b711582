"""Pirate Chess tables and board geometry.

The ship types (ranks, moves, whether they anchor) and the scenarios are data in `data.toml`;
this module loads them once and precomputes, per board size, every line a ship can sail from every
square on the torus, so move generation is a walk along ready-made tuples.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ...core.errors import ScenarioError
from ...core.geometry import Compass, TorusGrid

_DATA: dict[str, Any] = tomllib.loads(resources.files(__package__).joinpath("data.toml").read_text("utf-8"))
_RULES = _DATA["rules"]

DEFAULT_SIZE: int = _RULES["default_size"]
MIN_SIZE: int = _RULES["min_size"]
MAX_SIZE = 26  # algebraic square names run out of file letters after z
OPENING_TURNS: int = _RULES["opening_turns"]
QUIET_TURN_LIMIT: int = _RULES["quiet_turn_limit"]
UPGRADE_KINDS: tuple[str, ...] = tuple(_RULES["upgrade_into"])
UPGRADE_LIMIT: int = _RULES["upgrade_limit"]
SCENARIOS: dict[str, dict[str, Any]] = _DATA["scenarios"]


@dataclass(frozen=True)
class ShipType:
    name: str
    rank: int
    symbol: str  # two letters for boards and position keys
    steps: tuple[tuple[int, int], ...]  # (east, north) offset of one step along each line
    reach: int  # how many steps a line may take (1 for a leap)
    anchors: bool
    strikes_anchored: bool  # may attack an anchored ship (only the Pirate)
    moves: str  # the move in words, for messages and help


def _ship_type(name: str, entry: dict[str, Any]) -> ShipType:
    if "leaps" in entry:
        steps = tuple((int(dx), int(dy)) for dx, dy in entry["leaps"])
        reach = 1
    else:
        steps = tuple(Compass[d].delta for d in entry["directions"])
        reach = int(entry["reach"])
    return ShipType(
        name=name,
        rank=int(entry["rank"]),
        symbol=entry["symbol"],
        steps=steps,
        reach=reach,
        anchors=bool(entry.get("anchors", True)),
        strikes_anchored=bool(entry.get("strikes_anchored", False)),
        moves=entry["moves"],
    )


SHIP_TYPES: dict[str, ShipType] = {name: _ship_type(name, entry) for name, entry in _DATA["ships"].items()}
FLEET: tuple[str, ...] = tuple(SHIP_TYPES)  # one of each type, in reserve at the start
RANK: dict[str, int] = {name: t.rank for name, t in SHIP_TYPES.items()}


@dataclass(frozen=True)
class Options:
    size: int = DEFAULT_SIZE
    repetition_draw: bool = True
    quiet_turn_draw: bool = True
    quiet_turn_limit: int = QUIET_TURN_LIMIT

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "repetition_draw": self.repetition_draw,
            "quiet_turn_draw": self.quiet_turn_draw,
            "quiet_turn_limit": self.quiet_turn_limit,
        }

    @classmethod
    def parse(cls, values: dict[str, Any]) -> Options:
        """Checked options; ScenarioError names the option at fault."""
        known = set(cls.__dataclass_fields__)
        for key in values:
            if key not in known:
                raise ScenarioError(key, f"unknown option; options are {', '.join(sorted(known))}")
        size = values.get("size", DEFAULT_SIZE)
        if type(size) is not int or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
            raise ScenarioError("size", f"the board size is an even number from {MIN_SIZE} to {MAX_SIZE}")
        for flag in ("repetition_draw", "quiet_turn_draw"):
            if type(values.get(flag, True)) is not bool:
                raise ScenarioError(flag, "must be true or false")
        limit = values.get("quiet_turn_limit", QUIET_TURN_LIMIT)
        if type(limit) is not int or limit < 1:
            raise ScenarioError("quiet_turn_limit", "must be a whole number of turns, at least 1")
        return cls(
            size=size,
            repetition_draw=values.get("repetition_draw", True),
            quiet_turn_draw=values.get("quiet_turn_draw", True),
            quiet_turn_limit=limit,
        )


class BoardGeometry:
    """Squares of one torus size as indices `y * size + x`, with names, harbour and move lines."""

    def __init__(self, size: int):
        self.size = size
        grid = TorusGrid(size, size)
        self.names: tuple[str, ...] = tuple(grid.name((i % size, i // size)) for i in range(size * size))
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        middle = size // 2
        self.harbour = frozenset(y * size + x for x in (middle - 1, middle) for y in (middle - 1, middle))
        # lines[kind][square]: one tuple of squares per step direction, nearest first, wrapped
        self.lines: dict[str, tuple[tuple[tuple[int, ...], ...], ...]] = {}
        # On a small torus two lines of one ship can reach the same square (an 8x8 Frigate sailing
        # 4 east or 4 west); move generation removes such duplicates only for those ship types.
        self.crossing: dict[str, bool] = {}
        for kind, ship_type in SHIP_TYPES.items():
            per_square = []
            for square in range(size * size):
                x, y = square % size, square // size
                per_square.append(
                    tuple(
                        tuple(((y + dy * k) % size) * size + (x + dx * k) % size for k in range(1, ship_type.reach + 1))
                        for dx, dy in ship_type.steps
                    )
                )
            self.lines[kind] = tuple(per_square)
            self.crossing[kind] = any(
                len({s for line in lines for s in line}) < sum(len(line) for line in lines) for lines in per_square
            )


@cache
def geometry(size: int) -> BoardGeometry:
    return BoardGeometry(size)


def ship_kind(ship_id: str) -> str:
    """The type of a ship from its id: `Frigate2` is a Frigate."""
    return ship_id.rstrip("0123456789")


def ship_number(ship_id: str) -> int:
    """1 for an original ship (`Frigate`), n for the n-th of its type in a fleet (`Frigate2`)."""
    digits = ship_id[len(ship_kind(ship_id)) :]
    return int(digits) if digits else 1
