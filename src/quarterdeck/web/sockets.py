"""The game socket: pushed updates with a version, catch-up after a reconnect, and moves.

Client to server (JSON text frames); the first must be ``hello``:

    {"type": "hello", "token": "<seat token or absent for a spectator>", "since": <version or absent>}
    {"type": "move", "id": 1, "version": 7, "actions": ["..."], "seat": "<optional>"}
    {"type": "resign", "id": 2, "seat": "<optional>"}
    {"type": "draw", "id": 3, "answer": "offer" | "accept" | "decline", "seat": "<optional>"}
    {"type": "ping", "id": 4}
    {"type": "sync", "id": 5}

Server to client:

    {"type": "sync", "version": v, "view": {...}, "history": [...]}           after hello without `since`
    {"type": "update", "version": v, "entries": [...missed or new...], "view": {...}}
    {"type": "ack", "id": 1, "version": v}     (after the update that carries the move)
    {"type": "pong", "id": 4, "version": v}
    {"type": "error", "id": 1, "status": 409, "detail": "...", "version": v}

Frames are text, at most 256 KiB, nested at most 8 deep: a binary frame is closed with 1003, a
larger one with 1009, a deeper one refused with an error (the JSON is never parsed). Every message
the socket sends goes through one queue, so a client sees updates in version order
and an ``ack`` or ``pong`` only after every update committed before it. The token is checked at
``hello``; every later message acts only for the seats that token holds. A message that cannot be
sent (it cannot be encoded, say) is logged and the socket closed with 1011, never dropped quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Any, Literal

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import REFUSALS, cut, refusal
from .ratelimit import RateLimiter
from .schemas import ActionText
from .service import GameService, encode, sync_message

HELLO_TIMEOUT_S = 30
CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_INTERNAL_ERROR = 1011
MAX_MESSAGE_CHARS = 256 * 1024  # a turn of 500 actions fits many times over
# What the server reads of one frame at most (UTF-8 takes up to four bytes a character): a larger
# one is closed with 1009 before it is held whole, rather than read and then refused.
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_CHARS
MAX_DEPTH = 8  # the protocol nests two deep; JSON deeper than this is never parsed

log = logging.getLogger(__name__)


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int | Annotated[str, Field(max_length=64)] | None = None


class Hello(Message):
    type: Literal["hello"]
    token: str | None = Field(None, max_length=256)
    since: int | None = Field(None, ge=0)


class Move(Message):
    type: Literal["move"]
    version: int = Field(ge=0)
    actions: list[ActionText] = Field(min_length=1, max_length=500)
    seat: str | None = Field(None, max_length=64)


class Resign(Message):
    type: Literal["resign"]
    seat: str | None = Field(None, max_length=64)


class Draw(Message):
    type: Literal["draw"]
    answer: Literal["offer", "accept", "decline"]
    seat: str | None = Field(None, max_length=64)


class Ping(Message):
    type: Literal["ping"]


class Sync(Message):
    type: Literal["sync"]


Incoming = TypeAdapter(Annotated[Hello | Move | Resign | Draw | Ping | Sync, Field(discriminator="type")])


class Refused(Exception):
    """A frame that is not a message of the protocol; `message_id` is its id, when that could be read."""

    def __init__(self, detail: str, message_id: Any = None):
        super().__init__(detail)
        self.detail = detail
        self.message_id = message_id


class Closing(Exception):
    """A frame the socket does not read at all: it is closed with `code`."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


class SocketWatcher:
    """One connection as the service sees it: its seats and its outgoing queue.

    A message is a dict, or a str already encoded once for every watcher that shares it."""

    def __init__(self) -> None:
        self.seats: frozenset[str] = frozenset()
        self.outbox: asyncio.Queue[dict[str, Any] | str] = asyncio.Queue()

    def push(self, message: dict[str, Any] | str) -> None:
        self.outbox.put_nowait(message)


async def serve_socket(websocket: WebSocket, game_id: str, service: GameService, limiter: RateLimiter) -> None:
    await websocket.accept()
    watcher = SocketWatcher()
    sender = asyncio.create_task(_send_all(websocket, watcher, game_id))
    try:
        hello = await _hello(websocket, watcher)
        if hello is None:
            return
        try:
            watcher.seats = await service.seats_of(game_id, hello.token)
            await service.subscribe(game_id, watcher, hello.since)
        except REFUSALS as exc:
            await _refuse(watcher, None, exc)
            await _close(websocket, watcher, CLOSE_POLICY)
            return
        bucket = limiter.bucket()
        while True:
            text = await _receive_text(websocket)
            if not bucket.take():
                watcher.push(_error(None, 429, "too many messages on this socket; slow down"))
                continue
            await _handle(text, game_id, service, watcher)
    except Closing as closing:
        await _close(websocket, watcher, closing.code, closing.reason)
    except WebSocketDisconnect:
        pass
    finally:
        service.unwatch(game_id, watcher)
        sender.cancel()


