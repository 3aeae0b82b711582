"""Each game's rules reference, docs/rules/<name>.md, exists and cites its seed's sections."""

from __future__ import annotations

import os
from pathlib import Path

from . import checks

ROOT = Path(__file__).resolve().parents[2]


def seeds_folder() -> Path | None:
    """The rule books (shared/seeds), where this checkout has them; the quotations are then checked
    against the book's text, and elsewhere only their presence."""
    for folder in (os.environ.get("QUARTERDECK_SEEDS"), ROOT / "shared" / "seeds", ROOT.parent / "shared" / "seeds"):
        if folder and Path(folder).is_dir():
            return Path(folder)
    return None


def test_the_rules_reference_cites_the_seed(game_name):
    path = ROOT / "docs" / "rules" / f"{game_name}.md"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    checks.check_rules_reference(game_name, path.read_text(encoding="utf-8"), seeds_folder())
