"""Computer moves, chosen in worker processes so the server's event loop never waits on search."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from typing import Any

from ..ai.agents import AGENTS, GreedyAgent, RandomAgent, SearchAgent, make_agent
from ..ai.alphabeta import AlphaBetaAgent
from ..ai.knowledge import Knowledge
from ..ai.levels import LEVELS, LevelAgent, level_plays_as, level_slip
from ..core.protocol import Game

COMPUTER_PREFIX = "computer:"


# The lobby's ladder, weakest first: a word on the strength of each named opponent. The search
# agents by their own names (ai is ai:3) stay for the players who ask for them.
LADDER: dict[str, str] = {
    "random": "the weakest: for learning the moves",
    "greedy": "weak: takes what it sees, never looks further",
    **{
        f"ai:{n}": f"level {n} of {len(LEVELS)}: {word}"
        for n, word in zip(LEVELS, ["easy", "fair", "good", "strong", "the strongest"], strict=True)
    },
}


def levels() -> list[str]:
    """The opponents a player may choose: the ladder weakest first, then the agents by name."""
    return [*LADDER, *sorted(set(AGENTS) - set(LADDER))]


def level_ladder() -> list[dict[str, Any]]:
    """Each opponent for the lobby: its spec, how strong it is (one line), how it plays and the most
    seconds it thinks per decision (describe_level)."""
    return [
        {**describe_level(spec), "strength": LADDER.get(spec, "expert setting: the search by name")}
        for spec in levels()
    ]


def level_notes(game: Game) -> dict[str, str]:
    """What the lobby adds to a level's line in one game, by spec: the slips the game sets for it,
    and a level the game measured no stronger than a lower one (`level_plays_as`)."""
    knowledge = Knowledge.of(game)
    plays_as = level_plays_as(knowledge)
    notes = {}
    for number, level in LEVELS.items():
        slip = level_slip(knowledge, number)
        said = [f"In this game it slips on {slip:.0%} of its decisions."] if slip != level.slip else []
        if number in plays_as:
            said.append(f"Measured in this game, it plays no stronger than level {plays_as[number]}: "
                        "the dice decide more than its longer thinking.")
        if said:
            notes[f"ai:{number}"] = " ".join(said)
    return notes


def agent_spec(who: str) -> str | None:
    """The agent behind a seat's `players` entry ("computer:greedy" -> "greedy"), or None for a person."""
    return who[len(COMPUTER_PREFIX) :] if who.startswith(COMPUTER_PREFIX) else None


@lru_cache(maxsize=64)
def describe_level(spec: str, game: Game | None = None) -> dict[str, Any]:
    """A computer opponent for the page: its spec, one line on how it plays (in `game`, where a game
    sets a level's slips), and the most seconds it thinks per decision (0: at once; None: a count of
    iterations, not a time, bounds it)."""
    agent = make_agent(spec)
    if isinstance(agent, RandomAgent | GreedyAgent):
        how = (
            "any legal move, at random"
            if isinstance(agent, RandomAgent)
            else "the best-looking move, one decision ahead"
        )
        return {"spec": spec, "about": f"{spec}: {how}, at once", "seconds": 0}
    if isinstance(agent, LevelAgent):
        by_time = not agent.by_iterations and "iterations" not in agent.options
        seconds = agent.options.get("movetime", agent.level.movetime) if by_time else None
        how = f"level {agent.number} of {len(LEVELS)}, the game's own search"
        slip = agent.slip_in(Knowledge.of(game)) if game is not None else agent.level.slip
        if slip:  # a share of its moves are a sensible move other than its best
            how += f", slipping on {slip:.0%} of its decisions"
        fixed = (f"{agent.options['iterations']} iterations a decision" if "iterations" in agent.options
                 else "its level's iteration count a decision")
    elif isinstance(agent, SearchAgent):
        seconds = agent.budget.movetime
        how = {"mcts": "Monte Carlo tree search", "alphabeta": "alpha-beta search"}.get(agent.name, agent.name)
        depth_only = isinstance(agent, AlphaBetaAgent) and "iterations" not in agent.options
        fixed = f"to depth {agent.max_depth}" if depth_only else f"{agent.budget.iterations} iterations a decision"
    else:
        return {"spec": spec, "about": spec, "seconds": None}
    budget = f"up to {seconds:g} s a decision" if seconds is not None else fixed
    return {"spec": spec, "about": f"{spec}: {how}, {budget}", "seconds": seconds}


def choose_action(game_class: type[Game], state_json: dict[str, Any], spec: str, seed: int, player: int) -> str:
    """Runs in a worker: rebuild the state from JSON, let the agent decide, answer in notation."""
    state = game_class().state_from_json(state_json)
    action = make_agent(spec, seed=seed).act(state, player)
    return state.action_to_text(action)


def computer_pool(workers: int) -> ProcessPoolExecutor:
    # Spawned, not forked: forking a process that runs an event loop and threads can deadlock.
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
