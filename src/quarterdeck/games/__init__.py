"""Every rule book is one subpackage here; importing it registers the game.

`load()` imports them all, so a new rule book needs no change anywhere else.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..core import registry
from ..core.protocol import Game


def load() -> dict[str, type[Game]]:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    return registry.registered()


def get(name: str) -> Game:
    load()
    return registry.make(name)


def names() -> list[str]:
    return sorted(load())
