"""The game protocol every rule book implements, and every interface and agent uses.

A `Game` describes a rule book and makes initial states. A `State` is one position in a game:
who decides next, which actions are legal, how an action changes it, whether it is over, and how it
reads and writes JSON and action notation.

A turn with many decisions (move each ship, fire, the other side defends) is a sequence of small
actions, so search and learning code walk it one decision at a time. Two kinds of decision-maker
besides the players are first-class:

* ``CHANCE``: the next action is a chance outcome (a die). `chance_outcomes()` lists them with
  probabilities; `sample_chance()` draws one from the state's own seeded `Dice` without changing
  the state. The outcome is applied (and recorded) like any action, and applying it moves the dice
  on, so a replayed record reaches the same dice and a planner never peeks at rolls.
* ``SIMULTANEOUS``: several players decide at once and in secret (a hidden deployment, plotted
  movement). `acting_players()` names those who still owe a decision; each calls `apply(action,
  player=p)`. Until everyone has decided, `observe(p)` and `to_json(viewer=p)` hide the others'
  decisions; when the last one arrives, all are revealed together. A game whose next secret phase
  follows at once marks the reveal with a `Revealed` event, so histories know where a phase ends.

`apply` validates first and only then changes anything: an illegal action raises `IllegalAction`
naming the rule and leaves the state as it was. Agents that take actions straight from
`legal_actions` may pass ``validate=False`` to skip the second check.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .dice import Dice
from .errors import IllegalAction, NotationError, unknown_scenario
from .events import Event, GameOver, Resigned
from .words import counted, verdict

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -3

Action = Hashable


@dataclass(frozen=True, slots=True)
class Resign:
    """Any player may resign at any time; it is not listed among legal actions (agents never resign)."""

    player: int


@dataclass(frozen=True)
class Outcome:
    """How a game ended: a return per player (+1 win, 0 draw, -1 loss), a result word and a reason."""

    returns: tuple[float, ...]
    result: str
    reason: str

    @property
    def verdict(self) -> str:
        """The result as a player says it: "dutch won", "a draw"."""
        return verdict(self.result)

    def to_json(self) -> dict[str, Any]:
        return {"returns": list(self.returns), "result": self.result, "reason": self.reason}

    @classmethod
    def on_points(cls, players: Sequence[str], points: Sequence[int], reason: str) -> Outcome:
        """A two-sided game decided by points: the higher wins, level is a draw, and the reason names
        the points ("nightfall ends the battle; points: british 2, french 82")."""
        said = f"{reason}; {points_phrase(players, points)}"
        if points[0] == points[1]:
            return cls((0.0, 0.0), "draw", said)
        winner = 0 if points[0] > points[1] else 1
        return cls((1.0, -1.0) if winner == 0 else (-1.0, 1.0), players[winner], said)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Outcome | None:
        if data is None:
            return None
        return cls(tuple(float(r) for r in data["returns"]), str(data["result"]), str(data["reason"]))


@dataclass(frozen=True)
class ScenarioInfo:
    """A shipped scenario: its options with their defaults, what each option does in a line (every
    option has one: a player choosing it must know what it changes), for an option that takes one
    of a few names those names, and who each seat commands where its name does not say (Frigate's
    blue is the United States Navy in one scenario and the Royal Navy in another)."""

    name: str
    title: str
    briefing: str
    options: dict[str, Any] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)


def points_phrase(players: Sequence[str], points: Sequence[int]) -> str:
    """Each side's points, named, for the reason a game ends: "points: british 2, french 82", or
    "2 points each" when they are level."""
    if len(set(points)) == 1:
        return f"{counted(points[0], 'point')} each"
    return "points: " + ", ".join(f"{player} {score}" for player, score in zip(players, points, strict=True))


def ships_phrase(names: Sequence[str], shown: int = 4) -> str:
    """A side's ships in a few words: every name of a few, else the first few and how many more."""
    if len(names) <= shown + 1:
        return ", ".join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown} more"


