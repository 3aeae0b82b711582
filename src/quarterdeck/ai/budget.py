"""How long a search may think: a wall-clock move time, an iteration count, or both.

A move time is measured with `time.perf_counter` from the moment the agent is asked to act. The
search stops at SAFETY of it, leaving room for the work after the last check (choosing the move,
keeping the tree), so the whole decision stays within the budget. An iteration budget alone makes
the search reproducible: the same seed gives the same decision on any machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

SAFETY = 0.93


@dataclass
class Budget:
    movetime: float | None = None  # seconds per decision
    iterations: int | None = None  # MCTS iterations, or alpha-beta nodes
    _deadline: float = field(default=float("inf"), init=False, repr=False)

    def __post_init__(self) -> None:
        if self.movetime is None and self.iterations is None:
            raise ValueError("a search budget needs a move time, an iteration count, or both")
        if self.movetime is not None and self.movetime <= 0:
            raise ValueError("the move time must be positive")
        if self.iterations is not None and self.iterations <= 0:
            raise ValueError("the iteration count must be positive")

    def start(self) -> None:
        now = time.perf_counter()
        self._deadline = now + self.movetime * SAFETY if self.movetime is not None else float("inf")

    def out_of_time(self) -> bool:
        return self.movetime is not None and time.perf_counter() >= self._deadline

    def spent(self, iterations: int) -> bool:
        return (self.iterations is not None and iterations >= self.iterations) or self.out_of_time()
