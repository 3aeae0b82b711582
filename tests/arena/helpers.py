"""Helpers of the arena tests: an executor in the test's own process, and results without their timings."""

from __future__ import annotations

import dataclasses
import time

from quarterdeck.arena.executors import Executor
from quarterdeck.arena.runner import GameResult


def without_timing(results: list[GameResult]) -> list[GameResult]:
    """The results with the seconds they took left out, which differ from run to run."""
    return [dataclasses.replace(r, seconds=0.0, decision_seconds=()) for r in results]


class InProcess(Executor):
    """Runs the jobs here and counts the games, to see what a resumed arena replays; `stop_after`
    games it raises KeyboardInterrupt, as Ctrl-C would."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.games_played = 0
        self.stop_after = stop_after

    def map_unordered(self, function, jobs):
        for job in jobs:
            if self.stop_after is not None and self.games_played >= self.stop_after:
                raise KeyboardInterrupt
            self.games_played += len(job[-1])
            yield function(*job)


def wait_then_return(seconds: float, value: object) -> object:
    """A job for worker processes that holds its worker for `seconds`."""
    time.sleep(seconds)
    return value
