"""An arena's output folder: its configuration, and each finished game's record and result.

    OUT/arena.json          the configuration (a rerun must match it to resume)
    OUT/games/000042.qdr    game 42's record, replayable with `Record.parse(...).replay(game)`
    OUT/games/000042.json   game 42's result; written last, so it marks the game as finished
    OUT/summary.json        the tables, rewritten after a run
    OUT/results.png         the plot, when asked for

Files are written to a temporary name and renamed, so an interrupted arena never leaves half a file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CONFIG = "arena.json"
SUMMARY = "summary.json"
PLOT = "results.png"


class ArenaStore:
    def __init__(self, root: Path):
        self.root = root
        self.games = root / "games"

    def open(self, config: dict[str, Any]) -> dict[str, Any]:
        """Create the folder for `config`, or find the configuration already saved there."""
        self.games.mkdir(parents=True, exist_ok=True)
        path = self.root / CONFIG
        if path.exists():
            return json.loads(path.read_text())
        write_atomically(path, json.dumps(config, indent=2, sort_keys=True))
        return json.loads(path.read_text())

    def config(self) -> dict[str, Any]:
        return json.loads((self.root / CONFIG).read_text())

    def finished(self) -> Iterator[dict[str, Any]]:
        for path in sorted(self.games.glob("*.json")):
            try:
                yield json.loads(path.read_text())
            except json.JSONDecodeError:
                continue  # not a finished game: it will be played again

    def save(self, index: int, result: dict[str, Any], record_text: str) -> None:
        stem = self.games / f"{index:06d}"
        write_atomically(stem.with_suffix(".qdr"), record_text)
        write_atomically(stem.with_suffix(".json"), json.dumps(result, indent=1))

    def record_path(self, index: int) -> Path:
        return self.games / f"{index:06d}.qdr"

    def save_summary(self, summary: dict[str, Any]) -> Path:
        path = self.root / SUMMARY
        write_atomically(path, json.dumps(summary, indent=2))
        return path

    @property
    def plot_path(self) -> Path:
        return self.root / PLOT


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(text)
    os.replace(temporary, path)