class Game(ABC):
    """A rule book. Subclasses set `name` (the command-line name) and `title`."""

    name: ClassVar[str]
    title: ClassVar[str]
    default_scenario: ClassVar[str] = "standard"
    # True where actions carry measurements (a point and a heading on an open table): then
    # `legal_actions` is a finite, well-spread sample of the legal moves, `apply` accepts any legal
    # one, and agents and learning code must not treat the list as complete.
    continuous_actions: ClassVar[bool] = False
    # Options whose value names a file on the machine that runs the game (a user's own tables):
    # the terminal offers them; a network caller may not, since the server would read its own disk.
    file_options: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def scenarios(self) -> list[ScenarioInfo]:
        """The scenarios shipped with the game, each with a one-paragraph briefing."""

    def listed_default_first(self, names: Iterable[str]) -> list[ScenarioInfo]:
        """The scenarios `names`, as `scenario_info` gives each: the default first, the rest by name."""
        return [self.scenario_info(name) for name in sorted(names, key=lambda n: (n != self.default_scenario, n))]

    def scenario_info(self, scenario: str) -> ScenarioInfo:
        """One scenario as `scenarios` lists it, by name; a game that plays a player's own scenario
        file gives the file's by its path too (its name is then the path)."""
        infos = self.scenarios()
        for info in infos:
            if info.name == scenario:
                return info
        raise unknown_scenario(scenario, [info.name for info in infos])

    @abstractmethod
    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        """The opening position. Raises ScenarioError for an unknown scenario or bad options."""

    def scenario_seats(self, scenario: str) -> tuple[str, ...]:
        """A shipped scenario's seats, in order (Naval Warfare's differ from scenario to scenario)."""
        return self.new_initial_state(scenario).players

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> State:
        """Inverse of State.to_json(); raises RecordError for corrupt data."""

    @abstractmethod
    def rules_summary(self) -> str:
        """A readable summary of the rules (Markdown)."""

    def hook(self, name: str) -> Any:
        """Optional per-game extensions (terminal view, evaluation, ...) looked up by name.

        A game package provides them as attributes of its Game class; `None` when absent, so
        callers fall back to generic behaviour.
        """
        return getattr(self, f"hook_{name.replace('-', '_')}", None)


