"""Square Rigger Chess actions and their notation (seed 000, "Speed and Turn", "Firepower"; the
turn as small decisions: rules-decisions.md, "Turn sequence").

A side's turn is a sequence of small decisions (see docs/rules/square-rigger.md):

1. movement, squadron by squadron: ``move <ship> <square> <heading>`` or ``escape <ship> <edge>``
   for any ships, then ``end-move`` (checked against the non-adjacency rule);
2. fire, squadron by squadron: ``fire <piece> <bearing> <amount>`` assignments, then ``end-fire``;
3. defence by the other side, squadron by squadron, for every piece fired on:
   ``defend <piece> <bearing> <amount>``, then ``end-defence``;
4. resolution, all at once, then the next side's turn.

Bearings of a ship are named relative to her heading (the seed's fore, bows, beams, quarters and
aft); a shore battery's bearings are compass points, as its field of fire is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.errors import NotationError
from ...core.geometry import Compass, Square
from ...core.protocol import Action

if TYPE_CHECKING:
    from .state import SquareRiggerState

BEARINGS = ("fore", "stbd-bow", "stbd-beam", "stbd-quarter", "aft", "port-quarter", "port-beam", "port-bow")
EDGES = ("N", "E", "S", "W")  # the board edges a scenario may open for escape


@dataclass(frozen=True, slots=True)
class MoveShip:
    ship: str
    square: Square
    heading: Compass


@dataclass(frozen=True, slots=True)
class EscapeShip:
    ship: str
    edge: str


@dataclass(frozen=True, slots=True)
class EndMove:
    pass


@dataclass(frozen=True, slots=True)
class Assignment:
    """Firepower given to one bearing ("Firepower": the attacker assigns first, the defender after)."""

    piece: str
    bearing: int  # ships: relative to the heading (0 fore ... 7 port bow); batteries: a compass point
    amount: int


@dataclass(frozen=True, slots=True)
class AssignFire(Assignment):
    pass


@dataclass(frozen=True, slots=True)
class EndFire:
    pass


@dataclass(frozen=True, slots=True)
class AssignDefence(Assignment):
    pass


@dataclass(frozen=True, slots=True)
class EndDefence:
    pass


SIMPLE = {"end-move": EndMove(), "end-fire": EndFire(), "end-defence": EndDefence()}


def bearing_label(state: SquareRiggerState, name: str, bearing: int) -> str:
    return Compass(bearing).name if state.is_battery(name) else BEARINGS[bearing]


def action_piece(action: Action) -> str | None:
    for attribute in ("ship", "piece"):
        if hasattr(action, attribute):
            return getattr(action, attribute)
    return None


def to_text(state: SquareRiggerState, action: Action) -> str:
    grid = state.setup.grid
    if isinstance(action, MoveShip):
        return f"move {action.ship} {grid.name(action.square)} {action.heading.name}"
    if isinstance(action, EscapeShip):
        return f"escape {action.ship} {action.edge}"
    if isinstance(action, AssignFire):
        text = f"fire {action.piece} {bearing_label(state, action.piece, action.bearing)} {action.amount}"
        target = state.fire_target(action.piece, action.bearing)[0] if action.piece in state.hits else None
        return f"{text} at {target}" if target else text
    if isinstance(action, AssignDefence):
        return f"defend {action.piece} {bearing_label(state, action.piece, action.bearing)} {action.amount}"
    for word, simple in SIMPLE.items():
        if isinstance(action, type(simple)):
            return word
    raise NotationError("action", f"not a Square Rigger Chess action: {action!r}")


def parse(state: SquareRiggerState, text: str, player: int | None = None) -> Action:
    words = text.split()
    if not words:
        raise NotationError("action", "empty action", text)
    verb, args = words[0].lower(), words[1:]
    if verb in SIMPLE:
        if args:
            raise NotationError("action", f"{verb} takes nothing after it", text)
        return SIMPLE[verb]
    if verb == "move":
        if len(args) != 3:
            raise NotationError("action", "move <ship> <square> <heading>, e.g. 'move Victory d4 NE'", text)
        name = parse_piece(state, args[0], text)
        return MoveShip(name, state.setup.grid.parse(args[1]), Compass.parse(args[2]))
    if verb == "escape":
        if len(args) != 2 or args[1].upper() not in EDGES:
            raise NotationError("edge", "escape <ship> <N|E|S|W>", text)
        return EscapeShip(parse_piece(state, args[0], text), args[1].upper())
    if verb in ("fire", "defend"):
        if len(args) not in (3, 5) or (len(args) == 5 and args[3] != "at"):
            raise NotationError("action", f"{verb} <piece> <bearing> <amount>, e.g. '{verb} Victory stbd-beam 3'",
                                text)
        name = parse_piece(state, args[0], text)
        bearing = parse_bearing(state, name, args[1], text)
        if not (args[2].isascii() and args[2].isdigit()):
            raise NotationError("amount", "the amount is a whole number", text)
        if verb == "defend":
            if len(args) == 5:
                raise NotationError("action", "defend takes no target", text)
            return AssignDefence(name, bearing, int(args[2]))
        action = AssignFire(name, bearing, int(args[2]))
        if len(args) == 5:
            target, _ = state.fire_target(name, bearing)
            if target != args[4]:
                raise NotationError("target", f"the first target off that bearing is {target or 'nothing'}", text)
        return action
    raise NotationError("verb", "actions: move, escape, end-move, fire, end-fire, defend, end-defence", text)


def parse_piece(state: SquareRiggerState, word: str, text: str) -> str:
    if word not in state.hits:
        raise NotationError("piece", f"no ship or battery called {word!r}", text)
    return word


def parse_bearing(state: SquareRiggerState, name: str, word: str, text: str) -> int:
    if state.is_battery(name):
        return int(Compass.parse(word))
    if word.lower() not in BEARINGS:
        raise NotationError("bearing", f"a ship's bearing is one of {', '.join(BEARINGS)}", text)
    return BEARINGS.index(word.lower())
