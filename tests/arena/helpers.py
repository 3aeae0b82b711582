"""An executor that runs an arena's jobs in the test's own process and counts the games it plays."""

from __future__ import annotations

from quarterdeck.arena.executors import Executor


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
