"""GameService: the live games of one server process, their single writer, and who watches them.

Each game has one asyncio lock, so within a process moves are applied one at a time; across
processes the store's compare-and-swap on the version decides, and the loser catches up and tries
again (or, if the caller's version is no longer the game's, refuses it as stale). A move is
acknowledged (and pushed to watchers) only after the transaction holding it has committed; the
store groups the moves that arrive meanwhile into one transaction.

The games in play are kept in memory and served from there, without a database read per request:
moves stored by another server process reach this one through `follow_changes`, which reads the
store's change feed (PostgreSQL LISTEN/NOTIFY, or polling with SQLite) for every game held here, and
whenever a game is caught up with the database (`_fresh`) whatever it learnt is pushed to the
sockets watching it here. A write never trusts the memory alone: its compare-and-swap checks it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any, Protocol

import orjson

from ..core.errors import IllegalAction, NotationError, QuarterdeckError, RecordError, ScenarioError
from ..core.protocol import CHANCE, Game
from ..core.record import CHANCE_SEAT, Record
from ..store import GameRow, GameStore, NotFound, SeatGrant, VersionConflict
from .auth import hash_token, new_game_id, new_token
from .computer import COMPUTER_PREFIX, agent_spec, choose_action, levels
from .live import Entry, Forbidden, LiveGame

log = logging.getLogger(__name__)


class Stale(Exception):
    """The client's version is not the game's: the move is refused and the current version named."""

    def __init__(self, version: int, message: str = ""):
        super().__init__(message or f"the game is at version {version}; yours is out of date")
        self.version = version


class NeedsToken(Exception):
    """An action without a seat token: spectators may watch but not act."""


class BadRequest(Exception):
    """A request that makes no sense for this game (unknown seat, opponent or level)."""


class GameCatalogue(Protocol):
    """Where games come from: the `quarterdeck.games` module, or a test's own."""

    def names(self) -> list[str]: ...

    def get(self, name: str) -> Game: ...


class Watcher(Protocol):
    """A connected socket: the seats it holds and a non-blocking way to queue a message to it
    (a dict, or the text of one already encoded)."""

    seats: frozenset[str]

    def push(self, message: dict[str, Any] | str) -> None: ...


Change = Callable[[LiveGame], list[Entry]]


@dataclasses.dataclass
class NewGame:
    game_id: str
    token: str
    seats: list[str]
    invitations: dict[str, str]


