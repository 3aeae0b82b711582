"""Computer moves, chosen in worker processes so the server's event loop never waits on search."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..ai.agents import AGENTS, make_agent
from ..core.protocol import Game

COMPUTER_PREFIX = "computer:"


def levels() -> list[str]:
    """The agents a player may choose as opponent, by name."""
    return sorted(AGENTS)


def agent_spec(who: str) -> str | None:
    """The agent behind a seat's `players` entry ("computer:greedy" -> "greedy"), or None for a person."""
    return who[len(COMPUTER_PREFIX) :] if who.startswith(COMPUTER_PREFIX) else None


def choose_action(game_class: type[Game], state_json: dict[str, Any], spec: str, seed: int, player: int) -> str:
    """Runs in a worker: rebuild the state from JSON, let the agent decide, answer in notation."""
    state = game_class().state_from_json(state_json)
    action = make_agent(spec, seed=seed).act(state, player)
    return state.action_to_text(action)


def computer_pool(workers: int) -> ProcessPoolExecutor:
    # Spawned, not forked: forking a process that runs an event loop and threads can deadlock.
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
