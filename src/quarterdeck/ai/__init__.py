"""Agents that play any registered game through the protocol.

Importing the package registers every agent (random, greedy, mcts, alphabeta and the levels ai:1
to ai:5) in `AGENTS`; `make_agent(spec, seed)` builds one by name.
"""

from . import alphabeta, levels, mcts  # noqa: F401  (each registers its agents)
from .agents import AGENTS, Agent, make_agent

__all__ = ["AGENTS", "Agent", "make_agent"]
