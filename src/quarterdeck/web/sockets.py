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

Every message the socket sends goes through one queue, so a client sees updates in version order
and an ``ack`` or ``pong`` only after every update committed before it. The token is checked at
``hello``; every later message acts only for the seats that token holds.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Literal

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import REFUSALS, refusal
from .ratelimit import RateLimiter
from .service import GameService, sync_message

HELLO_TIMEOUT_S = 30
CLOSE_POLICY = 1008


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int | str | None = None


class Hello(Message):
    type: Literal["hello"]
    token: str | None = Field(None, max_length=256)
    since: int | None = Field(None, ge=0)


class Move(Message):
    type: Literal["move"]
    version: int = Field(ge=0)
    actions: list[str] = Field(min_length=1, max_length=500)
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


class SocketWatcher:
    """One connection as the service sees it: its seats and its outgoing queue."""

    def __init__(self) -> None:
        self.seats: frozenset[str] = frozenset()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def push(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)


async def serve_socket(websocket: WebSocket, game_id: str, service: GameService, limiter: RateLimiter) -> None:
    await websocket.accept()
    watcher = SocketWatcher()
    sender = asyncio.create_task(_send_all(websocket, watcher))
    try:
        hello = await _hello(websocket, watcher)
        if hello is None:
            return
        try:
            watcher.seats = await service.seats_of(game_id, hello.token)
            await service.subscribe(game_id, watcher, hello.since)
        except REFUSALS as exc:
            await _refuse(watcher, None, exc)
            await _drain(watcher)
            await websocket.close(CLOSE_POLICY)
            return
        bucket = limiter.bucket()
        while True:
            text = await websocket.receive_text()
            if not bucket.take():
                watcher.push(_error(None, 429, "too many messages on this socket; slow down"))
                continue
            await _handle(text, game_id, service, watcher)
    except WebSocketDisconnect:
        pass
    finally:
        service.unwatch(game_id, watcher)
        sender.cancel()


async def _hello(websocket: WebSocket, watcher: SocketWatcher) -> Hello | None:
    try:
        text = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT_S)
        hello = Incoming.validate_json(text)
    except (TimeoutError, ValidationError) as exc:
        detail = "say hello first" if isinstance(exc, TimeoutError) else _validation_detail(exc)
        watcher.push(_error(None, 400, detail))
        await _drain(watcher)
        await websocket.close(CLOSE_POLICY)
        return None
    if not isinstance(hello, Hello):
        watcher.push(_error(hello.id, 400, "the first message must be hello"))
        await _drain(watcher)
        await websocket.close(CLOSE_POLICY)
        return None
    return hello


async def _handle(text: str, game_id: str, service: GameService, watcher: SocketWatcher) -> None:
    try:
        message = Incoming.validate_json(text)
    except ValidationError as exc:
        watcher.push(_error(_message_id(text), 400, _validation_detail(exc)))
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
            watcher.push({"type": "pong", "id": message.id, "version": live.version})
            return
        else:
            watcher.push(_error(message.id, 400, "hello is said once, at the start"))
            return
    except REFUSALS as exc:
        await _refuse(watcher, message.id, exc)
        return
    watcher.push({"type": "ack", "id": message.id, "version": live.version})


async def _refuse(watcher: SocketWatcher, message_id: Any, exc: Exception) -> None:
    status, body = refusal(exc)
    watcher.push({"type": "error", "id": message_id, "status": status, **body})


def _error(message_id: Any, status: int, detail: str) -> dict[str, Any]:
    return {"type": "error", "id": message_id, "status": status, "detail": detail}


async def _send_all(websocket: WebSocket, watcher: SocketWatcher) -> None:
    while True:
        message = await watcher.outbox.get()
        try:
            await websocket.send_json(message)
        finally:
            watcher.outbox.task_done()


async def _drain(watcher: SocketWatcher) -> None:
    """Let the last words (an error) go out before closing; a dead socket does not hold us up."""
    try:
        await asyncio.wait_for(watcher.outbox.join(), 5)
    except TimeoutError:
        pass


def _message_id(text: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), int | str) else None


def _validation_detail(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error.get("loc", ()))
        problems.append(f"{where}: {error['msg']}" if where else error["msg"])
    return "malformed message: " + "; ".join(problems)
