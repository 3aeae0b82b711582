"""The FastAPI application: HTTP routes, error mapping, rate limit, static client and the socket."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match

from .. import games as registered_games
from ..store import GameStore
from . import schemas
from .computer import computer_pool, level_ladder, level_notes, levels
from .errors import REFUSALS, cut, refusal
from .fastpath import FastMoves, play_turn
from .ratelimit import RateLimiter
from .rules import rules_document
from .service import GameCatalogue, GameService, update_message
from .settings import Settings
from .sockets import serve_socket

STATIC = resources.files(__package__) / "static"

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ErrorBody, "description": why}
    for status, why in {
        400: "a body that is not JSON at all",
        401: "an action without a seat token",
        403: "a token that holds no seat here, or not the seat acted for",
        404: "no such game",
        409: "the game's version is not the one sent (stale or duplicate), or the game is over",
        413: "a request body over 8 MiB (`MAX_BODY`), refused before it is read",
        422: "a malformed request, an unknown game or scenario, or an illegal action",
        429: "too many requests on this connection",
    }.items()
}


# The server exports no OpenTelemetry; left on, FastAPI looks for a provider on every request.
NO_TELEMETRY: Any = {"tracing": False, "metrics": False, "logs": False}

bearer = HTTPBearer(auto_error=False, description="the seat token returned when the game was created or joined")


async def service_of(request: Request) -> GameService:
    """The service of the app handling this request (set up in its lifespan). Async, so FastAPI
    does not send it to a worker thread on every request."""
    return request.app.state.service


Service = Annotated[GameService, Depends(service_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def caller_seats(game_id: str, service: Service, credentials: Credentials) -> frozenset[str]:
    """The seats the caller's token holds in this game (none for a spectator)."""
    await service.live(game_id)  # 404 before 403: an unknown game says so
    return await service.seats_of(game_id, credentials.credentials if credentials else None)


Seats = Annotated[frozenset[str], Depends(caller_seats)]


