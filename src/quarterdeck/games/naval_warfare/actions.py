"""The actions of Naval Warfare (seed 003) and their notation, both ways.

A move is written in the book's own terms: a turn at the start, a run, a turn at the end
(rule 4), with what the ship does at the end of it::

    roll 4                                   a die (chance); two dice: roll 3 5
    move Revenge turn +30 run 5.00 turn -15  turns in degrees (+ starboard, - port), run in inches
    move Revenge turn +30 run 5.00 turn 0 board San Martin   (also: tow, secure)
    move Revenge turn 0 run 1.00 turn 0 heave-to             (also: oars, sail, boats)
    move Revenge run 3   /   move Revenge turn -45   a part left out is none (turn 0, run 0)
    move Revenge hold                        no turn and no run, where that is allowed
    move San Martin cut                      try to cut grapples; also: board Revenge, dishonour
    move Revenge to 23.50 14.20 heading 95   an end point and heading (read into the three numbers)
    fire Revenge port at San Martin          a whole broadside (port, starboard, ahead, astern)
    fire Revenge at San Martin               the one battery of hers that bears on San Martin
    end-fire
    remove San Martin port medium            the target's owner removes a battery for a six
    gunners Revenge 3                        men kept at the guns when a boarding fight begins (crews rule)
    withdraw Revenge / fight-on Revenge      after the second round of boarding
    cut San Martin / keep-grapples San Martin   the defender after repelling boarders
    jettison San Martin port long / founder San Martin   (optional rule 7)
    surrender Revenge / pick-up Revenge from San Martin / end-move   (end of move)
    accept Revenge / refuse Revenge          a dishonoured ship's surrender
    escape / stay                            at night
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quarterdeck.core.errors import NotationError

from .scenario import MOUNTS

MOVE_EXTRAS = ("heave-to", "oars", "sail", "boats")  # flags after the numbers
MOVE_TARGETS = ("board", "tow", "secure")  # followed by a ship's name
STANDING = ("hold", "cut", "dishonour", "cast-off")  # no numbers


@dataclass(frozen=True, slots=True)
class Roll:
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    ship: str
    turn1: int = 0
    run: int = 0  # hundredths of an inch
    turn2: int = 0
    extra: str = ""  # one of MOVE_EXTRAS, MOVE_TARGETS or STANDING
    target: str = ""


@dataclass(frozen=True, slots=True)
class Fire:
    ship: str
    mount: str
    target: str


@dataclass(frozen=True, slots=True)
class EndFire:
    pass


@dataclass(frozen=True, slots=True)
class Remove:
    """Remove a battery (the target's owner, for a six; or jettison it against foundering)."""

    ship: str
    mount: str
    kind: str
    half: bool = False
    jettison: bool = False


@dataclass(frozen=True, slots=True)
class Choose:
    """A yes/no decision about one ship: withdraw / fight-on, cut / keep-grapples, founder,
    surrender, accept / refuse; and the night escape (ship empty)."""

    verb: str
    ship: str = ""
    other: str = ""


@dataclass(frozen=True, slots=True)
class EndMove:
    pass


@dataclass(frozen=True, slots=True)
class Gunners:
    """Men a ship keeps at her guns while boarding or boarded; they do not fight (optional rule 5)."""

    ship: str
    men: int


END_FIRE = EndFire()
END_MOVE = EndMove()
CHOICES = ("withdraw", "fight-on", "cut", "keep-grapples", "founder", "surrender", "accept", "refuse", "escape",
           "stay", "pick-up")


def inches_text(hundredths: int) -> str:
    return f"{hundredths / 100:.2f}"


def move_text(action: Move) -> str:
    head = f"move {action.ship}"
    if action.extra in STANDING:
        return f"{head} {action.extra}"
    body = f"{head} turn {action.turn1:+d} run {inches_text(action.run)} turn {action.turn2:+d}"
    if action.extra in MOVE_TARGETS:
        return f"{body} {action.extra} {action.target}"
    if action.extra:
        return f"{body} {action.extra}"
    return body


def action_text(action: object) -> str:
    if isinstance(action, Roll):
        return "roll " + " ".join(str(v) for v in action.values)
    if isinstance(action, Move):
        return move_text(action)
    if isinstance(action, Fire):
        return f"fire {action.ship} {action.mount} at {action.target}"
    if isinstance(action, EndFire):
        return "end-fire"
    if isinstance(action, EndMove):
        return "end-move"
    if isinstance(action, Remove):
        verb = "jettison" if action.jettison else "remove"
        return f"{verb} {action.ship} {action.mount} {'half ' if action.half else ''}{action.kind}"
    if isinstance(action, Gunners):
        return f"gunners {action.ship} {action.men}"
    if isinstance(action, Choose):
        if action.verb == "pick-up":
            return f"pick-up {action.ship} from {action.other}"
        return f"{action.verb} {action.ship}".strip()
    raise NotationError("action", f"{action!r} is not a Naval Warfare action")


# Numbers as the notation writes them: plain digits, a sign, hundredths (not Python's 1_0, 1e3, nan
# or other scripts' digits, which float() would read).
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def _number(word: str, field: str, text: str, *, decimal: bool = False) -> float:
    if not (_DECIMAL if decimal else _WHOLE).fullmatch(word):
        wanted = "a number of inches, such as 3.50" if decimal else "a whole number"
        raise NotationError(field, f"expected {wanted}, not {word!r}", text)
    value = float(word) if decimal else int(word)
    if decimal and abs(value) >= 1e6:
        raise NotationError(field, f"not a distance: {word!r}", text)
    return value


def _split_name(words: list[str], stops: tuple[str, ...], text: str) -> tuple[str, list[str]]:
    """A ship's name is the words up to the first keyword of `stops`."""
    for i, word in enumerate(words):
        if word in stops:
            if i == 0:
                raise NotationError("ship", "a ship's name comes first", text)
            return " ".join(words[:i]), words[i:]
    if not words:
        raise NotationError("ship", "a ship's name is missing", text)
    return " ".join(words), []


def parse(text: str) -> object:
    """Text to an action; the end-point form of a move is returned as ("to", ship, x, y, heading)
    and a fire without its battery as ("fire", ship, target), for the state to read against the
    position."""
    words = text.split()
    if not words:
        raise NotationError("verb", "an empty action", text)
    verb, rest = words[0].lower(), words[1:]
    if verb == "roll":
        if not 1 <= len(rest) <= 2:
            raise NotationError("roll", "roll and one or two numbers", text)
        return Roll(tuple(int(_number(w, "roll", text)) for w in rest))
    if verb == "end-fire" and not rest:
        return END_FIRE
    if verb == "end-move" and not rest:
        return END_MOVE
    if verb in ("escape", "stay") and not rest:
        return Choose(verb)
    if verb == "move":
        return _parse_move(rest, text)
    if verb == "fire":
        name, tail = _split_name(rest, (*MOUNTS, "at"), text)
        if tail[:1] == ["at"] and len(tail) > 1:  # the battery left out: the one that bears, if one does
            return ("fire", name, " ".join(tail[1:]))
        if len(tail) < 3 or tail[1] != "at":
            raise NotationError("fire", "fire <ship> <port|starboard|ahead|astern> at <target>", text)
        return Fire(name, tail[0], " ".join(tail[2:]))
    if verb in ("remove", "jettison"):
        name, tail = _split_name(rest, MOUNTS, text)
        half = tail[1:2] == ["half"]
        kind = tail[2:] if half else tail[1:]
        if not tail or len(kind) != 1 or kind[0] not in ("short", "medium", "long"):
            raise NotationError("battery", f"{verb} <ship> <mount> [half] <short|medium|long>", text)
        return Remove(name, tail[0], kind[0], half, verb == "jettison")
    if verb == "gunners":
        if len(rest) < 2:
            raise NotationError("gunners", "gunners <ship> <men kept at the guns>", text)
        return Gunners(" ".join(rest[:-1]), int(_number(rest[-1], "gunners", text)))
    if verb == "pick-up":
        name, tail = _split_name(rest, ("from",), text)
        if len(tail) < 2:
            raise NotationError("pick-up", "pick-up <ship> from <sunk ship>", text)
        return Choose("pick-up", name, " ".join(tail[1:]))
    if verb in CHOICES and rest:
        return Choose(verb, " ".join(rest))
    raise NotationError("verb", f"unknown action {verb!r}", text)


def _parse_move(rest: list[str], text: str) -> object:
    name, tail = _split_name(rest, ("turn", "run", "to", *STANDING, *MOVE_TARGETS, *MOVE_EXTRAS), text)
    if not tail:
        raise NotationError("move", "a move needs its numbers: turn <deg> run <inches> turn <deg>", text)
    if tail[0] in STANDING:
        if len(tail) != 1:
            raise NotationError("move", f"nothing follows {tail[0]!r}", text)
        return Move(name, extra=tail[0])
    if tail[0] in MOVE_TARGETS:  # board a grappled ship without moving
        return Move(name, extra=tail[0], target=" ".join(tail[1:])) if len(tail) > 1 else _missing(tail[0], text)
    if tail[0] == "to":
        if len(tail) != 5 or tail[3] != "heading":
            raise NotationError("move", "move <ship> to <x> <y> heading <degrees>", text)
        x = round(_number(tail[1], "x", text, decimal=True) * 100)
        y = round(_number(tail[2], "y", text, decimal=True) * 100)
        return ("to", name, x, y, int(_number(tail[4], "heading", text)))
    turn1, run, turn2, tail = _move_numbers(tail, text)
    extra, target = "", ""
    if tail:
        extra = tail[0]
        if extra in MOVE_TARGETS:
            target = " ".join(tail[1:])
            if not target:
                _missing(extra, text)
        elif extra == "turn":
            raise NotationError("move", "a turn at the end comes after the run: turn <deg> run <inches> turn <deg>",
                                text)
        elif extra not in MOVE_EXTRAS or len(tail) > 1:
            raise NotationError("move", f"unexpected {' '.join(tail)!r} after the move", text)
    return Move(name, turn1, run, turn2, extra, target)


def _move_numbers(tail: list[str], text: str) -> tuple[int, int, int, list[str]]:
    """`turn <deg> run <inches> turn <deg>` with any part left out, as a player says it: `run 3` sails
    3 inches on her heading, `turn 45` turns her where she lies, `heave-to` alone stays put.
    Returns the first turn, the run in hundredths, the last turn and the words after them."""
    def number_after(i: int, field: str, decimal: bool = False) -> float:
        if i + 1 >= len(tail):
            raise NotationError(field, f"{field} needs a number", text)
        return _number(tail[i + 1], field, text, decimal=decimal)

    i, turn1, run, turn2 = 0, 0, 0, 0
    if tail[i:i + 1] == ["turn"]:
        turn1, i = int(number_after(i, "turn")), i + 2
    if tail[i:i + 1] == ["run"]:
        run, i = round(number_after(i, "run", decimal=True) * 100), i + 2
        if tail[i:i + 1] == ["turn"]:
            turn2, i = int(number_after(i, "turn")), i + 2
    return turn1, run, turn2, tail[i:]


def _missing(word: str, text: str) -> object:
    raise NotationError("target", f"{word} needs a ship's name", text)
