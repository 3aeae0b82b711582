"""The small decisions a game-turn is made of, and their notation (both ways).

    roll 4 / roll 3 5          a chance outcome: one die, or two (blue's die first for initiative)
    sail Constitution fighting before play: fighting sail or full sail (seed, Movement 5)
    declare Constitution 6     Movement Declaration: this turn's Movement Allowance
    declare Guerriere 0 port   dead to windward with no allowance: the one free hexside away
    cut Guerriere 2            afoul: try to cut loose, and if freed sail at MA 2
    strike Guerriere           strike her colours (the enemy takes her as a prize)
    destroy Mary_Ann           announce the destruction of a prize one's ship is afoul of
    form van line-abreast      announce a change of formation
    end-declare                the side's declarations are complete
    order blue red red blue    the initiative winner: who moves first in segments 1-4
    move Constitution          one hex ahead (one Movement Point)
    turn Constitution port     one hexside (its turning cost, +1 into the wind)
    stand Constitution         spend a point standing (only when nothing else is legal)
    plot Constitution ahead    SiMove: the next point of the ship's secret plot (ahead/port/starboard/stand)
    fire Constitution starboard Guerriere hull    a broadside, aimed at the hull or the rigging
    fire Constitution bow Guerriere               the bow (or stern) chasers
    fire Constitution at Guerriere hull           the one battery that may fire at her (the aim where it
                                                  matters; `at` may be left out)
    hold Constitution          hold fire: close this fire window
    pass Constitution          pass to the segment's end: no more windows this segment
    melee Constitution         at the segment's end: melee with the ship she is afoul of
"""

from __future__ import annotations

from dataclasses import dataclass

from quarterdeck.core.errors import NotationError
from quarterdeck.core.words import counted

PORT, STARBOARD, BOW, STERN = "port", "starboard", "bow", "stern"
BATTERIES = (PORT, STARBOARD, BOW, STERN)
AIMS = ("hull", "rigging")
STEPS = ("ahead", "port", "starboard", "stand")
FORMATION_WORDS = ("line-ahead", "line-abreast")
SIDE_WORDS = ("blue", "red")


@dataclass(frozen=True, slots=True)
class Roll:
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Sail:
    ship: str
    fighting: bool


@dataclass(frozen=True, slots=True)
class Declare:
    ship: str
    ma: int
    turn: str = ""  # dead to windward: "port" or "starboard", the free hexside


@dataclass(frozen=True, slots=True)
class Cut:
    ship: str
    ma: int


@dataclass(frozen=True, slots=True)
class OneShip:
    """An action that names only its ship; each kind is its own class (so `move X` != `hold X`)."""

    ship: str


class Strike(OneShip):
    __slots__ = ()


class Destroy(OneShip):
    __slots__ = ()


class Move(OneShip):
    __slots__ = ()


class Stand(OneShip):
    __slots__ = ()


class Hold(OneShip):
    __slots__ = ()


class Pass(OneShip):
    __slots__ = ()


class Melee(OneShip):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Form:
    squadron: str
    formation: str


@dataclass(frozen=True, slots=True)
class EndDeclare:
    pass


@dataclass(frozen=True, slots=True)
class Order:
    first: tuple[int, int, int, int]  # the side moving first in segments 1-4


@dataclass(frozen=True, slots=True)
class Turn:
    ship: str
    way: str  # port (anticlockwise) or starboard (clockwise)


@dataclass(frozen=True, slots=True)
class Plot:
    ship: str
    step: str


@dataclass(frozen=True, slots=True)
class Fire:
    ship: str
    battery: str
    target: str
    aim: str = ""  # broadsides: hull or rigging; chasers: none


FrigateAction = (
    Roll | Sail | Declare | Cut | Strike | Destroy | Form | EndDeclare | Order | Move | Turn | Stand | Plot | Fire
    | Hold | Pass | Melee
)
SHIP_ACTIONS = (Sail, Declare, Cut, Strike, Destroy, Move, Turn, Stand, Plot, Fire, Hold, Pass, Melee)
_ONE_SHIP = {Strike: "strike", Destroy: "destroy", Move: "move", Stand: "stand", Hold: "hold", Pass: "pass",
             Melee: "melee"}
_ONE_SHIP_BY_VERB = {verb: cls for cls, verb in _ONE_SHIP.items()}


def action_text(action: FrigateAction) -> str:
    if isinstance(action, Roll):
        return "roll " + " ".join(str(v) for v in action.values)
    if isinstance(action, Sail):
        return f"sail {action.ship} {'fighting' if action.fighting else 'full'}"
    if isinstance(action, Declare):
        return f"declare {action.ship} {action.ma}" + (f" {action.turn}" if action.turn else "")
    if isinstance(action, Cut):
        return f"cut {action.ship} {action.ma}"
    if isinstance(action, Form):
        return f"form {action.squadron} {action.formation}"
    if isinstance(action, EndDeclare):
        return "end-declare"
    if isinstance(action, Order):
        return "order " + " ".join(SIDE_WORDS[s] for s in action.first)
    if isinstance(action, Turn):
        return f"turn {action.ship} {action.way}"
    if isinstance(action, Plot):
        return f"plot {action.ship} {action.step}"
    if isinstance(action, Fire):
        return f"fire {action.ship} {action.battery} {action.target}" + (f" {action.aim}" if action.aim else "")
    return f"{_ONE_SHIP[type(action)]} {action.ship}"  # type: ignore[union-attr]


