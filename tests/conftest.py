"""Options for the whole test tree (pytest reads options only from the top conftest)."""

from __future__ import annotations


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
