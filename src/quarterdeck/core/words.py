"""Small pieces of English shared by every game's messages."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str = "") -> str:
    """A count and its noun: '1 word', '2 words', '3 batteries' (`plural` for a noun that takes more than an s)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def hits_phrase(hits: int) -> str:
    """'no hit', '1 hit', '3 hits'."""
    return counted(hits, "hit") if hits else "no hit"


def verdict(result: str) -> str:
    """A game's result as a player says it: 'dutch won', 'a draw' (`result` is the winner or 'draw')."""
    return "a draw" if result == "draw" else f"{result} won"
