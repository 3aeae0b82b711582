"""Options for the whole test tree (pytest reads options only from the top conftest), and how
hypothesis draws its examples."""

from __future__ import annotations

import os

from hypothesis import settings

# `make test` is repeatable: every property test draws the same examples on every run, so a red run
# is a broken rule, never the luck of the draw. `make test-random` explores: new examples each run
# (QUARTERDECK_HYPOTHESIS=explore), and what it finds becomes a test of its own.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("QUARTERDECK_HYPOTHESIS", "repeatable"))


def pytest_addoption(parser):
    group = parser.getgroup("conformance", "the conformance suite (tests/conformance)")
    group.addoption(
        "--conformance-games",
        type=int,
        default=1,
        help="random games played per scenario of every game (default 1); more examples for the fuzzing",
    )
    group.addoption("--conformance-seed", type=int, default=0, help="seed of the first game (default 0)")
    group.addoption(
        "--conformance-moves", type=int, default=None, help="move cap of one game (default: the suite's own)"
    )
