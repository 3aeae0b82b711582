"""Typed events: every applied action reports what happened as a list of these.

Interfaces animate and log from events; records may store them. Events are plain frozen dataclasses
with JSON round trips. A game defines further kinds by subclassing `Event` with a unique `kind`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from .words import hits_phrase, verdict

EVENT_KINDS: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__:
            EVENT_KINDS[cls.kind] = cls

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Event:
        cls = EVENT_KINDS[data["kind"]]
        names = {f.name for f in fields(cls)}
        values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in names}
        return cls(**values)

    def describe(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in asdict(self).items())
        return f"{self.kind}({body})"


def at(square: str) -> str:
    """Where something happens: "on d5" for a square or a hex, "at (12.00, 8.50)" for a point of an open table."""
    return f"at {square}" if square.startswith("(") else f"on {square}"


@dataclass(frozen=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    piece: str
    origin: str
    destination: str
    heading: str = ""

    def describe(self) -> str:
        heading = f" heading {self.heading}" if self.heading else ""
        return f"{self.piece} moves {self.origin} -> {self.destination}{heading}"


@dataclass(frozen=True)
class Turned(Event):
    kind: ClassVar[str] = "turned"
    piece: str
    square: str
    heading: str

    def describe(self) -> str:
        heading = f"heading {self.heading}" if self.heading.isdigit() else self.heading  # degrees, or a compass point
        return f"{self.piece} turns to {heading} {at(self.square)}"


@dataclass(frozen=True)
class Placed(Event):
    kind: ClassVar[str] = "placed"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} placed {at(self.square)}"


@dataclass(frozen=True)
class Fired(Event):
    """A ship's fire: its strength (`amount`) and what it did (`effect`), in the game's own units; a
    game that counts them in words says so in `tally` ("2 batteries, 1 hit"), which is then told."""

    kind: ClassVar[str] = "fired"
    piece: str
    bearing: str
    amount: int
    target: str
    effect: int
    tally: str = ""

    def describe(self) -> str:
        where = bearing_words(self.bearing)
        if self.tally:
            return f"{self.piece} fires {where} at {self.target}: {self.tally}"
        amount = f" {self.amount}" if self.amount else ""
        return f"{self.piece} fires{amount} {where} at {self.target} (effect {self.effect})"


def bearing_words(bearing: str) -> str:
    """A bearing in words: a quarter or compass point ("off the stbd-bow"), a broadside ("off the port
    side"), guns that point the ship's own way ("ahead", "astern"), or a game's own phrase, used as it
    is ("from a port broadside", "to her masts")."""
    if " " in bearing or bearing in ("ahead", "astern"):
        return bearing
    return f"off the {bearing} side" if bearing in ("port", "starboard") else f"off the {bearing}"


@dataclass(frozen=True)
class Defended(Event):
    kind: ClassVar[str] = "defended"
    piece: str
    bearing: str
    amount: int

    def describe(self) -> str:
        return f"{self.piece} defends {self.amount} {bearing_words(self.bearing)}"


@dataclass(frozen=True)
class Hit(Event):
    kind: ClassVar[str] = "hit"
    piece: str
    hits: int
    bearing: str = ""
    factors: str = ""

    def describe(self) -> str:
        if self.hits < 0:  # damage repaired
            return f"{self.piece}: {self.factors}"
        where = f" {bearing_words(self.bearing)}" if self.bearing else ""
        now = f", now {self.factors}" if self.factors else ""
        return f"{self.piece} takes {hits_phrase(self.hits)}{where}{now}"


@dataclass(frozen=True)
class Struck(Event):
    kind: ClassVar[str] = "struck"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} strikes her colours {at(self.square)}"


@dataclass(frozen=True)
class Silenced(Event):
    kind: ClassVar[str] = "silenced"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} is silenced {at(self.square)}"


@dataclass(frozen=True)
class Escaped(Event):
    kind: ClassVar[str] = "escaped"
    piece: str
    square: str
    edge: str

    def describe(self) -> str:
        return f"{self.piece} escapes off the {self.edge} edge from {self.square}"


@dataclass(frozen=True)
class Anchored(Event):
    kind: ClassVar[str] = "anchored"
    piece: str
    square: str
    anchored: bool

    def describe(self) -> str:
        return f"{self.piece} {'anchors' if self.anchored else 'weighs anchor'} {at(self.square)}"


# A ship lost where no ship sank her (Naval Warfare): how, said in place of "sunk ... by".
LOST_WITHOUT_A_FOE = {
    "abandoned": "is abandoned {at}: not a man left aboard",
    "blown-up": "is lost {at}, blown up",
    "foundered": "founders {at}",
}


@dataclass(frozen=True)
class Sunk(Event):
    kind: ClassVar[str] = "sunk"
    piece: str
    square: str
    by: str  # the ship that sank her, or how she was lost (LOST_WITHOUT_A_FOE)

    def describe(self) -> str:
        how = LOST_WITHOUT_A_FOE.get(self.by)
        if how:
            return f"{self.piece} {how.format(at=at(self.square))}"
        return f"{self.piece} sunk {at(self.square)} by {self.by}"


@dataclass(frozen=True)
class Captured(Event):
    kind: ClassVar[str] = "captured"
    piece: str
    square: str
    by: str

    def describe(self) -> str:
        return f"{self.piece} captured {at(self.square)} by {self.by}"


@dataclass(frozen=True)
class Upgraded(Event):
    kind: ClassVar[str] = "upgraded"
    pieces: tuple[str, ...]
    square: str
    into: str

    def describe(self) -> str:
        return f"{' and '.join(self.pieces)} join {at(self.square)} to become {self.into}"


@dataclass(frozen=True)
class Attacked(Event):
    kind: ClassVar[str] = "attacked"
    piece: str
    target: str
    value: int

    def describe(self) -> str:
        return f"{self.piece} attacks {self.target} with {self.value}"


@dataclass(frozen=True)
class Supported(Event):
    kind: ClassVar[str] = "supported"
    piece: str
    target: str
    value: int

    def describe(self) -> str:
        return f"{self.piece} supports {self.target} with {self.value}"


@dataclass(frozen=True)
class Eliminated(Event):
    kind: ClassVar[str] = "eliminated"
    piece: str
    square: str
    attack: int = 0
    defence: int = 0

    def describe(self) -> str:
        odds = f" ({self.attack} against {self.defence})" if self.attack or self.defence else ""
        return f"{self.piece} eliminated {at(self.square)}{odds}"


@dataclass(frozen=True)
class Survived(Event):
    kind: ClassVar[str] = "survived"
    piece: str
    square: str
    attack: int
    defence: int

    def describe(self) -> str:
        return f"{self.piece} holds {at(self.square)} ({self.attack} against {self.defence})"


@dataclass(frozen=True)
class DieRolled(Event):
    kind: ClassVar[str] = "die-rolled"
    purpose: str
    value: int
    dice: tuple[int, ...] = ()  # each die when a game shows them apart (value is their sum)
    decided: str = ""  # what the roll decided, in words

    def describe(self) -> str:
        faces = " and ".join(map(str, self.dice)) if len(self.dice) > 1 else str(self.value)
        return f"rolled {faces} for {self.purpose}" + (f": {self.decided}" if self.decided else "")


@dataclass(frozen=True)
class WindChanged(Event):
    kind: ClassVar[str] = "wind-changed"
    direction: str
    strength: str

    def describe(self) -> str:
        return f"the wind is now {self.strength} from the {self.direction}"


@dataclass(frozen=True)
class Submitted(Event):
    """A hidden decision was handed in; what it was stays secret until the reveal."""

    kind: ClassVar[str] = "submitted"
    player: str

    def describe(self) -> str:
        return f"{self.player} has submitted a secret decision"


@dataclass(frozen=True)
class Revealed(Event):
    kind: ClassVar[str] = "revealed"
    players: tuple[str, ...]

    def describe(self) -> str:
        return f"secret decisions of {', '.join(self.players)} revealed"


@dataclass(frozen=True)
class PhaseChanged(Event):
    kind: ClassVar[str] = "phase-changed"
    player: str
    phase: str
    turn: int

    def describe(self) -> str:
        return f"turn {self.turn}: {self.player} to {self.phase}"


@dataclass(frozen=True)
class Passed(Event):
    """A player's step passed over because nothing in it is legal, told so that nobody wonders why."""

    kind: ClassVar[str] = "passed"
    player: str
    reason: str
    rule: str

    def describe(self) -> str:
        return f"{self.player} {self.reason} ({self.rule})"


@dataclass(frozen=True)
class Resigned(Event):
    kind: ClassVar[str] = "resigned"
    player: str

    def describe(self) -> str:
        return f"{self.player} resigns"


@dataclass(frozen=True)
class GameOver(Event):
    kind: ClassVar[str] = "game-over"
    result: str
    reason: str

    def describe(self) -> str:
        return f"game over: {verdict(self.result)} ({self.reason})"


# --- measured-table naval games (Naval Warfare 1500-1850) -------------------------------------------
@dataclass(frozen=True)
class Drifted(Event):
    """A ship carried by the wind, not sailed; `why`, where given, is the reason in the rules' words
    ("is in irons and drifts (rule 7)")."""

    kind: ClassVar[str] = "drifted"
    piece: str
    origin: str
    destination: str
    why: str = ""

    def describe(self) -> str:
        if self.why:
            return f"{self.piece} {self.why}: {self.origin} -> {self.destination}"
        return f"{self.piece} drifts {self.origin} -> {self.destination}"


@dataclass(frozen=True)
class Marked(Event):
    """A ship gains or loses a state the rules track (in irons, on fire, adrift, grappled ...)."""

    kind: ClassVar[str] = "marked"
    piece: str
    marker: str
    rule: str = ""

    def describe(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.piece} {self.marker}{rule}"


@dataclass(frozen=True)
class Wrecked(Event):
    kind: ClassVar[str] = "wrecked"
    piece: str
    shore: str

    def describe(self) -> str:
        return f"{self.piece} is wrecked on {self.shore}"


@dataclass(frozen=True)
class BatteryLost(Event):
    kind: ClassVar[str] = "battery-lost"
    piece: str
    battery: str  # in words, e.g. "half long battery ahead", "short battery to port"
    reason: str = ""

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.piece} loses a {self.battery}{why}"


