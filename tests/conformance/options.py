"""The suite's size, from the command line (options declared in tests/conftest.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

GAMES = 1  # games per scenario
SEED = 0  # the first game's seed
MOVES = 4000  # the move cap of one game; at the cap the seat to act resigns
EXAMPLES = 30  # hypothesis examples per fuzz test and case


def configure(config: pytest.Config) -> None:
    global GAMES, SEED, MOVES
    GAMES = max(1, config.getoption("conformance_games"))
    SEED = config.getoption("conformance_seed")
    MOVES = config.getoption("conformance_moves") or MOVES


def fuzz() -> settings:
    """Reproducible fuzzing: the examples follow from the case, so `make test` never flickers."""
    return settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
