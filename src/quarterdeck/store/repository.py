"""GameStore: the only code that talks to the database.

Every write is one short transaction. On SQLite the database runs in WAL mode with
``synchronous=FULL`` and writers open ``BEGIN IMMEDIATE``, so a writer takes the write lock before
it reads and a committed move survives a killed process. On PostgreSQL the compare-and-swap
``UPDATE ... WHERE version = :expected`` row-locks the game, so of two concurrent writers exactly one
sees its row.

Moves are written by `commit_moves`, which groups the appends that arrive while a transaction is
committing into the next one (group commit): each append keeps its own compare-and-swap, and its
caller is answered only once the transaction that holds it has committed, so what is acknowledged
is durable, but many moves share one durable commit (one fsync on SQLite) and one writer thread.

Other server processes learn of a write through `changes()`: on PostgreSQL every write sends a
``NOTIFY`` (delivered when its transaction commits) that a listening connection receives; on SQLite,
where the processes share one machine, the games being watched are polled by their ``updated_at``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
import uuid
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url

from .models import games, metadata, moves, tokens

_IMMEDIATE = "quarterdeck_immediate"
CHANNEL = "quarterdeck_games"  # PostgreSQL NOTIFY channel: payload "<origin> <game id> <version> ..."
NOTIFY_GAMES = 200  # games named in one NOTIFY (its payload must stay under 8,000 bytes)
POLL_S = 0.5  # SQLite: how often the watched games' rows are looked at
RECONNECT_S = (0.5, 10.0)  # PostgreSQL listener: first and longest wait before reconnecting

log = logging.getLogger(__name__)


class VersionConflict(Exception):
    """The game moved on: the expected version is not the stored one."""

    def __init__(self, current: int):
        super().__init__(f"the game is at version {current}")
        self.current = current


class NotFound(Exception):
    """No game with that id."""


@dataclass
class GameRow:
    id: str
    game: str
    scenario: str | None
    options: dict[str, Any]
    seed: int
    players: dict[str, str]
    version: int = 0
    status: str = "ongoing"
    result: str = "*"
    termination: str = ""
    agreed: str | None = None
    draw_offer: str | None = None
    public: bool = False
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    updated_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))


@dataclass(frozen=True)
class SeatGrant:
    """A token's rights: the seats it acts for, or (an invitation) the seats it may claim."""

    kind: str
    seats: tuple[str, ...]


def default_database_url() -> str:
    """DATABASE_URL when set, else an SQLite file in the user's data folder."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return normalise_url(url)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "quarterdeck"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


def normalise_url(url: str) -> str:
    """Plain postgres:// URLs (as hosting services give them) use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True)
class Append:
    """Moves to append to a game at `expected_version`, and other columns to set with them."""

    game_id: str
    expected_version: int
    moves: tuple[tuple[str, str], ...]
    changes: dict[str, Any] = field(default_factory=dict)


GROUP_MAX = 256  # appends in one transaction at most