async def _receive_text(websocket: WebSocket) -> str:
    """The next text frame; Closing for a binary or oversized one, WebSocketDisconnect at the end."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        raise Closing(CLOSE_UNSUPPORTED_DATA, "this socket reads JSON text frames only")
    if len(text) > MAX_MESSAGE_CHARS:
        raise Closing(CLOSE_TOO_BIG, f"a message may be at most {MAX_MESSAGE_CHARS} characters")
    return text


def parse(text: str) -> Hello | Move | Resign | Draw | Ping | Sync:
    """One message of the protocol from a text frame; Refused (with the id, when it can be read)."""
    if _nested_deeper_than(text, MAX_DEPTH):
        raise Refused(f"malformed message: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        data = orjson.loads(text)  # strict: a lone surrogate is refused here, so nothing later chokes on it
    except orjson.JSONDecodeError as exc:
        raise Refused(cut(f"malformed message: not JSON ({exc})")) from None
    message_id = data.get("id") if isinstance(data, dict) else None
    if not isinstance(message_id, int | str) or isinstance(message_id, bool) or len(str(message_id)) > 64:
        message_id = None
    try:
        return Incoming.validate_python(data)
    except ValidationError as exc:
        raise Refused(_validation_detail(exc), message_id) from None


def _nested_deeper_than(text: str, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (brackets inside strings do not count).
    Counting the brackets first keeps the character walk for the rare text that has many."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


async def _hello(websocket: WebSocket, watcher: SocketWatcher) -> Hello | None:
    try:
        hello = parse(await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT_S))
    except (TimeoutError, Refused) as exc:
        detail = "say hello first" if isinstance(exc, TimeoutError) else exc.detail
        watcher.push(_error(None, 400, detail))
        await _close(websocket, watcher, CLOSE_POLICY)
        return None
    if not isinstance(hello, Hello):
        watcher.push(_error(hello.id, 400, "the first message must be hello"))
        await _close(websocket, watcher, CLOSE_POLICY)
        return None
    return hello


async def _handle(text: str, game_id: str, service: GameService, watcher: SocketWatcher) -> None:
    try:
        message = parse(text)
    except Refused as refused:
        watcher.push(_error(refused.message_id, 400, refused.detail))
        return
    try:
        if isinstance(message, Move):
            live, _ = await service.play(game_id, watcher.seats, message.version, message.actions, message.seat)
        elif isinstance(message, Resign):
            live, _ = await service.resign(game_id, watcher.seats, message.seat)
        elif isinstance(message, Draw):
            live, _ = await service.draw(game_id, watcher.seats, message.answer, message.seat)
        elif isinstance(message, Sync):
            watcher.push(sync_message(await service.live(game_id), watcher.seats))
            return
        elif isinstance(message, Ping):
            live = await service.live(game_id)
            watcher.push({"type": "pong", "id": message.id, "version": live.version_for(watcher.seats)})
            return
        else:
            watcher.push(_error(message.id, 400, "hello is said once, at the start"))
            return
    except REFUSALS as exc:
        await _refuse(watcher, message.id, exc)
        return
    watcher.push({"type": "ack", "id": message.id, "version": live.version_for(watcher.seats)})


async def _refuse(watcher: SocketWatcher, message_id: Any, exc: Exception) -> None:
    status, body = refusal(exc)
    watcher.push({"type": "error", "id": message_id, "status": status, **body})


def _error(message_id: Any, status: int, detail: str) -> dict[str, Any]:
    return {"type": "error", "id": message_id, "status": status, "detail": detail}


async def _send_all(websocket: WebSocket, watcher: SocketWatcher, game_id: str) -> None:
    """Send the outbox in order. If sending fails for any reason but a closed connection, the failure
    is logged and the socket closed with 1011: a client never waits on a sender that died."""
    try:
        while True:
            message = await watcher.outbox.get()
            try:
                await websocket.send_text(message if isinstance(message, str) else encode(message))
            finally:
                watcher.outbox.task_done()
    except (WebSocketDisconnect, OSError):  # the client went away: nothing to report
        return
    except Exception:
        log.exception("the socket of game %s could not send a message; closing it", game_id)
        watcher.outbox = _Discarding()
        with contextlib.suppress(Exception):  # the connection may be gone already
            await websocket.close(CLOSE_INTERNAL_ERROR)


class _Discarding(asyncio.Queue[dict[str, Any] | str]):
    """The outbox of a socket whose sender has stopped: what is pushed is dropped, not hoarded."""

    def put_nowait(self, item: dict[str, Any] | str) -> None:
        pass


async def _close(websocket: WebSocket, watcher: SocketWatcher, code: int, reason: str = "") -> None:
    """Let the last words (an error) go out, then close; a dead socket does not hold us up."""
    try:
        await asyncio.wait_for(watcher.outbox.join(), 5)
    except TimeoutError:
        pass
    await websocket.close(code, reason)


def _validation_detail(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error.get("loc", ()))
        problems.append(f"{where}: {error['msg']}" if where else error["msg"])
    return cut("malformed message: " + "; ".join(problems))
