"""A tiny game for the server's tests: two seats add 1 or 2 to a counter; reaching the target wins.

Options exercise the protocol's other deciders: ``gusts`` adds a chance node (+0 or +1) after
every move, and ``bids`` opens with a secret simultaneous bid (the higher bid, or blue on a tie,
moves first). It is never registered globally; the tests hand it to the server directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quarterdeck.core.dice import Dice
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.events import DieRolled, Event, GameOver, Moved, Revealed, Submitted
from quarterdeck.core.protocol import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Game,
    Outcome,
    ScenarioInfo,
    State,
)


@dataclass(frozen=True)
class Add:
    amount: int


@dataclass(frozen=True)
class Bid:
    amount: int


@dataclass(frozen=True)
class Gust:
    amount: int


class CountingState(State):
    def __init__(self, game: Game, options: dict[str, Any], seed: int):
        self.game = game
        self.options = dict(options)
        self.target = int(options.get("target", 10))
        self.total = 0
        self.turn = 0
        self.bids: dict[int, int] = {}
        self.bidding = bool(options.get("bids"))
        self.gust_due = False
        self.dice = Dice(seed)
        self.outcome: Outcome | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return ("blue", "red")

    def current_player(self) -> int:
        if self.outcome is not None:
            return TERMINAL
        if self.bidding and len(self.bids) < 2:
            return SIMULTANEOUS
        return CHANCE if self.gust_due else self.turn

    def acting_players(self) -> list[int]:
        if self.current_player() == SIMULTANEOUS:
            return [p for p in (0, 1) if p not in self.bids]
        return super().acting_players()

    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list[Action]:
        to_act = self.current_player()
        if to_act == SIMULTANEOUS:
            return [Bid(n) for n in (1, 2, 3)] if player in self.acting_players() else []
        if to_act == CHANCE:
            return [Gust(0), Gust(1)]
        if to_act == TERMINAL or (player is not None and player != to_act):
            return []
        return [Add(1), Add(2)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(Gust(0), 0.5), (Gust(1), 0.5)] if self.gust_due else []

    def action_piece(self, action: Action) -> str | None:
        return "counter" if isinstance(action, Add) else None

    def _validate(self, action: Action, player: int) -> None:
        if action not in self.legal_actions(player if player >= 0 else None):
            raise IllegalAction("counting", f"{self.action_to_text(action)} is not possible now")

    def _apply(self, action: Action, player: int) -> list[Event]:
        if isinstance(action, Bid):
            self.bids[player] = action.amount
            events: list[Event] = [Submitted(self.players[player])]
            if len(self.bids) == 2:
                self.turn = 0 if self.bids[0] >= self.bids[1] else 1
                events.append(Revealed(self.players))
            return events
        if isinstance(action, Gust):
            self.gust_due = False
            self.total += action.amount
            events = [DieRolled("gust", action.amount)]
            if self.total >= self.target:
                self.outcome = Outcome((0.0, 0.0), "draw", "the wind reached the target")
                events.append(GameOver("draw", self.outcome.reason))
            return events
        before = self.total
        self.total += action.amount
        events = [Moved("counter", str(before), str(self.total))]
        if self.total >= self.target:
            winner = self.players[player]
            self.outcome = Outcome(tuple(1.0 if p == player else -1.0 for p in (0, 1)), winner, "reached the target")
            return [*events, GameOver(winner, self.outcome.reason)]
        self.turn = 1 - player
        self.gust_due = bool(self.options.get("gusts"))
        return events

    def clone(self) -> CountingState:
        copy = object.__new__(CountingState)
        copy.__dict__.update(self.__dict__)
        copy.bids = dict(self.bids)
        copy.dice = self.dice.clone()
        return copy

    def observe(self, player: int) -> CountingState:
        """A bid stays secret from the other seat until both are in."""
        copy = self.clone()
        if len(self.bids) < 2:
            copy.bids = {p: bid for p, bid in self.bids.items() if p == player}
        return copy

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        revealed = len(self.bids) == 2
        return {
            "options": self.options,
            "total": self.total,
            "turn": self.turn,
            "gust_due": self.gust_due,
            "dice": self.dice.to_json(),
            "bids": {
                self.players[p]: bid if viewer is None or viewer == p or revealed else None
                for p, bid in self.bids.items()
            },
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def action_to_text(self, action: Action) -> str:
        kind = {Add: "add", Bid: "bid", Gust: "gust"}[type(action)]
        return f"{kind} {action.amount}"

    def parse_action(self, text: str, player: int | None = None) -> Action:
        words = text.split()
        kinds = {"add": Add, "bid": Bid, "gust": Gust}
        if len(words) != 2 or words[0] not in kinds:
            raise NotationError("action", "add <n>, bid <n> or gust <n>", text)
        if not words[1].isdigit() or len(words[1]) > 9:
            raise NotationError("amount", "a whole number of at most nine digits", text)
        return kinds[words[0]](int(words[1]))


class CountingView:
    """A terminal view with one question of its own, as Naval Warfare has `range`."""

    queries = {"bids": "the bids made so far"}

    def questions(self, state: CountingState) -> dict[str, str]:
        return self.queries

    def query(self, state: CountingState, player: int, name: str, text: str) -> str:
        return "; ".join(f"{state.players[p]} bid {bid}" for p, bid in sorted(state.bids.items())) or "no bids"


class CountingGame(Game):
    name = "counting"
    title = "Counting Race"
    default_scenario = "standard"
    hook_terminal_view = CountingView()

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("standard", "Race to ten", "Add 1 or 2; whoever reaches 10 wins.")]

    def new_initial_state(
        self, scenario: str | None = None, options: dict[str, Any] | None = None, seed: int = 0
    ) -> CountingState:
        from quarterdeck.core.errors import ScenarioError, unknown_option

        if scenario not in (None, "standard"):
            raise ScenarioError("scenario", f"no scenario {scenario!r}; the only one is 'standard'")
        unknown = sorted(set(options or {}) - {"target", "gusts", "bids"})
        if unknown:
            raise unknown_option(unknown[0], ("target", "gusts", "bids"))
        return CountingState(self, options or {}, seed)

    def state_from_json(self, data: dict[str, Any]) -> CountingState:
        try:
            state = CountingState(self, data["options"], 0)
            state.total = int(data["total"])
            state.turn = int(data["turn"])
            state.gust_due = bool(data["gust_due"])
            state.dice = Dice.from_json(data["dice"])
            state.bids = {state.players.index(seat): int(bid) for seat, bid in data["bids"].items()}
            state.outcome = Outcome.from_json(data["outcome"])
            return state
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"corrupt counting state: {exc}") from None

    def rules_summary(self) -> str:
        return "Add 1 or 2 in turn; reaching the target wins."


class CatalogueWithCounting:
    """The registered games plus the counting race, as the server's game catalogue."""

    def __init__(self) -> None:
        from quarterdeck import games

        self._registered = games

    def names(self) -> list[str]:
        return sorted({*self._registered.names(), CountingGame.name})

    def get(self, name: str) -> Game:
        return CountingGame() if name == CountingGame.name else self._registered.get(name)
