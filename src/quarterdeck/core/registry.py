"""The game registry. A rule book registers its Game class once; everything else looks it up by name."""

from __future__ import annotations

from .errors import UnknownGame
from .protocol import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game known under its `name`."""
    _GAMES[cls.name] = cls
    return cls


def registered() -> dict[str, type[Game]]:
    return dict(_GAMES)


def make(name: str) -> Game:
    try:
        return _GAMES[name]()
    except KeyError:
        raise UnknownGame(name, sorted(_GAMES)) from None
