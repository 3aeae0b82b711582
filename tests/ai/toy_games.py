"""Small games on the core protocol for the agent and arena tests, one per protocol feature.

* `Nim`: piles of stones; a turn is one or two takes from different piles, then ``end`` (turns of
  many decisions, actions grouped by piece). Whoever takes the last stone wins.
* `Pig`: a dice race; ``roll`` brings a CHANCE node, a 1 loses the turn's points, ``hold`` banks
  them. First to the target wins.
* `Goofspiel`: both sides secretly play a card at once (SIMULTANEOUS); the higher card scores the
  round's prize. `observe(p)` shows the other side as still to decide.
* `Truce`: blue holds a lead that each of its turns at sea wears down to a floor, and may end the
  game drawn instead (``truce``); red only sails. For how searches value a draw.

They are not registered in the game registry, so they never appear in `quarterdeck games`.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from typing import Any

from quarterdeck.core.dice import Dice
from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Game, Outcome, ScenarioInfo, State

PLAYERS = ("blue", "red")


class ToyGame(Game):
    state_class: type[ToyState]

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("standard", self.title, "the only one")]

    def new_initial_state(self, scenario=None, options=None, seed: int = 0) -> State:
        return self.state_class(self, self.state_class.initial(dict(options or {})), Dice(seed))

    def state_from_json(self, data: dict[str, Any]) -> State:
        return self.state_class(self, copy.deepcopy(data["data"]), Dice.from_json(data["dice"]))

    def rules_summary(self) -> str:
        return self.title


class ToyState(State):
    """A state is one dict of plain data; subclasses give the rules."""

    def __init__(self, game: ToyGame, data: dict[str, Any], dice: Dice):
        self.game = game
        self.data = data
        self.dice = dice
        self.outcome = Outcome.from_json(data.get("outcome"))

    @staticmethod
    @abstractmethod
    def initial(options: dict[str, Any]) -> dict[str, Any]:
        """The starting data, from the options."""

    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    def clone(self) -> State:
        return type(self)(self.game, copy.deepcopy(self.data), self.dice.clone())

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        return {"data": copy.deepcopy(self.data), "dice": self.dice.to_json()}

    def action_to_text(self, action) -> str:
        return " ".join(str(part) for part in action) if isinstance(action, tuple) else str(action)

    def parse_action(self, text: str, player: int | None = None):
        for action in self._all_actions():
            if self.action_to_text(action) == text:
                return action
        raise NotationError("action", "no such action", text)

    def _all_actions(self) -> list:
        return [a for p in self.acting_players() or [CHANCE] for a in self._legal(p)]

    def legal_actions(self, player: int | None = None, piece: str | None = None) -> list:
        if self.outcome is not None:
            return []
        player = self.current_player() if player is None else player
        actions = self._legal(player)
        return [a for a in actions if self.action_piece(a) == piece] if piece else actions

    def _validate(self, action, player: int) -> None:
        if action not in self._legal(player):
            raise IllegalAction("toy", f"{action!r} is not legal")

    @abstractmethod
    def _legal(self, player: int) -> list:
        """The legal actions of `player` (or of CHANCE) now."""

    def _finish(self, winner: int) -> None:
        returns = tuple(1.0 if p == winner else -1.0 for p in range(2))
        self.outcome = Outcome(returns, PLAYERS[winner], "won")
        self.data["outcome"] = self.outcome.to_json()


class NimState(ToyState):
    @staticmethod
    def initial(options: dict[str, Any]) -> dict[str, Any]:
        return {"piles": list(options.get("piles", [3, 4, 5])), "to_move": 0, "taken_from": []}

    def current_player(self) -> int:
        return TERMINAL if self.outcome else self.data["to_move"]

    def _legal(self, player: int) -> list:
        if player != self.current_player():
            return []
        taken_from = self.data["taken_from"]
        actions: list = [] if not taken_from else ["end"]
        if len(taken_from) < 2:
            for pile, stones in enumerate(self.data["piles"]):
                if pile not in taken_from:
                    actions.extend(("take", pile, k) for k in range(1, min(3, stones) + 1))
        return actions

    def action_piece(self, action) -> str | None:
        return f"pile{action[1]}" if isinstance(action, tuple) else None

    def _apply(self, action, player: int) -> list:
        if action == "end":
            self.data["taken_from"] = []
            self.data["to_move"] = 1 - player
            return []
        _, pile, stones = action
        self.data["piles"][pile] -= stones
        self.data["taken_from"].append(pile)
        if sum(self.data["piles"]) == 0:
            self._finish(player)
        return []


class Nim(ToyGame):
    name = "toy-nim"
    title = "Nim"
    state_class = NimState


class NimWithItsOwnLevels(Nim):
    """Nim that sets two of its levels' iteration counts (the search setting `level_iterations`), its
    top level's evaluation scale and how often its ai:2 slips (`level_settings`)."""

    name = "toy-nim-own-levels"
    hook_search_settings = {
        "level_iterations": {2: 7, 5: 30},
        "level_settings": {2: {"slip": 0.5}, 5: {"evaluation_scale": 3.0}},
    }


class NimWithEvaluation(Nim):
    """Nim that knows its theory: a position with nim-sum 0 and the other side to move is good."""

    name = "toy-nim-evaluated"
    hook_search = "alphabeta"

    def hook_evaluate(self, state: State, player: int) -> float:
        nim_sum = 0
        for stones in state.data["piles"]:
            nim_sum ^= stones
        mover_wins = nim_sum != 0
        return 1.0 if mover_wins == (state.current_player() == player) else -1.0


