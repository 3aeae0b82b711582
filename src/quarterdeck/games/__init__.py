"""Every rule book is one subpackage here; importing it registers the game.

A game's command-line name is its package name with hyphens (``square_rigger`` is
``square-rigger``), so a game is imported only when it is asked for, and a new rule book needs
no change anywhere else.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..core import registry
from ..core.errors import UnknownGame
from ..core.protocol import Game


def names() -> list[str]:
    return sorted(
        module.name.replace("_", "-")
        for module in pkgutil.iter_modules(__path__)
        if module.ispkg and not module.name.startswith("_")
    )


def get(name: str) -> Game:
    if name not in names():
        raise UnknownGame(name, names())
    importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
    return registry.make(name)


def load() -> dict[str, type[Game]]:
    for name in names():
        get(name)
    return registry.registered()
