"""Pirate Chess actions and their notation (seed 004: "Each turn normally consists of two actions;
placing (or moving) a ship, and an anchoring or un-anchoring", "How to SINK or CAPTURE" and "How to
UPGRADE" for the choices an action carries).

`Place` puts a reserve ship on a square, `Move` sails one on the board, `Anchor` lets go or weighs
an anchor and `End` declines the rest of a turn. The notation is ours (docs/rules/pirate-chess.md,
"Notation"): `place Pirate d5`, `move Frigate c4-c7`, `move Pirate c3xe4 capture`,
`move Dhow d3-d4 upgrade Pirate`, `anchor Junk`, `weigh Junk`, `end`. Ship ids are the type name,
numbered from 2 for a second ship of one type (a prize or an upgrade: `Frigate2`).
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.errors import NotationError, RecordError
from ...core.protocol import Action
from ...core.words import counted
from .scenario import SHIP_TYPES, UPGRADE_KINDS, ship_kind

if TYPE_CHECKING:
    from .movement import BoardGeometry

SINK = "sink"
CAPTURE = "capture"


# Actions are plain tuples; each kind has a different length, so no two kinds ever compare equal.
class Place(NamedTuple):
    ship: str
    square: int
    upgrade: str = ""  # "Frigate" or "Pirate" when joining an anchored ship in the harbour


class Move(NamedTuple):
    ship: str
    origin: int
    destination: int
    attack: str = ""  # SINK or CAPTURE when the destination holds an enemy ship
    upgrade: str = ""  # "Frigate" or "Pirate" when joining an anchored ship in the harbour


class Anchor(NamedTuple):
    ship: str
    anchored: bool  # True: let go the anchor; False: weigh it


class End(NamedTuple):
    """Declines the rest of the turn (the anchor action, or a turn with no fleet action to take)."""


END = End()
# Generation builds the many moves and placements straight from field tuples, skipping the
# keyword-handling __new__ of NamedTuple (a tenth of the time of a random playout).
new_move = partial(tuple.__new__, Move)
new_place = partial(tuple.__new__, Place)

_SHIP_ID = re.compile(r"^([A-Za-z]+)([1-9][0-9]*)?$")
_SAIL = re.compile(r"^([a-z][0-9]+)([-x])([a-z][0-9]+)$")
_UPGRADE_NAMES = {kind.lower(): kind for kind in UPGRADE_KINDS}
_KIND_NAMES = {kind.lower(): kind for kind in SHIP_TYPES}


def action_text(action: Action, names: tuple[str, ...]) -> str:
    """The notation of `action`; `names` are the board's square names by index."""
    if isinstance(action, Place):
        upgrade = f" upgrade {action.upgrade}" if action.upgrade else ""
        return f"place {action.ship} {names[action.square]}{upgrade}"
    if isinstance(action, Move):
        course = f"{names[action.origin]}{'x' if action.attack else '-'}{names[action.destination]}"
        attack = f" {action.attack}" if action.attack else ""
        upgrade = f" upgrade {action.upgrade}" if action.upgrade else ""
        return f"move {action.ship} {course}{attack}{upgrade}"
    if isinstance(action, Anchor):
        return f"{'anchor' if action.anchored else 'weigh'} {action.ship}"
    if isinstance(action, End):
        return "end"
    raise NotationError("action", f"{action!r} is not a Pirate Chess action")


def parse_action(text: str, geometry: BoardGeometry) -> Action:
    """The action `text` writes on a board of `geometry`; NotationError names the part at fault."""
    words = text.split()
    if not words:
        raise NotationError("verb", "an action starts with place, move, anchor, weigh or end", text)
    verb, arguments = words[0].lower(), words[1:]
    if verb == "end":
        _expect_words(arguments, 0, text)
        return END
    if verb in ("anchor", "weigh"):
        _expect_words(arguments, 1, text)
        return Anchor(_parse_ship(arguments[0], text), verb == "anchor")
    if verb == "place":
        upgrade = _parse_upgrade(arguments[2:], text)
        _expect_words(arguments, 4 if upgrade else 2, text)
        return Place(_parse_ship(arguments[0], text), _parse_square(geometry, arguments[1], "square", text), upgrade)
    if verb == "move":
        if len(arguments) < 2:
            raise NotationError("arguments", "a move reads like 'move Barque c3-d4'", text)
        ship = _parse_ship(arguments[0], text)
        course = _SAIL.match(arguments[1].lower())
        if not course:
            raise NotationError("course", "a course reads like c3-d4, or c3xe4 for an attack", text)
        origin = _parse_square(geometry, course.group(1), "origin", text)
        destination = _parse_square(geometry, course.group(3), "destination", text)
        rest = arguments[2:]
        attack = ""
        if course.group(2) == "x":
            if not rest or rest[0].lower() not in (SINK, CAPTURE):
                raise NotationError("attack", "an attack ends with 'sink' or 'capture'", text)
            attack, rest = rest[0].lower(), rest[1:]
        upgrade = _parse_upgrade(rest, text)
        if len(rest) != (2 if upgrade else 0):
            raise NotationError("arguments", f"unexpected {' '.join(rest)!r}", text)
        return Move(ship, origin, destination, attack, upgrade)
    raise NotationError("verb", "an action starts with place, move, anchor, weigh or end", text)


def checked_ship_id(value: Any) -> str:
    """A ship id read from saved data; RecordError when it names no ship of the tables."""
    if not isinstance(value, str) or not _SHIP_ID.match(value) or ship_kind(value) not in SHIP_TYPES:
        raise RecordError(f"not a ship id: {value!r}")
    return value


def _parse_square(geometry: BoardGeometry, word: str, field: str, text: str) -> int:
    square = geometry.index.get(word.lower())
    if square is None:
        size = geometry.size
        raise NotationError(field, f"not a square of the {size}x{size} board: {word!r}", text)
    return square


def _parse_ship(word: str, text: str) -> str:
    match = _SHIP_ID.match(word)
    kind = _KIND_NAMES.get(match.group(1).lower()) if match else None
    if kind is None:
        raise NotationError("ship", f"a ship is a type name with an optional number 2 or more: {word!r}", text)
    number = match.group(2)
    if number == "1":
        raise NotationError("ship", f"the first {kind} is written without a number", text)
    return kind + (number or "")


def _parse_upgrade(words: list[str], text: str) -> str:
    """'upgrade Frigate' / 'upgrade Pirate' at the end of a place or move, else ''."""
    if not words or words[0].lower() != "upgrade":
        return ""
    if len(words) < 2 or words[1].lower() not in _UPGRADE_NAMES:
        raise NotationError("upgrade", f"an upgrade makes a {' or a '.join(UPGRADE_KINDS)}", text)
    return _UPGRADE_NAMES[words[1].lower()]


def _expect_words(arguments: list[str], count: int, text: str) -> None:
    if len(arguments) != count:
        wanted = counted(count, "word")
        raise NotationError("arguments", f"expected {wanted} after the verb, got {len(arguments)}", text)