class GameService:
    def __init__(self, store: GameStore, catalogue: GameCatalogue, make_pool: Callable[[], Executor]):
        self.store = store
        self.catalogue = catalogue
        self._make_pool = make_pool
        self._pool: Executor | None = None  # started with the first computer move
        self._games: dict[str, Game] = {}
        self._live: dict[str, LiveGame] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._watchers: dict[str, set[Watcher]] = {}
        self._grants: dict[tuple[str, str], SeatGrant] = {}
        self._computer_tasks: dict[str, asyncio.Task[None]] = {}

    # --- setup -------------------------------------------------------------------------------
    def game(self, name: str) -> Game:
        if name not in self._games:
            self._games[name] = self.catalogue.get(name)
        return self._games[name]

    async def create(
        self,
        name: str,
        scenario: str | None,
        options: dict[str, Any],
        seed: int,
        opponent: str,
        seat: str | None,
        level: str,
        public: bool = False,
    ) -> NewGame:
        """A new game. `opponent`: "computer" (at `level`), "local" (one screen) or "invite" (a friend)."""
        game = self.game(name)
        scenario = scenario or game.default_scenario
        _check_shipped(game, scenario, options)
        _check_level(level)
        state = await asyncio.to_thread(game.new_initial_state, scenario, options, seed)
        live = LiveGame(game, GameRow("", name, scenario, options, seed, {}), state)
        return await self._open(live, opponent, seat, level, public)

    async def import_record(
        self, text: str, opponent: str | None, seat: str | None, level: str | None, public: bool = False
    ) -> tuple[NewGame, LiveGame, str, str]:
        """A game made from a saved record (.qdr), to replay it or play on from where it stopped.

        Every move is replayed through the rules and every throw of the dice must be the one the
        record's seed throws there; a corrupt or illegal record raises RecordError (naming its line)
        and nothing is stored. The scenario and options must be ones the server ships, as for a new
        game. Who plays the other seats is the record's Players header unless the caller says.
        Returns the new game, as it stands, and the opponent and level it was opened with."""
        record = Record.parse(text)
        game = self.game(record.game)
        scenario = record.scenario or game.default_scenario
        _check_shipped(game, scenario, record.options)
        if record.files:  # a game set up from a player's files was played in a terminal, never here
            raise RecordError(f"the record names files ({', '.join(record.files)}); a server reads none for a caller")
        live = await asyncio.to_thread(_replayed, game, record, scenario)
        opponent, seat, level = _as_recorded(record, live.state.players, opponent, seat, level)
        created = await self._open(live, opponent, seat, level, public)
        return created, self._live[created.game_id], opponent, level

    async def _open(self, live: LiveGame, opponent: str, seat: str | None, level: str, public: bool) -> NewGame:
        """Store `live` (a new game, or one replayed from a record) with its seats and tokens, then
        throw any dice due and let a computer seat that must act begin."""
        _check_level(level)
        seats = list(live.state.players)
        mine = seat or seats[0]
        if mine not in seats:
            raise BadRequest(f"no seat {mine!r}; seats are {', '.join(seats)}")
        token = new_token()
        grants: dict[str, SeatGrant] = {}
        invitations: dict[str, str] = {}
        others = [s for s in seats if s != mine]
        if opponent == "local":
            players = {s: "human" for s in seats}
            grants[hash_token(token)] = SeatGrant("seat", tuple(seats))
        elif opponent == "computer":
            players = {s: "human" if s == mine else COMPUTER_PREFIX + level for s in seats}
            grants[hash_token(token)] = SeatGrant("seat", (mine,))
        elif opponent == "invite":
            players = {s: "human" if s == mine else "invited" for s in seats}
            grants[hash_token(token)] = SeatGrant("seat", (mine,))
            for other in others:
                invitations[other] = new_token()
                grants[hash_token(invitations[other])] = SeatGrant("invitation", (other,))
        else:
            raise BadRequest(f"unknown opponent {opponent!r}; choose computer, local or invite")
        live.row = dataclasses.replace(live.row, id=new_game_id(), players=players, public=public, version=live.version)
        live.row = dataclasses.replace(live.row, **_row_columns(live))  # a record may end the game, or be drawn
        played = [(entry.seat, entry.text) for entry in live.entries]
        await asyncio.to_thread(self.store.create_game, live.row, grants, played)
        game_id = live.row.id
        self._live[game_id] = live
        if live.acting_seats() == [CHANCE_SEAT]:  # the game opens (or the record stops) with dice: throw them now
            await self._commit(game_id, None, LiveGame.throw_dice)
        self._schedule_computer(game_id)
        return NewGame(game_id, token, [s for s in seats if s == mine or opponent == "local"], invitations)

    async def join(self, game_id: str, invitation: str) -> tuple[str, list[str]]:
        """Exchange an invitation (usable once) for a seat token."""
        await self.live(game_id)
        token = new_token()
        grant = await asyncio.to_thread(
            self.store.redeem_invitation, game_id, hash_token(invitation), hash_token(token)
        )
        if grant is None:
            raise Forbidden("this invitation is unknown or has already been used")
        await self._commit(game_id, None, lambda trial: _seat_people(trial, grant.seats))
        return token, list(grant.seats)

    # --- reading ----------------------------------------------------------------------------
    async def seats_of(self, game_id: str, token: str | None) -> frozenset[str]:
        """The seats a token acts for: none for a spectator; Forbidden for a token of no seat here."""
        if token is None:
            return frozenset()
        key = (game_id, hash_token(token))
        grant = self._grants.get(key)
        if grant is None:
            grant = await asyncio.to_thread(self.store.grant, *key)
            if grant is None or grant.kind != "seat":
                raise Forbidden("this token holds no seat in this game")
            self._grants[key] = grant
        return frozenset(grant.seats)

    async def live(self, game_id: str) -> LiveGame:
        """The game as held here (the change feed keeps it current), loaded on first use."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        async with self._lock(game_id):
            return self._live.get(game_id) or await self._fresh(game_id)

    async def _fresh(self, game_id: str) -> LiveGame:
        """The game as stored now (call it holding the game's lock); what another process stored
        meanwhile is pushed to this process's watchers of the game."""
        row = await asyncio.to_thread(self.store.get_game, game_id)
        before = self._live.get(game_id)
        shown_before = _shown_columns(before.row) if before is not None else None
        public_before = _public(before) if before is not None else None
        live = before
        if live is None or live.version > row.version:
            moves = await asyncio.to_thread(self.store.moves, game_id)
            live = await asyncio.to_thread(LiveGame.start, self.game(row.game), row, moves)
        elif live.version < row.version:
            live = live.clone()
            for seat, text in await asyncio.to_thread(self.store.moves, game_id, live.version):
                live.apply(seat, text)
        live.row = row
        self._live[game_id] = live
        if self._watchers.get(game_id):
            if before is None or before.version > live.version:
                for watcher in list(self._watchers[game_id]):  # what they saw is unknown: everything
                    watcher.push(sync_message(live, watcher.seats))
            elif before.version != live.version or shown_before != _shown_columns(row):
                self._announce(live, before.version, public_before)
        return live

    async def follow_changes(self) -> None:
        """Push other processes' moves to the sockets watching here, until cancelled."""
        async with contextlib.aclosing(self.store.changes(lambda: list(self._live))) as feed:
            async for game_ids in feed:
                for game_id in sorted(game_ids):
                    if game_id not in self._live:
                        continue
                    try:
                        async with self._lock(game_id):
                            await self._fresh(game_id)  # catching up pushes what is new
                    except NotFound:
                        continue
                    except Exception:  # one bad game must not stop the feed for the others
                        log.exception("could not catch up game %s after another server's move", game_id)

    def list_games(self, status: str | None, ids: list[str]) -> list[GameRow]:
        return self.store.list_games(status, ids)

    # --- acting ---------------------------------------------------------------------------------
    async def play(
        self, game_id: str, seats: frozenset[str], version: int, actions: list[str], seat: str | None
    ) -> tuple[LiveGame, list[Entry]]:
        """A turn of one or more actions, applied and stored all together or not at all."""
        _require_seat(seats)
        if seat is not None and seat not in seats:  # before the version: a stranger's seat is no business of ours
            raise Forbidden(f"you do not hold the seat {seat!r}")

        def change(trial: LiveGame) -> list[Entry]:
            entries: list[Entry] = []
            for number, text in enumerate(actions, start=1):
                try:
                    entries.extend(trial.play(text, seat, seats))
                except (IllegalAction, NotationError) as exc:
                    raise _numbered(exc, number, len(actions)) from None
            if trial.row.draw_offer and any(e.seat not in (trial.row.draw_offer, "chance") for e in entries):
                trial.row = dataclasses.replace(trial.row, draw_offer=None)  # answered by playing on
            return entries

        return await self._commit(game_id, (version, seats), change)

    async def preview(
        self, game_id: str, seats: frozenset[str], version: int, actions: list[str], seat: str | None
    ) -> LiveGame:
        """The game as it would be after these actions, stored nowhere (for a turn still being planned).

        Chance is never drawn here, so planning a turn cannot peek at the dice; nor do the other
        seats' secret decisions count, so planning the last decision of a secret phase cannot reveal them.
        """
        _require_seat(seats)
        trial = (await self.live(game_id)).as_known_to(seats)
        if version != trial.version_for(seats):
            raise Stale(trial.version_for(seats))
        for number, text in enumerate(actions, start=1):
            if trial.acting_seats() == ["chance"]:
                raise IllegalAction("chance", "chance decides next: commit the turn before planning further")
            try:
                trial.play(text, seat, seats, resolve_chance=False)
            except (IllegalAction, NotationError) as exc:
                raise _numbered(exc, number, len(actions)) from None
        return trial

    async def ask(
        self, game_id: str, seats: frozenset[str], question: str, version: int, actions: list[str], seat: str | None
    ) -> list[str]:
        """The answer to one of the game's own questions, asked of the table after the turn still
        being planned (if any); nothing is stored, and a spectator may ask of the table as it stands."""
        if actions:
            table = await self.preview(game_id, seats, version, actions, seat)
        else:
            table = (await self.live(game_id)).as_known_to(seats)
        return table.ask(question, seats)

    async def resign(self, game_id: str, seats: frozenset[str], seat: str | None) -> tuple[LiveGame, list[Entry]]:
        _require_seat(seats)
        who = seat or _only(seats, "say which seat resigns")
        return await self._commit(game_id, None, lambda trial: trial.play(f"resign {who}", who, seats))

    async def draw(
        self, game_id: str, seats: frozenset[str], answer: str, seat: str | None
    ) -> tuple[LiveGame, list[Entry]]:
        """Offer a draw, or accept or decline the other side's offer."""
        _require_seat(seats)

        def change(trial: LiveGame) -> list[Entry]:
            if trial.outcome is not None:
                raise IllegalAction("game-over", "the game is already over")
            offer = trial.row.draw_offer
            if answer == "offer":
                who = seat or _only(seats, "say which seat offers the draw")
                if who not in seats:
                    raise Forbidden(f"you do not hold the seat {who!r}")
                if _computer_seats(trial):
                    raise IllegalAction("draw-offer", "the computer plays on: it does not accept draws")
                trial.row = dataclasses.replace(trial.row, draw_offer=who)
            elif offer is None:
                raise IllegalAction("draw-offer", "no draw has been offered")
            elif not seats - {offer}:
                raise IllegalAction("draw-offer", "the other side must answer your offer")
            elif answer == "accept":
                trial.row = dataclasses.replace(
                    trial.row, draw_offer=None, agreed="draw", termination=f"draw agreed ({offer} offered)"
                )
            else:
                trial.row = dataclasses.replace(trial.row, draw_offer=None)
            return []

        return await self._commit(game_id, None, change)

    async def _commit(
        self, game_id: str, seen: tuple[int, frozenset[str]] | None, change: Change
    ) -> tuple[LiveGame, list[Entry]]:
        """Apply `change` to a copy, store it with a compare-and-swap, then adopt and announce it.

        `seen`: the version the caller saw and the seats it sees with; any other is stale."""
        async with self._lock(game_id):
            live = self._live.get(game_id) or await self._fresh(game_id)
            if seen is not None and seen[0] != live.version_for(seen[1]):
                live = await self._fresh(game_id)  # the caller may know of another process's move
                if seen[0] != live.version_for(seen[1]):
                    raise Stale(live.version_for(seen[1]))
            for attempt in range(2):
                trial = live.clone()
                entries = change(trial)
                columns = _row_columns(trial)
                try:
                    stored = await self.store.commit_moves(
                        game_id, live.version, [(e.seat, e.text) for e in entries], **columns
                    )
                    break
                except VersionConflict:
                    live = await self._fresh(game_id)  # another process wrote: catch up
                    current = live.version_for(seen[1] if seen else frozenset())
                    if attempt or (seen is not None and seen[0] != current):
                        raise Stale(current, "another move was stored first") from None
            trial.row = dataclasses.replace(trial.row, version=stored, **columns)
            self._live[game_id] = trial
            self._announce(trial, live.version, _public(live))
        self._schedule_computer(game_id)
        return trial, entries

    # --- watching ----------------------------------------------------------------------------
    async def subscribe(self, game_id: str, watcher: Watcher, since: int | None) -> None:
        """Start pushing updates to `watcher`, first what it missed since version `since`.

        Done under the game's lock, so no update falls between the catch-up and the first push.
        """
        async with self._lock(game_id):
            live = await self._fresh(game_id)
            if since is None or since > live.version_for(watcher.seats):
                watcher.push(sync_message(live, watcher.seats))
            else:
                watcher.push(catch_up_message(live, watcher.seats, since))
            self._watchers.setdefault(game_id, set()).add(watcher)

    def unwatch(self, game_id: str, watcher: Watcher) -> None:
        watchers = self._watchers.get(game_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[game_id]

    def _announce(self, live: LiveGame, previous_version: int, public_before: tuple[Any, ...] | None) -> None:
        """Queue the update to every watcher that has something to learn, computing each distinct
        view once. A watcher learns nothing from another seat's secret decision: it gets no update
        unless the moves it may see, or what every seat sees (`_public`), changed."""
        public_change = public_before != _public(live)
        messages: dict[frozenset[str], str | None] = {}  # encoded once for all who share a view
        for watcher in list(self._watchers.get(live.row.id, ())):
            if watcher.seats not in messages:
                message = update_message(live, watcher.seats, previous_version)
                messages[watcher.seats] = encode(message) if message["entries"] or public_change else None
            message = messages[watcher.seats]
            if message is not None:
                watcher.push(message)

    # --- the computer ------------------------------------------------------------------------
    def resume_computers(self, game_ids: Iterable[str]) -> None:
        for game_id in game_ids:
            self._computer_tasks[game_id] = asyncio.create_task(self._computer_turns(game_id))

    def _schedule_computer(self, game_id: str) -> None:
        live = self._live.get(game_id)
        running = self._computer_tasks.get(game_id)
        if live is None or (running is not None and not running.done()):
            return
        if _computer_seats(live) & set(live.acting_seats()):
            self._computer_tasks[game_id] = asyncio.create_task(self._computer_turns(game_id))

    async def _computer_turns(self, game_id: str) -> None:
        """Let the computer seats decide until no computer seat is to act."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                live = await self.live(game_id)
            except NotFound:
                return
            acting = [s for s in live.acting_seats() if s in _computer_seats(live)]
            if not acting:
                return
            seat = acting[0]
            player = live.state.players.index(seat)
            spec = agent_spec(live.row.players[seat]) or ""
            state_json = live.state.to_json()
            seed = (live.row.seed * 1_000_003 + live.version) % 2**63
            try:
                if self._pool is None:
                    self._pool = self._make_pool()
                text = await loop.run_in_executor(
                    self._pool, choose_action, type(live.game), state_json, spec, seed, player
                )
                await self._commit(
                    game_id,
                    (live.version, frozenset(live.state.players)),
                    lambda trial, text=text, seat=seat: trial.play(text, seat, frozenset({seat})),
                )
            except Stale:
                continue  # someone moved meanwhile (a resignation, say): look again
            except Exception:
                log.exception("the computer could not move in game %s", game_id)
                return

    async def close(self) -> None:
        for task in self._computer_tasks.values():
            task.cancel()
        await asyncio.gather(*self._computer_tasks.values(), return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())


def encode(message: dict[str, Any]) -> str:
    """A message as the socket's JSON text (orjson: strict UTF-8, so it never sends what a client cannot read)."""
    return orjson.dumps(message).decode()


def sync_message(live: LiveGame, seats: frozenset[str]) -> dict[str, Any]:
    """Everything, for a client that knows nothing (or something that cannot be right)."""
    return {
        "type": "sync",
        "version": live.version_for(seats),
        "view": live.view(seats),
        "history": live.history(seats),
    }


def update_message(live: LiveGame, seats: frozenset[str], previous_version: int) -> dict[str, Any]:
    """What the moves after the game's `previous_version` tell a client holding `seats`."""
    return {
        "type": "update",
        "version": live.version_for(seats),
        "entries": live.news(seats, previous_version),
        "view": live.view(seats),
    }


def catch_up_message(live: LiveGame, seats: frozenset[str], since: int) -> dict[str, Any]:
    """What a client that knew the first `since` moves it may see has missed."""
    return {
        "type": "update",
        "version": live.version_for(seats),
        "entries": live.history(seats, since),
        "view": live.view(seats),
    }


def _shown_columns(row: GameRow) -> tuple[Any, ...]:
    """What of a game's row a view shows, besides its moves (a draw offer, who sits where, the end)."""
    return (row.version, row.status, row.result, row.termination, row.agreed, row.draw_offer, row.players)


def _row_columns(trial: LiveGame) -> dict[str, Any]:
    """The row's columns a change sets, besides the version."""
    outcome = trial.outcome
    return {
        "status": "finished" if outcome else "ongoing",
        "result": outcome.result if outcome else "*",
        "termination": outcome.reason if outcome else "",
        "agreed": trial.row.agreed,
        "draw_offer": None if outcome else trial.row.draw_offer,
        "players": trial.row.players,
    }


def _public(live: LiveGame) -> tuple[Any, ...]:
    """What every seat sees change besides the moves: who is to act, and the row's shown columns."""
    return (tuple(live.acting_seats()), _shown_columns(live.row)[1:])


def _computer_seats(live: LiveGame) -> set[str]:
    return {seat for seat, who in live.row.players.items() if agent_spec(who) is not None}


def _seat_people(trial: LiveGame, seats: Iterable[str]) -> list[Entry]:
    """Mark invited seats as taken by a person (no move, no new version)."""
    trial.row = dataclasses.replace(trial.row, players={**trial.row.players, **{s: "human" for s in seats}})
    return []


def _require_seat(seats: frozenset[str]) -> None:
    if not seats:
        raise NeedsToken("spectators can watch but not act: send your seat token")


def _only(seats: frozenset[str], question: str) -> str:
    if len(seats) != 1:
        raise BadRequest(question)
    return next(iter(seats))


def _numbered(exc: IllegalAction | NotationError, number: int, count: int) -> IllegalAction | NotationError:
    if count == 1:
        return exc
    prefix = f"action {number} of {count}"
    if isinstance(exc, IllegalAction):
        return IllegalAction(exc.rule, f"{prefix}: {exc.message}")
    return NotationError(exc.field, f"{prefix}: {exc.message}", exc.text)


def _check_level(level: str) -> None:
    if level not in levels():  # whatever the opponent: a request says nothing it does not mean
        raise BadRequest(f"unknown level {level!r}; levels are {', '.join(levels())}")


PEOPLE = ("human", "invited", "")  # a record's Players entries for a person; anything else names an agent


def _as_recorded(
    record: Record, seats: list[str], opponent: str | None, seat: str | None, level: str | None
) -> tuple[str, str | None, str]:
    """(opponent, seat, level) for an imported record: what the caller chose, else the kind of
    opponent its Players header names (a person's seat against an agent: the computer at that
    agent's level; people only: one screen). Web records write agents as "computer:<spec>", the
    terminal as the bare spec."""
    agents = {
        s: who.removeprefix(COMPUTER_PREFIX) for s, who in record.players.items() if s in seats and who not in PEOPLE
    }
    people = [s for s in seats if s not in agents]
    opponent = opponent or ("computer" if agents else "local")
    seat = seat or (people or seats)[0]
    if level is None:
        level = next((spec for s, spec in agents.items() if s != seat), "greedy")
        if level not in levels():
            if opponent == "computer":
                known = ", ".join(levels())
                raise BadRequest(f"the record's opponent {level!r} is no level of this server; choose one of {known}")
            level = "greedy"  # no computer plays: the level is never used
    return opponent, seat, level


def _replayed(game: Game, record: Record, scenario: str) -> LiveGame:
    """The record's game with every move replayed through the rules (RecordError names the first bad
    line); a chance move must be the throw of the game's own dice there, so a record cannot bring
    dice of its choosing into play."""
    state = game.new_initial_state(scenario, record.options, record.seed)
    live = LiveGame(game, GameRow("", game.name, scenario, record.options, record.seed, {}), state)
    for index, (seat, text) in enumerate(record.moves):
        where = f"move {index + 1} ({seat} {text})"
        line = record.move_lines[index]
        if seat != CHANCE_SEAT and seat not in state.players:
            raise RecordError(f"{where}: no seat {seat!r}; seats are {', '.join(state.players)}", line)
        try:
            if seat == CHANCE_SEAT and live.outcome is None and state.current_player() == CHANCE:
                thrown = state.text_of(state.sample_chance())
                if state.text_of(state.text_to_action(text, None)) != thrown:
                    raise RecordError(f"{where}: the dice of seed {record.seed} throw {thrown!r} here", line)
            live.apply(seat, text)
        except RecordError:
            raise
        except QuarterdeckError as exc:
            raise RecordError(f"{where}: {exc}", line) from None
    if record.result != "*":
        outcome = live.outcome
        if outcome is None and record.result == "draw" and record.termination.startswith("draw agreed"):
            live.row = dataclasses.replace(live.row, agreed="draw", termination=record.termination)
        elif outcome is None or outcome.result != record.result:
            ended = f"{outcome.result} ({outcome.reason})" if outcome else "the game still in play"
            raise RecordError(f"the record's Result is {record.result!r}, but its moves end with {ended}")
    return live


@functools.cache
def _shipped_names(game: Game) -> tuple[str, ...]:
    """The scenarios a game ships, read once: listing them loads every one (Frigate's take some 90 ms),
    and this runs on the server's event loop for every game made."""
    return tuple(info.name for info in game.scenarios())


def _check_shipped(game: Game, scenario: str, options: dict[str, Any]) -> None:
    """Over the network a game starts from a scenario the game ships, never from a file: the games
    also read scenario and table files by path for the terminal, and a server must not open files
    on its own disk because a caller named them."""
    shipped = _shipped_names(game)
    if scenario not in shipped:
        raise ScenarioError("scenario", f"no scenario {scenario!r} on this server; scenarios are {', '.join(shipped)}")
    files = sorted(game.file_options & set(options))
    if files:
        raise ScenarioError(f"options.{files[0]}", f"{files[0]} names a file; a server reads none for a caller")
