"""How every refusal reads, over HTTP and over the socket alike: a status and a clear message."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, NotationError, RecordError, ScenarioError, UnknownGame
from ..store import NotFound
from .live import Forbidden
from .service import BadRequest, NeedsToken, Stale

REFUSALS: tuple[type[Exception], ...] = (
    NotFound,
    UnknownGame,
    ScenarioError,
    RecordError,
    BadRequest,
    NeedsToken,
    Forbidden,
    Stale,
    NotationError,
    IllegalAction,
)


MAX_DETAIL = 300  # characters of a refusal's message; the rest of a huge input is not sent back


def cut(text: str, limit: int = MAX_DETAIL) -> str:
    """`text`, shortened to `limit` characters: a refusal names what is wrong without repeating
    a megabyte of the caller's input back to it."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters cut)"


def refusal(exc: Exception) -> tuple[int, dict[str, Any]]:
    """The status and JSON body for one of the REFUSALS, its message cut to a readable length."""
    status, body = _refusal(exc)
    return status, {key: cut(value) if isinstance(value, str) else value for key, value in body.items()}


def _refusal(exc: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(exc, NotFound):
        return 404, {"detail": f"no game {exc.args[0]!r}"}
    if isinstance(exc, UnknownGame):
        return 422, {"detail": str(exc), "field": "game"}
    if isinstance(exc, ScenarioError):
        return 422, {"detail": str(exc), "field": exc.field}
    if isinstance(exc, RecordError):  # an imported record: what is wrong, and where
        return 422, {"detail": f"the record cannot be imported: {exc}", "field": "record", "line": exc.line}
    if isinstance(exc, NotationError):
        return 422, {"detail": str(exc), "field": exc.field}
    if isinstance(exc, IllegalAction):
        return (409 if exc.rule == "game-over" else 422), {"detail": str(exc), "rule": exc.rule}
    if isinstance(exc, Stale):
        return 409, {"detail": str(exc), "version": exc.version}
    if isinstance(exc, NeedsToken):
        return 401, {"detail": str(exc)}
    if isinstance(exc, Forbidden):
        return 403, {"detail": str(exc)}
    return 422, {"detail": str(exc)}
