"""Server settings, with defaults for a player's own machine."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import default_database_url


@dataclass
class Settings:
    database_url: str = ""
    computer_workers: int = 1
    # Per connection: a burst of `rate_burst` requests, then `rate_per_second`.
    rate_burst: float = 120
    rate_per_second: float = 40

    def __post_init__(self) -> None:
        if not self.database_url:
            self.database_url = default_database_url()