def create_app(settings: Settings | None = None, catalogue: GameCatalogue | None = None) -> FastAPI:
    settings = settings or Settings()
    limiter = RateLimiter(settings.rate_burst, settings.rate_per_second)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = GameStore(settings.database_url)
        service = GameService(store, catalogue or registered_games, lambda: computer_pool(settings.computer_workers))
        app.state.service = service
        app.state.limiter = limiter
        app.state.settings = settings
        service.resume_computers(store.ongoing_ids())
        follower = asyncio.create_task(service.follow_changes())
        try:
            yield
        finally:
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)
            await service.close()
            store.close()

    app = FastAPI(title="Quarterdeck", version="1", lifespan=lifespan, responses=ERRORS, telemetry=NO_TELEMETRY)
    app.openapi = lambda: _openapi(app, catalogue or registered_games)  # type: ignore[method-assign]
    _add_error_handlers(app)

    app.add_middleware(FastMoves)  # inside the rate limit: the last added runs first
    app.add_middleware(RateLimit, limiter=limiter)
    app.add_middleware(BodyLimit)

    shipped: list[dict[str, Any]] = []  # the games and scenarios shipped do not change while it runs
    # Lobbies opened together on a cold server wait for the whole list: never a part of it, nor twice.
    shipping = threading.Lock()

    @app.get("/api/catalogue", response_model=schemas.Catalogue)
    def catalogue_(service: Service) -> dict[str, Any]:
        """The games, their scenarios and each scenario's seats, and the computer's levels."""
        with shipping:
            if not shipped:
                shipped.extend([_shipped_game(service, name) for name in service.catalogue.names()])
        return {"games": shipped, "levels": levels(), "level_info": level_ladder()}

    @app.get("/api/rules/{game}", response_model=schemas.Rules)
    def rules(game: Annotated[str, Path(max_length=64)], service: Service) -> dict[str, Any]:
        """A game's rules reference (docs/rules/<game>.md, else its summary) as HTML, for the rules panel."""
        return rules_document(service.game(game))

    @app.get("/api/games", response_model=schemas.GameList)
    def list_games(
        service: Service,
        status: Annotated[str | None, Query(pattern="^(ongoing|finished)$")] = None,
        ids: Annotated[
            str | None, Query(max_length=4000, pattern="^[A-Za-z0-9_,-]*$", description="comma-separated ids you know")
        ] = None,
    ) -> dict[str, Any]:
        """Ongoing or finished public games, and those of `ids` (your own), the most recently played first.

        A game not made public is never listed to a stranger: knowing its id is what lets one watch it."""
        known = [game_id for game_id in (ids or "").split(",") if game_id][:100]
        rows = service.list_games(status, known)
        return {"games": [{**_summary(row), "updated_at": row.updated_at.isoformat()} for row in rows]}

    @app.post("/api/games", response_model=schemas.CreatedGame, status_code=201)
    async def create_game(body: schemas.CreateGame, service: Service) -> dict[str, Any]:
        """Start a game against the computer, at one screen, or with a friend by invitation."""
        seed = body.seed if body.seed is not None else random.randrange(2**31)
        created = await service.create(
            body.game, body.scenario, body.options, seed, body.opponent, body.seat, body.level, body.public
        )
        return {
            "id": created.game_id,
            "token": created.token,
            "seats": created.seats,
            "invitations": created.invitations,
        }

    @app.post("/api/import", response_model=schemas.ImportedGame, status_code=201)
    async def import_game(body: schemas.ImportGame, service: Service) -> dict[str, Any]:
        """A game made from a saved record (.qdr): every move replayed through the rules, then
        replayed or played on against the kind of opponent the record names (or the one chosen).
        A corrupt or illegal record is refused naming its line, and nothing is made."""
        created, live, opponent, level = await service.import_record(
            body.record, body.opponent, body.seat, body.level, body.public
        )
        return {
            "id": created.game_id,
            "token": created.token,
            "seats": created.seats,
            "invitations": created.invitations,
            "opponent": opponent,
            "level": level if opponent == "computer" else None,
            "moves": live.version,
            "status": live.row.status,
        }

    @app.get("/api/games/{game_id}", response_model=schemas.GameDetail)
    async def get_game(game_id: str, service: Service, seats: Seats) -> Response:
        """The game as the token's seats see it (a spectator's view without a token)."""
        live = await service.live(game_id)
        return Encoded({"view": live.view(seats), "history": live.history(seats)})

    @app.get("/api/games/{game_id}/history", response_model=schemas.History)
    async def history(game_id: str, service: Service, seats: Seats, after: Annotated[int, Query(ge=0)] = 0) -> Response:
        """The moves (with their events) after version `after`: what a client missed."""
        live = await service.live(game_id)
        return Encoded({"version": live.version_for(seats), "entries": live.history(seats, after)})

    @app.post("/api/games/{game_id}/moves", response_model=schemas.Update)
    async def play(game_id: str, body: schemas.Turn, service: Service, seats: Seats) -> Response:
        """Play a turn: the actions apply and are stored together, or none does."""
        return Encoded(await play_turn(service, game_id, seats, body))

    @app.post("/api/games/{game_id}/preview", response_model=schemas.GameView)
    async def preview(game_id: str, body: schemas.Turn, service: Service, seats: Seats) -> Response:
        """The game after a turn still being planned; nothing is stored and no die is rolled."""
        return Encoded((await service.preview(game_id, seats, body.version, body.actions, body.seat)).view(seats))

    @app.post("/api/games/{game_id}/ask", response_model=schemas.Answer)
    async def ask(game_id: str, body: schemas.Question, service: Service, seats: Seats) -> dict[str, Any]:
        """One of the game's own questions (the view's `questions`, such as Naval Warfare's `range`),
        answered for the table after the turn still being planned; it decides nothing."""
        return {"lines": await service.ask(game_id, seats, body.question, body.version, body.actions, body.seat)}

    @app.post("/api/games/{game_id}/resign", response_model=schemas.Update)
    async def resign(game_id: str, body: schemas.SeatChoice, service: Service, seats: Seats) -> Response:
        live, entries = await service.resign(game_id, seats, body.seat)
        return Encoded(update_message(live, seats, live.version - len(entries)))

    @app.post("/api/games/{game_id}/draw", response_model=schemas.Update)
    async def draw(game_id: str, body: schemas.DrawAnswer, service: Service, seats: Seats) -> Response:
        """Offer a draw, or accept or decline the other side's offer."""
        live, _ = await service.draw(game_id, seats, body.answer, body.seat)
        return Encoded(update_message(live, seats, live.version))

    @app.post("/api/games/{game_id}/join", response_model=schemas.Joined)
    async def join(game_id: str, body: schemas.JoinGame, service: Service) -> dict[str, Any]:
        """Take the seat an invitation offers; the invitation then stops working."""
        token, seats_taken = await service.join(game_id, body.invitation)
        return {"token": token, "seats": seats_taken}

    @app.get("/api/games/{game_id}/record", response_class=PlainTextResponse)
    async def record(game_id: str, service: Service, seats: Seats) -> PlainTextResponse:
        """The game record as text (secret decisions appear once they are revealed)."""
        live = await service.live(game_id)
        return PlainTextResponse(
            live.record(seats).to_text(),
            headers={"Content-Disposition": f'attachment; filename="{live.game.name}-{game_id}.txt"'},
        )

    @app.get("/api/games/{game_id}/replay", response_model=schemas.Replay)
    async def replay(
        game_id: str, service: Service, seats: Seats, moves: Annotated[int, Query(ge=0)] = 0
    ) -> dict[str, Any]:
        """The state after the first `moves` moves, to step through the game: a finished game's whole
        state; during play, as your seats see it, up to the first decision still secret from you."""
        live = await service.live(game_id)
        moves, state = live.state_after(moves, seats)
        return {"moves": moves, "state": state}

    @app.websocket("/ws/games/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(websocket, game_id, websocket.app.state.service, websocket.app.state.limiter)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/game/{game_id}", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    return app


def _summary(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in schemas.Summary.model_fields if name != "updated_at"}


class RateLimit:
    """The per-connection limit on /api/ requests, as plain ASGI (no extra task per request)."""

    def __init__(self, app: Any, limiter: RateLimiter):
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            client = scope.get("client")
            if not self.limiter.allow(("http", *client) if client else "?"):
                await _error(429, "too many requests on this connection; slow down")(scope, receive, send)
                return
        await self.app(scope, receive, send)


# The largest body a client sends is a record to import, at most a million characters as JSON text.
MAX_BODY = 8 * 1024 * 1024


class BodyLimit:
    """Refuses an HTTP request whose body is over `limit` bytes before anything reads it: by its
    declared length, or, when it does not declare one, once that much has come."""

    def __init__(self, app: Any, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            declared = headers.get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > self.limit:
                await self._refuse(scope, receive, send)
                return
            if declared is None and b"transfer-encoding" in headers:  # a length not declared: count it
                whole = await self._read_whole(receive)
                if whole is None:
                    await self._refuse(scope, receive, send)
                    return
                receive = whole
        await self.app(scope, receive, send)

    async def _read_whole(self, receive: Any) -> Any:
        """A receive channel that hands on the body already read whole, or None once it passes the limit."""
        messages: list[dict[str, Any]] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.limit:
                return None
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        queued = iter(messages)

        async def replay() -> dict[str, Any]:
            return next(queued, None) or await receive()

        return replay

    async def _refuse(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        refusal = _error(413, f"the request body is over {self.limit} bytes, the most this server reads")
        await refusal(scope, receive, send)


class Encoded(Response):
    """JSON encoded once with orjson, and sent as it is: the body was built to the response model
    the route documents, so FastAPI need not validate and re-encode it."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _shipped_game(service: GameService, name: str) -> dict[str, Any]:
    """A game as the lobby lists it: its scenarios with their seats, and its notes on the levels."""
    game = service.game(name)
    scenarios = [{**vars(info), "seats": list(game.scenario_seats(info.name))} for info in game.scenarios()]
    return {
        "name": name,
        "title": game.title,
        "default_scenario": game.default_scenario,
        "scenarios": scenarios,
        "seats": next(s["seats"] for s in scenarios if s["name"] == game.default_scenario),
        "level_notes": level_notes(game),
    }


def _openapi(app: FastAPI, catalogue: GameCatalogue) -> dict[str, Any]:
    """The schema FastAPI derives, made exact where it cannot know: reading (GET, and asking a
    game's own question) works without a token, as a spectator (an empty security alternative); a
    refusal is JSON whatever the success body is (the record is text); and a new game's game,
    scenario, seat and level are the ones this server has."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        for path, operations in schema["paths"].items():
            # a question decides nothing: a spectator may ask one of the table as it stands
            reading = operations.get("post" if path == "/api/games/{game_id}/ask" else "get")
            if reading and reading.get("security"):
                reading["security"].append({})
            for operation in operations.values():
                for status, response in operation.get("responses", {}).items():
                    if status.startswith("4"):
                        response["content"] = error
        _known_values(schema["components"]["schemas"]["CreateGame"]["properties"], catalogue)
        _known_values(schema["components"]["schemas"]["ImportGame"]["properties"], catalogue)
        app.openapi_schema = schema
    return app.openapi_schema


def _known_values(fields: dict[str, Any], catalogue: GameCatalogue) -> None:
    """Enums for the fields of a new game whose values the server knows (each game's own scenario
    and seat are still checked when the game is made)."""
    games = [catalogue.get(name) for name in catalogue.names()]
    shipped = [(game, info.name) for game in games for info in game.scenarios()]
    known = {
        "game": [game.name for game in games],
        "scenario": sorted({scenario for _, scenario in shipped}),
        "seat": sorted({seat for game, scenario in shipped for seat in game.new_initial_state(scenario).players}),
        "level": levels(),
    }
    for name, values in known.items():
        if name not in fields:  # an import names its game and scenario in the record
            continue
        choices = fields[name].get("anyOf", [fields[name]])
        next(choice for choice in choices if choice.get("type") == "string")["enum"] = values


def _error(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def refused(_request: Request, exc: Exception) -> JSONResponse:
        status, body = refusal(exc)
        return JSONResponse(body, status_code=status)

    async def malformed(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _error(422, _validation_message(exc))

    async def wrong_method(request: Request, _exc: Exception) -> JSONResponse:
        # Starlette answers with the methods of the first route whose path matches; a path served
        # by several routes (GET and POST /api/games) takes the methods of all of them.
        allowed = sorted(
            method
            for route in request.app.router.routes
            if route.matches(request.scope)[0] is Match.PARTIAL
            for method in getattr(route, "methods", None) or ()
        )
        response = _error(405, f"{request.method} is not allowed here; allowed: {', '.join(allowed)}")
        response.headers["Allow"] = ", ".join(allowed)
        return response

    async def unreadable(_request: Request, exc: Exception) -> JSONResponse:
        # FastAPI's only 400 here: a body its JSON reader failed on, the failure as the cause
        why = {
            UnicodeDecodeError: "JSON is UTF-8 text, and these bytes are not",
            RecursionError: "it nests arrays or objects too deeply to be read",
        }.get(type(exc.__cause__), "it cannot be read")
        return _error(400, f"malformed request: the body is not JSON: {why}")

    for exc_type in REFUSALS:
        app.add_exception_handler(exc_type, refused)
    app.add_exception_handler(RequestValidationError, malformed)
    app.add_exception_handler(400, unreadable)
    app.add_exception_handler(405, wrong_method)


def _validation_message(exc: RequestValidationError) -> str:
    problems = []
    for error in exc.errors()[:5]:
        if error.get("type") == "json_invalid":  # its place is a character of the body, not a field
            at, why = error["loc"][-1], error.get("ctx", {}).get("error", "")
            problems.append(f"the body is not JSON: {why} at character {at}" if why else "the body is not JSON")
            continue
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", "invalid"))
    return cut("malformed request: " + "; ".join(problems))