def _names_joined(words: list[str], ships: dict[str, str]) -> list[str]:
    """The words, with each run that spells an underscored ship name word by word made that one name."""
    spaced = [(lower.split("_"), lower) for lower in ships if "_" in lower]
    joined: list[str] = []
    while words:
        lowered = [word.lower() for word in words]
        parts, name = next(((parts, name) for parts, name in spaced if lowered[: len(parts)] == parts), ([""], ""))
        joined.append(name or words[0])
        words = words[len(parts):]
    return joined


def parse_action_text(text: str, ships: dict[str, str], squadrons: tuple[str, ...] = ()) -> FrigateAction:
    """Inverse of `action_text`. `ships` maps lower-case names to the names as spelt; NotationError
    names the field at fault. A name spelt with spaces for its underscores ("Santa Ana" for Santa_Ana,
    as the map and the browser show it) reads as that name."""
    words = _names_joined(text.split(), ships)
    if not words:
        raise NotationError("verb", "empty action", text)
    verb, args = words[0].lower(), words[1:]

    def ship(index: int = 0) -> str:  # asked only after `count` has checked the words are there
        name = ships.get(args[index].lower())
        if name is None:
            raise NotationError("ship", f"no ship called {args[index]!r}", text)
        return name

    def count(n: int, m: int | None = None) -> None:
        if not n <= len(args) <= (m if m is not None else n):
            wanted = counted(n, "word") if m in (None, n) else f"{n} to {m} words"
            raise NotationError("arguments", f"{verb} takes {wanted} after it ({len(args)} given)", text)

    def number(word: str, field: str) -> int:
        if not (word.isascii() and word.isdigit()):
            raise NotationError(field, f"{word!r} is not a whole number", text)
        return int(word)

    def word_in(word: str, field: str, choices: tuple[str, ...]) -> str:
        if word.lower() not in choices:
            raise NotationError(field, f"one of {', '.join(choices)}", text)
        return word.lower()

    if verb == "roll":
        count(1, 2)
        return Roll(tuple(number(w, "die") for w in args))
    if verb == "end-declare":
        count(0)
        return EndDeclare()
    if verb == "order":
        count(4)
        return Order(tuple(SIDE_WORDS.index(word_in(w, "side", SIDE_WORDS)) for w in args))  # type: ignore[arg-type]
    if verb == "form":
        count(2)
        if args[0] not in squadrons:
            raise NotationError("squadron", f"squadrons: {', '.join(squadrons) or 'none'}", text)
        return Form(args[0], word_in(args[1], "formation", FORMATION_WORDS))
    if verb == "sail":
        count(2)
        return Sail(ship(), word_in(args[1], "sail", ("full", "fighting")) == "fighting")
    if verb == "declare":
        count(2, 3)
        return Declare(ship(), number(args[1], "ma"), word_in(args[2], "way", (PORT, STARBOARD)) if len(args) > 2
                       else "")
    if verb == "cut":
        count(2)
        return Cut(ship(), number(args[1], "ma"))
    if verb == "turn":
        count(2)
        return Turn(ship(), word_in(args[1], "way", (PORT, STARBOARD)))
    if verb == "plot":
        count(2)
        return Plot(ship(), word_in(args[1], "step", STEPS))
    if verb == "fire":
        if len(args) > 1 and (args[1].lower() == "at" or args[1].lower() in ships):  # no battery: the state finds it
            target = 2 if args[1].lower() == "at" else 1
            if not target < len(args) <= target + 2:
                raise NotationError("arguments", "fire <ship> [at] <target> [hull|rigging], or with its battery: "
                                    "fire <ship> port|starboard|bow|stern <target> [hull|rigging]", text)
            aim = word_in(args[target + 1], "aim", AIMS) if len(args) > target + 1 else ""
            return Fire(ship(), "", ship(target), aim)
        count(3, 4)
        battery = word_in(args[1], "battery", BATTERIES)
        aim = word_in(args[3], "aim", AIMS) if len(args) > 3 else ""
        return Fire(ship(), battery, ship(2), aim)
    if verb in _ONE_SHIP_BY_VERB:
        count(1)
        return _ONE_SHIP_BY_VERB[verb](ship())
    raise NotationError("verb", "actions: roll, sail, declare, cut, strike, destroy, form, end-declare, order, move, "
                        "turn, stand, plot, fire, hold, pass, melee", text)
