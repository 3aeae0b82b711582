"""Token buckets: each connection may burst up to `capacity` requests, refilled at `rate` per second."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass
class TokenBucket:
    capacity: float
    rate: float
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.last = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RateLimiter:
    """One bucket per key (an HTTP connection's address and port, or one socket)."""

    MAX_KEYS = 10_000

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic):
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.buckets: dict[Hashable, TokenBucket] = {}

    def allow(self, key: Hashable) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.MAX_KEYS:
                self._forget_full_buckets()
            bucket = self.buckets[key] = self.bucket()
        return bucket.take()

    def bucket(self) -> TokenBucket:
        return TokenBucket(self.capacity, self.rate, self.clock)

    def _forget_full_buckets(self) -> None:
        """Drop buckets that have refilled: forgetting them changes nothing for their owners."""
        now = self.clock()
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.last) * bucket.rate >= bucket.capacity:
                del self.buckets[key]
