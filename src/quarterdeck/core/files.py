"""Files a player writes by hand: scenario files and tables files, all TOML.

Every game reads a player's file through `read_toml`, so a file that cannot be read, is not UTF-8
text (the encoding TOML requires), is not valid TOML or nests too deeply to be read is refused the
same way in every game, naming the field it was given for.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import ScenarioError


def is_file_name(name: str) -> bool:
    """A scenario given by path rather than by a shipped scenario's name."""
    return name.endswith(".toml")


def read_toml(path: str | Path, field: str = "scenario") -> dict[str, Any]:
    """The table of a player's TOML file; ScenarioError(`field`) when it cannot be used."""
    return parse_toml(read_text(path, field), str(path), field)


def read_text(path: str | Path, field: str = "scenario") -> str:
    """The text of a player's file; ScenarioError(`field`) when it cannot be read or is not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(field, f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            field, f"{path} is not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x}); TOML files are UTF-8"
        ) from None


def parse_toml(text: str, name: str, field: str = "scenario") -> dict[str, Any]:
    """The table of TOML `text` read from `name`; ScenarioError(`field`) when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(field, f"{name} is not valid TOML: {exc}") from None
    except RecursionError:  # the reader recurses once an array or inline table deep
        raise ScenarioError(field, f"{name} nests arrays or tables too deeply to be read") from None
