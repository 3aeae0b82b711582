"""Playing strength 1 to 5: `ai:N` picks the game's preferred search with the level's budget.

A level searches its iteration count per decision, and by default stops sooner if its move time
runs out (a slow machine plays a little weaker, never slower). ``ai:N:budget=iterations`` drops the
move time, so a game replays identically from the same seed on any machine; ``movetime=`` or
``iterations=`` override the level's budget, ``slip=`` its share of decisions played as a random
candidate, and any other option goes to the search (e.g. ``ai:3:rollout_depth=4``). A game may
set its own iteration counts by level (the search setting ``level_iterations``), where the default
counts would not make each level a step up, and search settings for a level alone
(``level_settings``), where a deeper search wants them otherwise; a ``slip`` among them is the
level's own, not the search's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.protocol import CHANCE, SIMULTANEOUS, Action, State
from .agents import Agent, Option, SearchAgent
from .alphabeta import AlphaBetaAgent
from .knowledge import Knowledge
from .mcts import MCTSAgent


@dataclass(frozen=True)
class Level:
    movetime: float  # seconds per decision
    iterations: int  # MCTS iterations per decision; alpha-beta visits NODES_PER_ITERATION times as many
    slip: float = 0.0  # share of decisions on which the level plays one of its candidates at random


# ai:1 is the beginner: where a game's candidates are good (Napoleonic Chess ranks every move by the
# evaluation one decision ahead), 25 iterations already play much as the evaluation does, as ai:2's
# 100 do, so the beginner slips: one decision in four it plays a candidate drawn at random.
LEVELS: dict[int, Level] = {
    1: Level(movetime=0.05, iterations=25, slip=0.25),
    2: Level(movetime=0.25, iterations=100),
    3: Level(movetime=1.0, iterations=400),
    4: Level(movetime=2.0, iterations=1600),
    5: Level(movetime=5.0, iterations=6400),
}
NODES_PER_ITERATION = 8


def level_iterations(knowledge: Knowledge) -> dict[int, int]:
    """Each level's iteration count in a game: the game's own where it sets one (its search setting
    ``level_iterations``), else the level's."""
    own = knowledge.settings.get("level_iterations", {})
    return {number: own.get(number, level.iterations) for number, level in LEVELS.items()}


def level_settings(knowledge: Knowledge, number: int) -> dict[str, Any]:
    """The search settings a game gives one level over its own (its search setting ``level_settings``,
    ``{level: {setting: value}}``), e.g. a fixed evaluation scale where a deep tree saturates a learned one."""
    return dict(knowledge.settings.get("level_settings", {}).get(number, {}))


def level_slip(knowledge: Knowledge, number: int) -> float:
    """The share of decisions a level plays as a random candidate in a game: the game's own (a
    ``slip`` in its ``level_settings``), else the level's."""
    return level_settings(knowledge, number).get("slip", LEVELS[number].slip)


def level_plays_as(knowledge: Knowledge) -> dict[int, int]:
    """The levels a game measured no stronger than a lower one (its search setting
    ``level_plays_as``, ``{level: lower level}``): they think longer for nothing, and the lobby says so."""
    return dict(knowledge.settings.get("level_plays_as", {}))


class LevelAgent(Agent):
    name = "ai"
    # its own, and those of the search the game plays it with (passed on to it)
    options_taken = {
        "budget": Option("word", words=("time", "iterations")),
        "slip": Option("number", low=0, high=1),
        **MCTSAgent.options_taken,
        **AlphaBetaAgent.options_taken,
    }

    def __init__(self, seed: int = 0, argument: str | None = None, budget: str = "time", **options: Any):
        super().__init__(seed, **options)
        try:
            self.number = int(argument or 3)
            self.level = LEVELS[self.number]
        except (KeyError, ValueError):
            raise ValueError(f"ai level must be one of {', '.join(map(str, LEVELS))}, not {argument!r}") from None
        self.by_iterations = budget == "iterations"
        self._engines: dict[str, SearchAgent] = {}

    def act(self, state: State, player: int) -> Action:
        knowledge = Knowledge.of(state.game)
        search = knowledge.search
        if search == "alphabeta" and state.current_player() == SIMULTANEOUS:
            search = "mcts"  # alpha-beta needs open information; hidden decisions go to MCTS
        engine = self._engine(search, knowledge)
        chosen = engine.act(state, player)
        slip = self.slip_in(knowledge)
        if player == CHANCE or not slip or self.rng.random() >= slip:
            return chosen
        view = state.observe(player)
        actions = view.legal_actions(player)
        if len(actions) == 1:
            return chosen
        slip = self.rng.choice(knowledge.candidates(view, player, actions, self.rng))
        if slip != chosen:
            engine.forget()  # a tree kept for the search's choice does not belong after another move
        return slip

    def _engine(self, search: str, knowledge: Knowledge) -> SearchAgent:
        if search not in self._engines:
            options = {**level_settings(knowledge, self.number), **self.options}  # the player's options win
            options.pop("slip", None)  # the level's own, not the search's
            if "movetime" not in options and "iterations" not in options:
                scale = NODES_PER_ITERATION if search == "alphabeta" else 1
                options["iterations"] = level_iterations(knowledge)[self.number] * scale
                if not self.by_iterations:
                    options["movetime"] = self.level.movetime
            engine = AlphaBetaAgent if search == "alphabeta" else MCTSAgent
            self._engines[search] = engine(seed=self.seed, **options)
        return self._engines[search]

    def slip_in(self, knowledge: Knowledge) -> float:
        """The share of decisions this level plays as a random candidate in a game: the player's
        option, else the game's for the level, else the level's own."""
        return self.options.get("slip", level_slip(knowledge, self.number))
