"""Generic agents: they see only the protocol, plus a game's optional `evaluate` hook.

* `random`: a uniformly random legal action (chance outcomes drawn from the state's own dice).
* `greedy`: the legal action whose resulting position the game's `evaluate` hook likes best (ties
  broken at random); without the hook, the game's score after the action.

An agent never sees another player's secret: it decides on `state.observe(player)`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ..core.protocol import CHANCE, Action, State

AGENTS: dict[str, Callable[..., Agent]] = {}


class Agent(ABC):
    name = "agent"

    def __init__(self, seed: int = 0, **options: Any):
        self.rng = random.Random(seed)
        self.options = options

    @abstractmethod
    def act(self, state: State, player: int) -> Action:
        """A legal action for `player` (who must be acting in `state`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:
            AGENTS[cls.name] = cls


class RandomAgent(Agent):
    name = "random"

    def act(self, state: State, player: int) -> Action:
        if player == CHANCE:
            return state.sample_chance()
        return self.rng.choice(state.observe(player).legal_actions(player))


class GreedyAgent(Agent):
    """One decision of look-ahead with the game's evaluation (from the acting player's view)."""

    name = "greedy"

    def act(self, state: State, player: int) -> Action:
        if player == CHANCE:
            return state.sample_chance()
        view = state.observe(player)
        evaluate = view.game.hook("evaluate") or _score
        best: list[Action] = []
        best_value = float("-inf")
        for action in view.legal_actions(player):
            after = view.clone()
            after.apply(action, player, validate=False)
            value = evaluate(after, player)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)


def _score(state: State, player: int) -> float:
    return state.returns()[player] * 1000.0


def make_agent(spec: str, seed: int = 0) -> Agent:
    """'random', 'greedy', or any other registered agent name, with ':'-separated arguments."""
    name, _, argument = spec.partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](seed=seed, argument=argument) if argument else AGENTS[name](seed=seed)
