"""A game's rules for the browser's rules panel: docs/rules/<game>.md (the rules in our words,
citing the book's sections) where the source tree is at hand, else the game's own summary (what
`quarterdeck rules` prints), as HTML."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ..core.protocol import Game

RULES_DIR = Path(__file__).resolve().parents[3] / "docs" / "rules"

# CommonMark with tables; raw HTML in the text is shown as text, never run as markup.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


@lru_cache(maxsize=16)
def _rendered(text: str) -> str:
    """The text as HTML, its headings one level down: the page's one h1 is the game's title."""
    tokens = _MARKDOWN.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
    return _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})


def rules_document(game: Game) -> dict[str, Any]:
    """{game, title, source, html}: the reference's path where it was read, else "summary"."""
    path = RULES_DIR / f"{game.name}.md"
    if path.is_file():
        text, source = path.read_text(encoding="utf-8"), f"docs/rules/{game.name}.md"
    else:
        text, source = game.rules_summary(), "summary"
    return {"game": game.name, "title": game.title, "source": source, "html": _rendered(text)}
