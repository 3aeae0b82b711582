"""Seeded dice that live inside a game state.

The generator is SplitMix64: its whole state is one integer, so it serialises to JSON, clones for
free, and a record (setup + actions) replays to the very same rolls. Games with chance expose the
roll as a chance decision (see protocol.CHANCE) and use `Dice` to sample it, so the outcome is
written to the record like any other action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .errors import RecordError

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Dice:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def roll(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[float]) -> int:
        """Index drawn with the given (non-negative) weights."""
        total = sum(weights)
        point = (self.next_u64() / float(1 << 64)) * total
        running = 0.0
        for index, weight in enumerate(weights):
            running += weight
            if point < running:
                return index
        return len(weights) - 1

    def clone(self) -> Dice:
        return Dice(self.state)

    def to_json(self) -> int:
        return self.state

    @classmethod
    def from_json(cls, value: int) -> Dice:
        if isinstance(value, bool) or not isinstance(value, int):
            # a seat's view leaves the dice out (None): only a whole saved state can be loaded
            raise RecordError(f"dice: expected the dice's integer state, got {value!r} (a player's view carries none)")
        return cls(value)