class PigState(ToyState):
    @staticmethod
    def initial(options: dict[str, Any]) -> dict[str, Any]:
        return {
            "scores": [0, 0],
            "turn_total": 0,
            "to_move": 0,
            "rolling": False,
            "target": options.get("target", 20),
        }

    def current_player(self) -> int:
        if self.outcome:
            return TERMINAL
        return CHANCE if self.data["rolling"] else self.data["to_move"]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(1, 7)] if self.current_player() == CHANCE else []

    def _legal(self, player: int) -> list:
        if player == CHANCE:
            return list(range(1, 7)) if self.current_player() == CHANCE else []
        return ["roll", "hold"] if player == self.current_player() else []

    def _apply(self, action, player: int) -> list:
        data = self.data
        if player == CHANCE:
            data["rolling"] = False
            if action == 1:
                data["turn_total"] = 0
                data["to_move"] = 1 - data["to_move"]
            else:
                data["turn_total"] += action
        elif action == "roll":
            data["rolling"] = True
        else:
            data["scores"][player] += data["turn_total"]
            data["turn_total"] = 0
            if data["scores"][player] >= data["target"]:
                self._finish(player)
            data["to_move"] = 1 - player
        return []


class Pig(ToyGame):
    name = "toy-pig"
    title = "Pig"
    state_class = PigState


class PigWithEvaluation(Pig):
    """Pig that prices its die in the air: the expected turn total after a roll (a 1 loses it)."""

    name = "toy-pig-evaluated"

    def hook_evaluate(self, state: State, player: int) -> float:
        data = state.data
        pending = (5 * data["turn_total"] + 20) / 6 if data["rolling"] else data["turn_total"]
        lead = data["scores"][player] - data["scores"][1 - player]
        return lead + (pending if data["to_move"] == player else -pending)


class GoofspielState(ToyState):
    """Cards 1..n; round r's prize is r points. Pending secret choices live in data["secret"]."""

    @staticmethod
    def initial(options: dict[str, Any]) -> dict[str, Any]:
        cards = options.get("cards", 4)
        return {
            "hands": [list(range(1, cards + 1)) for _ in PLAYERS],
            "points": [0, 0],
            "round": 1,
            "secret": [None, None],
        }

    def current_player(self) -> int:
        return TERMINAL if self.outcome else SIMULTANEOUS

    def acting_players(self) -> list[int]:
        if self.outcome:
            return []
        return [p for p in range(2) if self.data["secret"][p] is None]

    def _legal(self, player: int) -> list:
        if player not in self.acting_players():
            return []
        return list(self.data["hands"][player])

    def observe(self, player: int) -> State:
        view = self.clone()
        view.data["secret"] = [card if p == player else None for p, card in enumerate(self.data["secret"])]
        return view

    def to_json(self, viewer: int | None = None) -> dict[str, Any]:
        return self.observe(viewer).to_json() if viewer is not None else super().to_json()

    def _apply(self, action, player: int) -> list:
        data = self.data
        data["secret"][player] = action
        if None in data["secret"]:
            return []
        cards = data["secret"]
        data["hands"] = [[c for c in hand if c != card] for hand, card in zip(data["hands"], cards, strict=True)]
        if cards[0] != cards[1]:
            data["points"][0 if cards[0] > cards[1] else 1] += data["round"]
        data["round"] += 1
        data["secret"] = [None, None]
        if not data["hands"][0]:
            if data["points"][0] == data["points"][1]:
                self.outcome = Outcome((0.0, 0.0), "draw", "equal points")
                data["outcome"] = self.outcome.to_json()
            else:
                self._finish(0 if data["points"][0] > data["points"][1] else 1)
        return []


class Goofspiel(ToyGame):
    name = "toy-goofspiel"
    title = "Goofspiel"
    state_class = GoofspielState


class TruceState(ToyState):
    WEAR = 0.25  # blue's lead lost to each of its turns at sea, down to the floor

    @staticmethod
    def initial(options: dict[str, Any]) -> dict[str, Any]:
        lead = float(options.get("lead", 2.0))
        return {"lead": lead, "floor": float(options.get("floor", min(lead, 1.0))), "to_move": 0}

    def current_player(self) -> int:
        return TERMINAL if self.outcome else self.data["to_move"]

    def _legal(self, player: int) -> list:
        if player != self.current_player():
            return []
        return ["sail", "truce"] if player == 0 else ["sail"]

    def _apply(self, action, player: int) -> list:
        if action == "truce":
            self.outcome = Outcome((0.0, 0.0), "draw", "a truce")
            self.data["outcome"] = self.outcome.to_json()
            return []
        if player == 0:
            self.data["lead"] = max(self.data["floor"], self.data["lead"] - self.WEAR)
        self.data["to_move"] = 1 - player
        return []


class Truce(ToyGame):
    name = "toy-truce"
    title = "Truce"
    state_class = TruceState

    def hook_evaluate(self, state: State, player: int) -> float:
        return state.data["lead"] if player == 0 else -state.data["lead"]


TOY_GAMES: tuple[ToyGame, ...] = (Nim(), NimWithEvaluation(), Pig(), Goofspiel(), Truce())
