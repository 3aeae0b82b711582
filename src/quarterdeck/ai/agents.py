"""Generic agents: they see only the protocol, plus a game's optional hooks (see docs/ai.md).

* `random`: a uniformly random legal action (chance outcomes drawn from the state's own dice).
* `greedy`: the legal action whose resulting position the game's `evaluate` hook likes best (ties
  broken at random); without the hook, the game's score after the action.
* `mcts`, `alphabeta` and the levels `ai:1` .. `ai:5` live in their own modules and register here.

An agent never sees another player's secret: it decides on `state.observe(player)`.

Agents are named by a spec: ``name[:argument][:key=value,...]``, e.g. ``random``, ``ai:3``,
``ai:3:movetime=0.2``, ``mcts:iterations=400,rollout_depth=8``.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.protocol import CHANCE, Action, State
from .knowledge import Knowledge

AGENTS: dict[str, Callable[..., Agent]] = {}


@dataclass(frozen=True)
class Option:
    """What an option of an agent's spec takes, checked when the spec is read: a value out of range
    would otherwise surface moves into a game (a move time of 0, an exploration of "abc") or never
    (a move time of nan never runs out)."""

    kind: str  # "number", "whole" (a whole number), "flag" (0/1, true/false) or "word"
    low: float | None = None  # the least it may be
    above: float | None = None  # what it must be more than
    high: float | None = None  # the most it may be
    words: tuple[str, ...] = ()

    def read(self, name: str, value: Any) -> Any:
        """`value` as the agent takes it, or ValueError naming the option and what it takes."""
        if self.kind == "word":
            if value not in self.words:
                raise ValueError(f"option {name!r} is one of {', '.join(self.words)}, not {value!r}")
            return value
        if self.kind == "flag":
            if str(value).lower() not in FLAG_WORDS:
                raise ValueError(f"option {name!r} is 1 or 0 (true or false), not {value!r}")
            return FLAG_WORDS[str(value).lower()]
        if self.kind == "whole" and isinstance(value, float) and value.is_integer():
            value = int(value)  # iterations=1e4
        if not self._fits(value):
            raise ValueError(f"option {name!r} takes {self.describe()}, not {value!r}")
        return value

    def _fits(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return False
        if self.kind == "whole" and not isinstance(value, int):
            return False
        return ((self.low is None or value >= self.low) and (self.above is None or value > self.above)
                and (self.high is None or value <= self.high))

    def describe(self) -> str:
        what = "a whole number" if self.kind == "whole" else "a number"
        bounds = [f"at least {self.low:g}"] if self.low is not None else []
        bounds += [f"above {self.above:g}"] if self.above is not None else []
        bounds += [f"at most {self.high:g}"] if self.high is not None else []
        return f"{what} {' and '.join(bounds)}".strip()


FLAG_WORDS = {"1": True, "0": False, "true": True, "false": False, "yes": True, "no": False}
MOVETIME = Option("number", above=0)
POSITIVE_WHOLE = Option("whole", low=1)
NUMBER = Option("number")
FLAG = Option("flag")


class Agent(ABC):
    name = "agent"
    # the key=value options its spec may give and what each takes (a misspelt one is refused, not ignored)
    options_taken: ClassVar[dict[str, Option]] = {}

    def __init__(self, seed: int = 0, **options: Any):
        self.seed = seed
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
        return self.choose(view, player, view.legal_actions(player))

    def choose(self, view: State, player: int, actions: list[Action]) -> Action:
        """The one of `actions` the evaluation likes best one decision ahead (ties drawn at random)."""
        knowledge = Knowledge.of(view.game)
        best: list[Action] = []
        best_value = float("-inf")
        for action in actions:
            value = knowledge.value_after(view, player, action)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)


class SearchAgent(Agent):
    """What the searching agents share: they refuse a bare argument, start their clock when asked,
    and answer at once where there is nothing to search (a chance outcome, a single legal action).
    Subclasses set `budget` and implement `search`."""

    options_hint = ""
    budget: Any

    def __init__(self, seed: int = 0, argument: str | None = None, **options: Any):
        super().__init__(seed, **options)
        if argument is not None:
            raise ValueError(f"{self.name} takes options such as {self.options_hint}, not a bare argument")

    def act(self, state: State, player: int) -> Action:
        self.budget.start()
        if player == CHANCE:
            return state.sample_chance()
        view = state.observe(player)
        actions = view.legal_actions(player)
        if len(actions) == 1:
            self.forget()
            return actions[0]
        return self.search(view, player, actions)

    def forget(self) -> None:
        """Drop anything kept from the last search (nothing, unless a search keeps its tree)."""

    @abstractmethod
    def search(self, view: State, player: int, actions: list[Action]) -> Action:
        """The chosen action among `actions` (at least two), within the budget."""


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from its spec (see the module docstring), seeded for reproducible play."""
    name, *parts = spec.split(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(sorted(AGENTS))}")
    options: dict[str, Any] = {}
    for part in parts:
        for token in filter(None, part.split(",")):
            key, equals, value = token.partition("=")
            if equals:
                options[key.strip()] = _number_or_text(value.strip())
            elif "argument" in options:
                raise ValueError(f"agent spec {spec!r}: more than one bare argument")
            else:
                options["argument"] = token.strip()
    accepted = getattr(AGENTS[name], "options_taken", {})
    unknown = sorted(set(options) - set(accepted) - {"argument"})
    if unknown:
        takes = f"its options are {', '.join(sorted(accepted))}" if accepted else "it takes none"
        raise ValueError(f"agent spec {spec!r}: {name} has no option {unknown[0]!r}; {takes}")
    try:
        options.update({key: accepted[key].read(key, value) for key, value in options.items() if key != "argument"})
    except ValueError as exc:
        raise ValueError(f"agent spec {spec!r}: {exc}") from None
    try:
        return AGENTS[name](seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"agent spec {spec!r}: {exc}") from None


def _number_or_text(value: str) -> Any:
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            pass
    return value
