"""How every refusal reads, over HTTP and over the socket alike: a status and a clear message."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, NotationError, ScenarioError, UnknownGame
from ..store import NotFound
from .live import Forbidden
from .service import BadRequest, NeedsToken, Stale

REFUSALS: tuple[type[Exception], ...] = (
    NotFound,
    UnknownGame,
    ScenarioError,
    BadRequest,
    NeedsToken,
    Forbidden,
    Stale,
    NotationError,
    IllegalAction,
)


def refusal(exc: Exception) -> tuple[int, dict[str, Any]]:
    """The status and JSON body for one of the REFUSALS."""
    if isinstance(exc, NotFound):
        return 404, {"detail": f"no game {exc.args[0]!r}"}
    if isinstance(exc, UnknownGame):
        return 422, {"detail": str(exc), "field": "game"}
    if isinstance(exc, ScenarioError):
        return 422, {"detail": str(exc), "field": exc.field}
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