@dataclass(frozen=True)
class MastLost(Event):
    kind: ClassVar[str] = "mast-lost"
    piece: str
    masts_lost: int

    def describe(self) -> str:
        return f"{self.piece} loses a mast ({self.masts_lost} gone)"


@dataclass(frozen=True)
class BoardingRound(Event):
    kind: ClassVar[str] = "boarding-round"
    attacker: str
    defender: str
    round: int
    defenders_killed: int
    attackers_killed: int

    def describe(self) -> str:
        return (f"boarding round {self.round}: {self.attacker} kills {self.defenders_killed} of {self.defender}'s "
                f"crew, loses {self.attackers_killed}")


@dataclass(frozen=True)
class Exploded(Event):
    kind: ClassVar[str] = "exploded"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} blows up at {self.square}"


@dataclass(frozen=True)
class RanAfoul(Event):
    kind: ClassVar[str] = "ran-afoul"
    piece: str
    other: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} runs afoul of {self.other} {at(self.square)}"


@dataclass(frozen=True)
class CutLoose(Event):
    kind: ClassVar[str] = "cut-loose"
    piece: str
    other: str
    freed: bool

    def describe(self) -> str:
        return f"{self.piece} {'cuts loose from' if self.freed else 'fails to cut loose from'} {self.other}"


@dataclass(frozen=True)
class Dismasted(Event):
    kind: ClassVar[str] = "dismasted"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece} is dismasted {at(self.square)}"


@dataclass(frozen=True)
class Crippled(Event):
    kind: ClassVar[str] = "crippled"
    piece: str
    square: str

    def describe(self) -> str:
        return f"{self.piece}'s crew is crippled {at(self.square)}"


@dataclass(frozen=True)
class CourseOrdered(Event):
    """Command Control failed: the ship must sail one direction all turn."""

    kind: ClassVar[str] = "course-ordered"
    piece: str
    heading: str

    def describe(self) -> str:
        return f"{self.piece} fails Command Control and must sail {self.heading}"


@dataclass(frozen=True)
class Meleed(Event):
    kind: ClassVar[str] = "meleed"
    piece: str
    target: str
    total: int
    against: int

    def describe(self) -> str:
        return f"{self.piece} boards {self.target}: {self.total} against {self.against}"


@dataclass(frozen=True)
class ForceChanged(Event):
    """A force's standing changed (efficiency, combat results table, withdrawal)."""

    kind: ClassVar[str] = "force-changed"
    player: str
    change: str

    def describe(self) -> str:
        return f"{self.player}: {self.change}"
