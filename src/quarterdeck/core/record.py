"""Game records: a readable text file that replays to exactly the same state.

    [Game "square-rigger"]
    [Scenario "duel"]
    [Options "{}"]
    [Seed "0"]
    [Players "blue=human red=greedy"]
    [Date "2026-11-21"]
    [Result "blue"]
    [Termination "every red warship has struck"]

    1. blue move Victory c4 N
    2. blue end-move
    ...

Header lines are ``[Key "value"]``; each further line is ``<number>. <seat> <action notation>``,
and text after ``;`` on a move line is a comment. Chance outcomes are recorded as actions of the seat ``chance``.
A game set up from a player's own files (a scenario file, a tables file) names them in ``[Files ...]``
with a digest of each, so that a file edited since is refused rather than replayed into another game.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import QuarterdeckError, RecordError
from .events import Event
from .files import is_file_name
from .protocol import CHANCE, Game, State

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(\S+)\s+(.+)$")
CHANCE_SEAT = "chance"


@dataclass
class Record:
    game: str
    scenario: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    players: dict[str, str] = field(default_factory=dict)
    date: str = field(default_factory=lambda: _dt.date.today().isoformat())
    result: str = "*"
    termination: str = ""
    moves: list[tuple[str, str]] = field(default_factory=list)
    move_lines: list[int] = field(default_factory=list)  # where each move sat in the parsed text
    files: dict[str, str] = field(default_factory=dict)  # a player's files the game read: path -> digest

    def to_text(self) -> str:
        headers = {
            "Game": self.game,
            "Scenario": self.scenario or "",
            "Options": json.dumps(self.options, sort_keys=True),
            "Seed": str(self.seed),
            "Players": " ".join(f"{seat}={who}" for seat, who in self.players.items()),
            "Date": self.date,
            "Result": self.result,
            "Termination": self.termination,
        }
        if self.files:
            headers["Files"] = json.dumps(self.files, sort_keys=True)
        lines = [f'[{key} "{_escape(value)}"]' for key, value in headers.items()]
        lines.append("")
        lines.extend(f"{i}. {seat} {text}" for i, (seat, text) in enumerate(self.moves, start=1))
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> Record:
        headers: dict[str, str] = {}
        moves: list[tuple[str, str]] = []
        lines: list[int] = []
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors write at the start
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line.startswith("["):
                line = line.split(";", 1)[0].strip()  # a comment after a move
            if not line:
                continue
            if line.startswith("["):
                match = _HEADER.match(line)
                if not match:
                    raise RecordError('a header line looks like [Key "value"]', number)
                if moves:
                    raise RecordError("header lines must come before the moves", number)
                headers[match.group(1)] = _unescape(match.group(2))
                continue
            match = _MOVE.match(line)
            if not match:
                raise RecordError("a move line looks like '12. blue <action>'", number)
            if int(match.group(1)) != len(moves) + 1:
                raise RecordError(f"move number {match.group(1)} out of sequence (expected {len(moves) + 1})", number)
            moves.append((match.group(2), match.group(3).strip()))
            lines.append(number)
        if "Game" not in headers:
            raise RecordError("the record has no [Game ...] header")
        try:
            options = json.loads(headers.get("Options") or "{}")
        except json.JSONDecodeError as exc:
            raise RecordError(f"Options header is not JSON: {exc.msg}") from None
        except RecursionError:
            raise RecordError("Options header is nested too deeply") from None
        if not isinstance(options, dict):
            raise RecordError("Options header must be a JSON object")
        try:
            seed = int(headers.get("Seed", "0"))
        except ValueError:
            raise RecordError("Seed header must be an integer") from None
        try:
            files = json.loads(headers.get("Files") or "{}")
        except (json.JSONDecodeError, RecursionError):
            raise RecordError("Files header is not JSON") from None
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise RecordError('Files header must be a JSON object of path: digest, like {"my.toml": "3f2a..."}')
        players: dict[str, str] = {}
        for pair in (headers.get("Players") or "").split():
            seat, _, who = pair.partition("=")
            players[seat] = who
        return cls(
            game=headers["Game"],
            scenario=headers.get("Scenario") or None,
            options=options,
            seed=seed,
            players=players,
            date=headers.get("Date", ""),
            result=headers.get("Result", "*"),
            termination=headers.get("Termination", ""),
            moves=moves,
            move_lines=lines,
            files=files,
        )

    def replay(self, game: Game) -> Iterator[tuple[State, str, list[Event]]]:
        """Yield (state after, notation, events) for each move; RecordError names the bad line."""
        state = start_state(self, game)
        for index, (seat, text) in enumerate(self.moves):
            line = self.move_lines[index] if index < len(self.move_lines) else None
            player = _seat(state, seat, line)
            try:
                action = state.text_to_action(text, player if player >= 0 else None)
                events = state.apply(action, player if player >= 0 else None)
            except QuarterdeckError as exc:
                raise RecordError(f"move {index + 1} ({seat} {text}): {exc}", line) from None
            yield state, text, events

    def final_state(self, game: Game) -> State:
        state = start_state(self, game)
        for after, _, _ in self.replay(game):
            state = after
        return state


def start_state(record: Record, game: Game) -> State:
    if record.game != game.name:
        raise RecordError(f"this is a record of {record.game!r}, not {game.name!r}")
    for path, digest in record.files.items():
        try:
            now = file_digest(path)
        except OSError as exc:
            raise RecordError(f"the game was set up from {path}, which cannot be read now: {exc.strerror}") from None
        if now != digest:
            raise RecordError(f"{path} has changed since the game was recorded, so it cannot be replayed as it was "
                              "played; put back the file it was played with")
    try:
        return game.new_initial_state(record.scenario, record.options, record.seed)
    except QuarterdeckError as exc:
        raise RecordError(f"cannot set up the game: {exc}") from None


def file_digest(path: str) -> str:
    """A short digest of a file's bytes: enough to tell an edited file from the one a game was played with."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def files_read(game: Game, scenario: str | None, options: dict[str, Any]) -> dict[str, str]:
    """The player's own files a game set up from `scenario` and `options` reads (a scenario given by its
    path, the game's file options), each with its digest."""
    paths = [scenario] if scenario and is_file_name(scenario) else []
    paths += [value for key, value in options.items() if key in game.file_options and isinstance(value, str)]
    return {path: file_digest(path) for path in paths if Path(path).is_file()}


def _seat(state: State, seat: str, line: int | None) -> int:
    if seat == CHANCE_SEAT:
        return CHANCE
    if seat not in state.players:
        raise RecordError(f"no player called {seat!r} (players: {', '.join(state.players)})", line)
    return state.players.index(seat)


def seat_name(state: State, player: int) -> str:
    return CHANCE_SEAT if player == CHANCE else state.players[player]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