class GameStore:
    def __init__(self, url: str):
        self.url = normalise_url(url)
        self.is_sqlite = make_url(self.url).get_backend_name() == "sqlite"
        self.engine = _sqlite_engine(self.url) if self.is_sqlite else create_engine(self.url, pool_pre_ping=True)
        self.origin = uuid.uuid4().hex[:16]  # names this store's own notifications, which it skips
        self._queue: list[tuple[Append, asyncio.Future[int]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="quarterdeck-writer")
        self.own_stamps: dict[str, tuple[int, dt.datetime]] = {}  # the last row each game was given here
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)

    def close(self) -> None:
        self._writer_thread.shutdown()
        self.engine.dispose()

    # --- transactions ------------------------------------------------------------------------
    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn.execution_options(**{_IMMEDIATE: True})
            with conn.begin():
                yield conn

    # --- games ---------------------------------------------------------------------------------
    def create_game(self, row: GameRow, grants: dict[str, SeatGrant], played: Sequence[tuple[str, str]] = ()) -> None:
        """Store a new game with its token hashes (hash -> grant), and the moves it starts with (an
        imported record; `row.version` counts them) in the same transaction: all of it or nothing."""
        with self._writing() as conn:
            conn.execute(insert(games).values(**_game_values(row)))
            if played:
                conn.execute(
                    insert(moves),
                    [
                        {"game_id": row.id, "number": number, "seat": seat, "text": text}
                        for number, (seat, text) in enumerate(played, start=1)
                    ],
                )
            for token_hash, grant in grants.items():
                conn.execute(
                    insert(tokens).values(
                        token_hash=token_hash, game_id=row.id, kind=grant.kind, seats=" ".join(grant.seats)
                    )
                )

    def get_game(self, game_id: str) -> GameRow:
        with self._reading() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        if row is None:
            raise NotFound(game_id)
        return _game_row(row)

    def list_games(self, status: str | None = None, ids: Collection[str] = (), limit: int = 100) -> list[GameRow]:
        """The public games, and those named in `ids` (a caller's own), most recently played first."""
        listed = games.c.public.is_(True)
        if ids:
            listed = or_(listed, games.c.id.in_(list(ids)))
        query = select(games).where(listed).order_by(games.c.updated_at.desc()).limit(limit)
        if status:
            query = query.where(games.c.status == status)
        with self._reading() as conn:
            return [_game_row(row) for row in conn.execute(query).mappings()]

    def ongoing_ids(self) -> list[str]:
        with self._reading() as conn:
            return list(conn.execute(select(games.c.id).where(games.c.status == "ongoing")).scalars())

    def version(self, game_id: str) -> int:
        with self._reading() as conn:
            version = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
        if version is None:
            raise NotFound(game_id)
        return int(version)

    def moves(self, game_id: str, after: int = 0) -> list[tuple[str, str]]:
        """The stored moves numbered after `after`, in order, as (seat, notation)."""
        query = (
            select(moves.c.seat, moves.c.text)
            .where(moves.c.game_id == game_id, moves.c.number > after)
            .order_by(moves.c.number)
        )
        with self._reading() as conn:
            return [(seat, text) for seat, text in conn.execute(query)]

    def append_moves(
        self,
        game_id: str,
        expected_version: int,
        new_moves: Sequence[tuple[str, str]],
        **changes: Any,
    ) -> int:
        """Append moves if the game is still at `expected_version`; returns the new version.

        `changes` updates other columns (status, result, termination, draw_offer, agreed, players) in the same
        transaction. Raises VersionConflict (with the stored version) when another writer got there first.
        """
        (result,) = self.append_many([Append(game_id, expected_version, tuple(new_moves), changes)])
        if isinstance(result, Exception):
            raise result
        return result

    def append_many(self, appends: Sequence[Append]) -> list[int | VersionConflict | NotFound]:
        """Several appends in one transaction, each with its own compare-and-swap: per append, the new
        version, or the VersionConflict or NotFound that refused it (and changed nothing of it).

        The group's games are read and row-locked first, in the order of their ids (so two
        processes' transactions that touch the same games lock them in the same order and cannot
        deadlock on PostgreSQL; SQLite's writer holds the whole database). Each append is compared
        with its game's version as locked, then the rows of those that match are updated, still
        `WHERE version = :expected`, and their moves inserted, each by one statement for the whole
        group, and (PostgreSQL) one NOTIFY names all their games: a handful of round trips per
        group, not several per move."""
        results: list[int | VersionConflict | NotFound] = []
        now = dt.datetime.now(dt.UTC)
        with self._writing() as conn:
            current = self._locked_versions(conn, sorted({append.game_id for append in appends}))
            for append in appends:  # in arrival order: two appends to one game chain
                version = current.get(append.game_id)
                if version is None:
                    results.append(NotFound(append.game_id))
                elif version != append.expected_version:
                    results.append(VersionConflict(version))
                else:
                    current[append.game_id] = append.expected_version + len(append.moves)
                    results.append(current[append.game_id])
            swapped = [
                (append, result) for append, result in zip(appends, results, strict=True) if isinstance(result, int)
            ]
            self._write_swapped(conn, swapped, now)
        for append, version in swapped:
            self.own_stamps[append.game_id] = (version, _naive_utc(now))
        return results

    def _locked_versions(self, conn: Connection, game_ids: list[str]) -> dict[str, int]:
        """The stored version of each of these games that exists, its row locked (PostgreSQL) until
        the transaction ends."""
        query = select(games.c.id, games.c.version).where(games.c.id.in_(game_ids)).order_by(games.c.id)
        return {row.id: int(row.version) for row in conn.execute(query.with_for_update())}

    def _write_swapped(self, conn: Connection, swapped: list[tuple[Append, int]], now: dt.datetime) -> None:
        """The rows, moves and notices of the appends that won their compare-and-swap."""
        by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for append, version in swapped:
            changes = dict(append.changes)
            if "players" in changes:
                changes["players"] = json.dumps(changes["players"])
            by_columns.setdefault(tuple(sorted(changes)), []).append(
                {"at_id": append.game_id, "at_version": append.expected_version, "set_version": version}
                | {"set_updated_at": now}
                | {f"set_{name}": value for name, value in changes.items()}
            )
        for columns, rows in by_columns.items():
            updated = conn.execute(_swap_statement(columns), rows).rowcount
            if updated != len(rows):  # the rows are locked: only a broken database gets here
                raise RuntimeError(f"{updated} of {len(rows)} locked games took their move; nothing is stored")
        moved = [
            {"game_id": append.game_id, "number": append.expected_version + offset, "seat": seat, "text": text}
            for append, _ in swapped
            for offset, (seat, text) in enumerate(append.moves, start=1)
        ]
        if moved:
            conn.execute(_INSERT_MOVES, moved)
        if not self.is_sqlite:  # sent to the listeners when (and only if) this transaction commits
            for start in range(0, len(swapped), NOTIFY_GAMES):
                named = [f"{append.game_id} {version}" for append, version in swapped[start : start + NOTIFY_GAMES]]
                conn.execute(_NOTIFY, {"payload": " ".join([self.origin, *named])})

    async def commit_moves(
        self, game_id: str, expected_version: int, new_moves: Sequence[tuple[str, str]], **changes: Any
    ) -> int:
        """`append_moves`, grouped with the other appends waiting meanwhile into one transaction on
        the store's one writer thread; returns once that transaction has committed."""
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((Append(game_id, expected_version, tuple(new_moves), changes), answer))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        return await answer

    async def _write_queued(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            group, self._queue = self._queue[:GROUP_MAX], self._queue[GROUP_MAX:]
            try:
                results: list[Any] = await loop.run_in_executor(
                    self._writer_thread, self.append_many, [append for append, _ in group]
                )
            except Exception as failure:  # the transaction failed: nothing of it was stored
                results = [failure] * len(group)
            for (_, answer), result in zip(group, results, strict=True):
                if answer.done():
                    continue
                if isinstance(result, Exception):
                    answer.set_exception(result)
                else:
                    answer.set_result(result)

    def stamps(self, game_ids: Collection[str]) -> dict[str, tuple[int, dt.datetime]]:
        """(version, updated_at) of each of these games that exists."""
        if not game_ids:
            return {}
        query = select(games.c.id, games.c.version, games.c.updated_at).where(games.c.id.in_(list(game_ids)))
        with self._reading() as conn:
            return {row.id: (int(row.version), _naive_utc(row.updated_at)) for row in conn.execute(query)}

    # --- other processes' writes ------------------------------------------------------------------
    def changes(self, watched: Callable[[], Collection[str]]) -> AsyncIterator[set[str]]:
        """Forever: sets of game ids that another process may have written to.

        `watched()` names the games of interest (those with sockets here). After the feed (re)starts
        it names all of them, since a write may have come unheard. Close it with `aclose()`.
        """
        return self._polled_changes(watched) if self.is_sqlite else self._notified_changes(watched)

    async def _polled_changes(self, watched: Callable[[], Collection[str]]) -> AsyncIterator[set[str]]:
        seen: dict[str, tuple[int, dt.datetime]] = {}
        while True:
            ids = set(watched())
            stamps = await asyncio.to_thread(self.stamps, ids) if ids else {}
            # A game whose row is as this process last wrote it has nothing new to tell.
            changed = {
                game_id
                for game_id, stamp in stamps.items()
                if seen.get(game_id) != stamp and self.own_stamps.get(game_id) != stamp
            }
            seen = stamps
            if changed:
                yield changed
            await asyncio.sleep(POLL_S)

    async def _notified_changes(self, watched: Callable[[], Collection[str]]) -> AsyncIterator[set[str]]:
        import psycopg  # the PostgreSQL driver is only needed with PostgreSQL

        conninfo = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        wait = RECONNECT_S[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    wait = RECONNECT_S[0]
                    missed = set(watched())  # anything written while nobody listened
                    if missed:
                        yield missed
                    async for notice in conn.notifies():
                        origin, *named = notice.payload.split() or [""]
                        if origin != self.origin and named[::2]:
                            yield set(named[::2])
            except psycopg.Error as exc:
                log.warning("listening for other servers' moves failed (%s); retrying in %.1f s", exc, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECONNECT_S[1])

    # --- tokens --------------------------------------------------------------------------------
    def grant(self, game_id: str, token_hash: str) -> SeatGrant | None:
        query = select(tokens.c.kind, tokens.c.seats).where(
            tokens.c.game_id == game_id, tokens.c.token_hash == token_hash
        )
        with self._reading() as conn:
            row = conn.execute(query).first()
        return None if row is None else SeatGrant(row.kind, tuple(row.seats.split()))

    def redeem_invitation(self, game_id: str, invitation_hash: str, seat_token_hash: str) -> SeatGrant | None:
        """Exchange an unused invitation for a seat token, once; None if there is no such invitation."""
        with self._writing() as conn:
            seats = conn.execute(
                select(tokens.c.seats).where(
                    tokens.c.game_id == game_id,
                    tokens.c.token_hash == invitation_hash,
                    tokens.c.kind == "invitation",
                )
            ).scalar()
            if seats is None:
                return None
            conn.execute(delete(tokens).where(tokens.c.token_hash == invitation_hash))
            conn.execute(insert(tokens).values(token_hash=seat_token_hash, game_id=game_id, kind="seat", seats=seats))
        return SeatGrant("seat", tuple(seats.split()))


# The statements of a move, built once: building them per move cost more CPU than SQLite's work.
_INSERT_MOVES = insert(moves)
_NOTIFY = select(func.pg_notify(CHANNEL, bindparam("payload")))


@lru_cache(maxsize=64)
def _swap_statement(columns: tuple[str, ...]) -> Update:
    """The compare-and-swap ``UPDATE games ... WHERE id = :at_id AND version = :at_version`` that
    sets the version, updated_at and `columns` (bound as set_<column>)."""
    unknown = set(columns) - set(games.c.keys())
    if unknown:
        raise ValueError(f"no column {sorted(unknown)[0]!r} in {games.name}")
    return (
        update(games)
        .where(games.c.id == bindparam("at_id"), games.c.version == bindparam("at_version"))
        .values({name: bindparam(f"set_{name}") for name in ("version", "updated_at", *columns)})
    )


def _naive_utc(moment: dt.datetime) -> dt.datetime:
    """One form for a time read back (naive from SQLite, aware from PostgreSQL) or taken here."""
    return moment if moment.tzinfo is None else moment.astimezone(dt.UTC).replace(tzinfo=None)


def _add_missing_columns(engine: Engine) -> None:
    """Columns added since a database was created (`create_all` makes only missing tables)."""
    present = {column["name"] for column in inspect(engine).get_columns(games.name)}
    if "public" not in present:
        with engine.begin() as conn:
            conn.execute(text(f"ALTER TABLE {games.name} ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE"))


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself, so writers can ask for IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_IMMEDIATE) else "BEGIN")

    return engine


def _game_values(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "scenario": row.scenario,
        "options": json.dumps(row.options, sort_keys=True),
        "seed": row.seed,
        "players": json.dumps(row.players),
        "version": row.version,
        "status": row.status,
        "result": row.result,
        "termination": row.termination,
        "agreed": row.agreed,
        "draw_offer": row.draw_offer,
        "public": row.public,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


def _game_row(row: Any) -> GameRow:
    return GameRow(
        id=row["id"],
        game=row["game"],
        scenario=row["scenario"],
        options=json.loads(row["options"]),
        seed=int(row["seed"]),
        players=json.loads(row["players"]),
        version=int(row["version"]),
        status=row["status"],
        result=row["result"],
        termination=row["termination"],
        agreed=row["agreed"],
        draw_offer=row["draw_offer"],
        public=bool(row["public"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
