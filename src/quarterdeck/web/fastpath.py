"""The move request, served without FastAPI's per-request machinery.

`POST /api/games/{id}/moves` is the request every move of every game makes. Through FastAPI it
passes the routing, the dependency solver (service, bearer token, seats), the body reader and the
validation wrappers, which cost about as much CPU as playing the move itself (docs/performance.md).
`FastMoves` serves the ordinary case directly: a JSON body of at most `MAX_FAST_BODY` bytes that the
route's own model (`schemas.Turn`) accepts, from a well-formed bearer token. It calls the same
service and writes the same answers (a refusal as `errors.refusal` words it, as the route's
exception handlers do). Anything else, a malformed body or header, no token, a large body, is handed
to the FastAPI route untouched (the body already read is replayed to it), so every unusual request
is answered exactly as before and the API documentation stays the route's.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from pydantic import ValidationError

from .errors import REFUSALS, refusal
from .schemas import Turn
from .service import GameService, update_message

MOVES_PATH = re.compile(r"/api/games/([^/]+)/moves")
BEARER = re.compile(rb"Bearer ([A-Za-z0-9_\-]{1,256})")  # the tokens this server hands out
MAX_FAST_BODY = 64 * 1024  # a larger turn takes the ordinary route
WANTED = (b"content-type", b"content-length", b"authorization", b"transfer-encoding")


async def play_turn(service: GameService, game_id: str, seats: frozenset[str], turn: Turn) -> dict[str, Any]:
    """Play a turn for the caller's seats; the update it answers with (the route's and this path's)."""
    live, entries = await service.play(game_id, seats, turn.version, turn.actions, turn.seat)
    return update_message(live, seats, live.version - len(entries))


class FastMoves:
    """ASGI middleware: the ordinary move request served here, every other request passed on."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        path = MOVES_PATH.fullmatch(scope["path"])
        token = _ordinary(scope["headers"]) if path else None
        if path is None or token is None:
            await self.app(scope, receive, send)
            return
        body, more = await _read_body(receive)
        if body is None:  # the client went away
            return
        try:
            turn = None if more else Turn.model_validate_json(body)
        except ValidationError:
            turn = None
        if turn is None:
            await self.app(scope, _replaying(body, more, receive), send)
            return
        service: GameService = scope["app"].state.service
        game_id = path.group(1)
        try:
            await service.live(game_id)  # 404 before 403, as the route's dependency checks
            seats = await service.seats_of(game_id, token)
            status, answer = 200, await play_turn(service, game_id, seats, turn)
        except REFUSALS as exc:
            status, answer = refusal(exc)
        encoded = orjson.dumps(answer)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(encoded)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": encoded})


def _ordinary(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The bearer token of a request this path serves: JSON of a stated, small length, one
    well-formed bearer token, no header of these given twice; None sends it the ordinary way."""
    seen: dict[bytes, bytes] = {}
    for name, value in headers:
        if name in WANTED:
            if name in seen:
                return None
            seen[name] = value
    length = seen.get(b"content-length", b"")
    if (
        seen.get(b"content-type") != b"application/json"
        or b"transfer-encoding" in seen
        or not length.isdigit()
        or int(length) > MAX_FAST_BODY
    ):
        return None
    token = BEARER.fullmatch(seen.get(b"authorization", b""))
    return token.group(1).decode() if token else None


async def _read_body(receive: Any) -> tuple[bytes | None, bool]:
    """(body, more): the body, up to MAX_FAST_BODY bytes (more: True if it goes on); None if the
    client disconnected."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None, False
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), False
        if size > MAX_FAST_BODY:
            return b"".join(chunks), True


def _replaying(body: bytes, more: bool, receive: Any) -> Any:
    """A `receive` that gives the body already read, then whatever the client still sends."""
    given = False

    async def replay() -> dict[str, Any]:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": more}

    return replay
