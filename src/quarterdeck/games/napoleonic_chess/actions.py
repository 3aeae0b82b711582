"""The small actions a turn is made of, and their notation.

    place infantry c3      deployment (Marching Orders, Attack at Dawn)
    move c3-c4             one unit's move
    end-move               movement is over
    attack b2xc3           the unit on b2 attacks the enemy on c3
    end-attack
    support d6>d7          the defender's unit on d6 supports the attacked unit on d7
    end-support
    advance c3>d4          the attacker on c3 advances into d4, vacated by an eliminated unit
    end-advance

Actions are frozen dataclasses rather than tuples so that a move and an advance between the same
squares are different actions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quarterdeck.core.errors import NotationError
from quarterdeck.core.geometry import Square, SquareGrid
from quarterdeck.core.words import counted

MOVE, ATTACK, SUPPORT, ADVANCE = "move", "attack", "support", "advance"
ENDABLE_PHASES = (MOVE, ATTACK, SUPPORT, ADVANCE)


@dataclass(frozen=True, slots=True)
class Place:
    kind: str
    square: Square


@dataclass(frozen=True, slots=True)
class Move:
    origin: Square
    destination: Square


@dataclass(frozen=True, slots=True)
class Attack:
    attacker: Square
    target: Square


@dataclass(frozen=True, slots=True)
class Support:
    supporter: Square
    target: Square


@dataclass(frozen=True, slots=True)
class Advance:
    origin: Square
    destination: Square


@dataclass(frozen=True, slots=True)
class EndPhase:
    phase: str


NapoleonicAction = Place | Move | Attack | Support | Advance | EndPhase

# verb -> (action class, separator between its two squares, names of the two squares)
_PAIRS: dict[str, tuple[type, str, tuple[str, str]]] = {
    MOVE: (Move, "-", ("origin", "destination")),
    ATTACK: (Attack, "x", ("attacker", "target")),
    SUPPORT: (Support, ">", ("supporter", "target")),
    ADVANCE: (Advance, ">", ("origin", "destination")),
}
_VERB_OF = {cls: verb for verb, (cls, _, _) in _PAIRS.items()}
_PAIR = re.compile(r"^([a-z]\d+)(.*)$")  # the first square; its file letter may equal the separator


def action_text(action: NapoleonicAction, grid: SquareGrid) -> str:
    if isinstance(action, EndPhase):
        return f"end-{action.phase}"
    if isinstance(action, Place):
        return f"place {action.kind} {grid.name(action.square)}"
    verb = _VERB_OF[type(action)]
    separator = _PAIRS[verb][1]
    first, second = (getattr(action, name) for name in _PAIRS[verb][2])
    return f"{verb} {grid.name(first)}{separator}{grid.name(second)}"


def parse_action_text(text: str, grid: SquareGrid, unit_types: dict[str, object]) -> NapoleonicAction:
    """Inverse of `action_text`; NotationError names the part that is wrong."""
    words = text.split()
    if not words:
        raise NotationError("verb", "empty action", text)
    verb, arguments = words[0].lower(), words[1:]
    if verb.startswith("end-"):
        if verb[4:] not in ENDABLE_PHASES:
            raise NotationError("phase", f"phases that end by command: {', '.join(ENDABLE_PHASES)}", text)
        _expect_arguments(arguments, 0, text)
        return EndPhase(verb[4:])
    if verb == "place":
        _expect_arguments(arguments, 2, text)
        if arguments[0] not in unit_types:
            raise NotationError("unit", f"unit types: {', '.join(unit_types)}", text)
        return Place(arguments[0], _square(arguments[1], "square", grid, text))
    if verb not in _PAIRS:
        raise NotationError("verb", "actions: place, move, attack, support, advance, end-<phase>", text)
    cls, separator, names = _PAIRS[verb]
    _expect_arguments(arguments, 1, text)
    pair = _PAIR.match(arguments[0].lower())
    if pair is None:
        raise NotationError(names[0], "a square is a file letter and a rank number, like e4", text)
    first, rest = pair.groups()
    if not rest.startswith(separator):
        raise NotationError(names[1], f"write it as {verb} <{names[0]}>{separator}<{names[1]}>", text)
    return cls(_square(first, names[0], grid, text), _square(rest[len(separator) :], names[1], grid, text))


def _expect_arguments(arguments: list[str], count: int, text: str) -> None:
    if len(arguments) < count:
        wanted = counted(count, "word")
        raise NotationError("arguments", f"expected {wanted} after the verb, got {len(arguments)}", text)
    if len(arguments) > count:
        raise NotationError("arguments", f"unexpected {' '.join(arguments[count:])!r}", text)


def _square(text: str, field: str, grid: SquareGrid, whole: str) -> Square:
    try:
        return grid.parse(text)
    except NotationError as exc:
        raise NotationError(field, exc.message, whole) from None