class State(ABC):
    """One position. Mutable: `apply` changes it in place; `clone` gives an independent copy."""

    game: Game
    outcome: Outcome | None

    # --- who decides ------------------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """The seats, by name, in index order (e.g. ``("blue", "red")``)."""

    @abstractmethod
    def current_player(self) -> int:
        """A seat index, or CHANCE, SIMULTANEOUS or TERMINAL."""

    def acting_players(self) -> list[int]:
        """Seats that owe a decision now (several only in a simultaneous phase)."""
        player = self.current_player()
        return [player] if player >= 0 else []

    def team_of(self, player: int) -> str:
        """The side a seat plays for; seats of one side share a result. Default: its own name."""
        return self.players[player]

    # --- actions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[Action]:
        """Legal actions of `player` (default: the one to act), optionally only those of one piece."""

    def apply(self, action: Action, player: int | None = None, validate: bool = True) -> list[Event]:
        """Apply one action; returns the events it produced. Raises IllegalAction, changing nothing."""
        if self.outcome is not None:
            raise IllegalAction("game-over", f"the game is over ({self.outcome.result}: {self.outcome.reason})")
        if isinstance(action, Resign):
            return self._resign(action.player)
        player = self._resolve_player(player)
        if validate:
            self._validate(action, player)
        events = self._apply(action, player)
        if player == CHANCE:
            # The roll is spent when its outcome is applied, not when it is drawn, so a record that
            # replays the outcome reaches the very same dice as the game that drew it.
            self.dice.next_u64()
        return events

    def _resolve_player(self, player: int | None) -> int:
        to_act = self.current_player()
        if to_act == CHANCE:
            if player not in (None, CHANCE):
                raise IllegalAction("turn-order", "a chance outcome is due, not a player's decision")
            return CHANCE
        acting = self.acting_players()
        if player is None:
            if len(acting) != 1:
                names = ", ".join(self.players[p] for p in acting)
                raise IllegalAction("turn-order", f"several players decide now ({names}); say which one acts")
            return acting[0]
        if player not in acting:
            name = self.players[player] if 0 <= player < len(self.players) else str(player)
            raise IllegalAction("turn-order", f"it is not {name}'s decision now")
        return player

    def action_piece(self, action: Action) -> str | None:
        """The piece an action belongs to (for grouping and `legal_actions(piece=...)`), if any."""
        return None

    def idle_reason(self, piece: str, player: int) -> IllegalAction | None:
        """Why a piece a player names (in any case) has no legal action now, as the error to show them
        (`Bull is in irons and drifts [rule: rule 7]`); None where she has one, where the game knows
        no piece of that name, or where it gives no reason."""
        return None

    def position_key(self) -> Hashable:
        """What makes two positions 'the same' for repetition rules and transposition tables (a game
        whose key holds all its evaluation reads says so with the search setting `exact_keys`)."""
        return repr(self.to_json())

    @abstractmethod
    def _validate(self, action: Action, player: int) -> None:
        """Raise IllegalAction (naming the rule) unless `action` is legal for `player`."""

    @abstractmethod
    def _apply(self, action: Action, player: int) -> list[Event]:
        """Apply an action already known to be legal."""

    def _resign(self, player: int) -> list[Event]:
        if not 0 <= player < len(self.players):
            raise IllegalAction("resignation", f"no player number {player}")
        loser = self.team_of(player)
        teams = {self.team_of(p) for p in range(len(self.players))}
        winners = sorted(teams - {loser})
        returns = tuple(-1.0 if self.team_of(p) == loser else 1.0 for p in range(len(self.players)))
        result = winners[0] if len(winners) == 1 else "draw"
        self.outcome = Outcome(returns, result, f"{loser} resigned")
        return [Resigned(self.players[player]), GameOver(self.outcome.result, self.outcome.reason)]

    # --- chance ----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a CHANCE node: the possible outcomes with their probabilities."""
        return []

    def sample_chance(self) -> Action:
        """The next chance outcome drawn with the state's own dice; changes nothing (not applied).

        Drawing again gives the same outcome: the dice move on when an outcome is applied.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("chance", "no chance outcome is due")
        index = self.dice.clone().weighted([p for _, p in outcomes])
        return outcomes[index][0]

    dice: Dice

    # --- the end ---------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        if self.outcome is None:
            return [0.0] * len(self.players)
        return list(self.outcome.returns)

    # --- copies, views and notation -----------------------------------------------------------
    @abstractmethod
    def clone(self) -> State: ...

    def observe(self, player: int) -> State:
        """What `player` may know: a copy with other players' secrets removed.

        Perfect-information games return a plain copy; games with hidden decisions override it.
        """
        return self.clone()

    @abstractmethod
    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        """The whole state as JSON data; with a viewer, secrets of other seats are left out."""

    @abstractmethod
    def action_to_text(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str, player: int | None = None) -> Action:
        """Inverse of action_to_text; raises NotationError naming the field at fault."""

    def text_to_action(self, text: str, player: int | None = None) -> Action:
        """parse_action, plus the core notation every game shares (``resign``)."""
        words = text.split()
        if words and words[0] == "resign":
            seat = words[1] if len(words) > 1 else None
            if seat is None:
                if player is None:
                    player = self._resolve_player(None)
                return Resign(player)
            if seat not in self.players:
                raise NotationError("player", f"no player called {seat!r}", text)
            return Resign(self.players.index(seat))
        try:
            return self.parse_action(text, player)
        except NotationError as exc:
            idle = self._idle_named(words, player) if exc.field == "verb" else None
            if idle is None:
                raise
            raise idle from None

    def _idle_named(self, words: list[str], player: int | None) -> IllegalAction | None:
        """Text that begins with a piece's name (`Bull`, `San Martin turn 0 ...`) while she has no legal
        action: why, rather than an unknown verb."""
        if player is None or not 0 <= player < len(self.players):  # chance, or no seat of this game
            return None
        for count in range(min(len(words), 4), 0, -1):
            idle = self.idle_reason(" ".join(words[:count]), player)
            if idle is not None:
                return idle
        return None

    def text_of(self, action: Action) -> str:
        if isinstance(action, Resign):
            return f"resign {self.players[action.player]}"
        return self.action_to_text(action)

    def describe(self) -> str:
        """One line for logs: whose decision and what phase."""
        player = self.current_player()
        if player == TERMINAL and self.outcome:
            return f"game over: {self.outcome.verdict} ({self.outcome.reason})"
        if player == CHANCE:
            return "chance"
        return ", ".join(self.players[p] for p in self.acting_players()) + " to decide"


def seat_index(players: Sequence[str], name: str) -> int:
    try:
        return list(players).index(name)
    except ValueError:
        raise NotationError("player", f"no player called {name!r}; players are {', '.join(players)}") from None
