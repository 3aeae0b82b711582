"""A game in play on the server: the state rebuilt from its stored moves, and the views sent out.

Nothing here does I/O. `LiveGame` applies notation text through the protocol (so the rules are the
game's, never the browser's), resolves chance with the state's own dice, and builds per-viewer
JSON: the state as that viewer may see it, the legal actions of the seats it holds, grouped by
piece, and the move history, which leaves another seat's secret decisions out until they are revealed.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from typing import Any

from rich.console import Console

from ..core.errors import IllegalAction, NotationError
from ..core.events import Revealed
from ..core.protocol import CHANCE, SIMULTANEOUS, Game, Outcome, Resign, State
from ..core.record import CHANCE_SEAT, Record
from ..store import GameRow
from .computer import agent_spec, describe_level


class Forbidden(Exception):
    """The caller's token does not hold the seat it tries to act for."""


@dataclass(frozen=True)
class Entry:
    """One stored move with the events it produced.

    A decision made while the state is SIMULTANEOUS is `secret`: other seats learn of it only when
    the phase ends, at the move numbered `revealed_at` (None until then). Any other move is public
    from the start (`revealed_at` is its own number)."""

    number: int
    seat: str
    text: str
    events: list[dict[str, Any]]
    secret: bool = False
    revealed_at: int | None = None

    def shown_at(self, seats: frozenset[str]) -> int | None:
        """The move after which a client holding `seats` may know of this one (None: not yet)."""
        if not self.secret or self.seat in seats:
            return self.number
        return self.revealed_at

    def for_viewer(self, number: int) -> dict[str, Any]:
        return {"number": number, "seat": self.seat, "text": self.text, "events": self.events}


@dataclass
class LiveGame:
    """The game with its moves. Each client numbers the moves in the order it learnt of them: a
    seat's own secret decisions when it made them, the other seats' when they are revealed, so its
    history only ever grows at the end and its version is the number of moves it knows of."""

    game: Game
    row: GameRow
    state: State
    entries: list[Entry] = field(default_factory=list)
    hidden: tuple[int, ...] = ()  # numbers of the secret decisions of the phase still under way
    reveals: dict[int, tuple[int, ...]] = field(default_factory=dict)  # move -> the secret moves it revealed
    phase_start: State | None = None  # the state before the first of `hidden`; never changed, so shared

    @classmethod
    def start(cls, game: Game, row: GameRow, moves: list[tuple[str, str]]) -> LiveGame:
        """The game rebuilt by replaying its stored moves."""
        live = cls(game, row, game.new_initial_state(row.scenario, row.options, row.seed))
        for seat, text in moves:
            live.apply(seat, text)
        return live

    @property
    def version(self) -> int:
        return len(self.entries)

    @property
    def outcome(self) -> Outcome | None:
        if self.state.outcome is not None:
            return self.state.outcome
        if self.row.agreed == "draw":
            return Outcome(tuple(0.0 for _ in self.state.players), "draw", self.row.termination)
        return None

    def version_for(self, seats: frozenset[str]) -> int:
        """The version a client holding `seats` sees: the moves it knows of."""
        return self.version - sum(1 for number in self.hidden if self.entries[number - 1].seat not in seats)

    def clone(self) -> LiveGame:
        # Entries are immutable and `reveals` is replaced, never changed: sharing them is safe.
        return LiveGame(
            self.game, self.row, self.state.clone(), list(self.entries), self.hidden, self.reveals, self.phase_start
        )

    def as_known_to(self, seats: frozenset[str]) -> LiveGame:
        """A copy of the game as `seats` know it: the other seats' secret decisions of the phase under
        way are left out, so that nothing worked out on it (a planned turn's preview, a question)
        can read them, or show when the planned decision would end the phase. A simultaneous phase's
        decisions do not depend on one another, so the rest replay as they were, from the phase's start."""
        unseen = {number for number in self.hidden if self.entries[number - 1].seat not in seats}
        if not unseen:
            return self.clone()
        assert self.phase_start is not None  # set by the phase's first secret decision
        first = self.hidden[0]
        known = LiveGame(self.game, self.row, self.phase_start.clone(), self.entries[: first - 1], (), self.reveals)
        for entry in self.entries[first - 1 :]:  # the phase under way: every move since its first is secret
            if entry.number not in unseen:
                known.apply(entry.seat, entry.text)
        return known

    # --- playing -------------------------------------------------------------------------------
    def apply(self, seat: str, text: str) -> Entry:
        """Apply one move in notation for a seat (or `chance`); the state is unchanged on error."""
        state = self.state
        if self.outcome is not None:
            raise IllegalAction("game-over", f"the game is over: {self.outcome.verdict} ({self.outcome.reason})")
        player = CHANCE if seat == CHANCE_SEAT else state.players.index(seat)
        action = state.text_to_action(text, None if player == CHANCE else player)
        if isinstance(action, Resign):
            player = action.player
        secret = state.current_player() == SIMULTANEOUS
        before = state.clone() if secret and not self.hidden else None  # a secret phase begins
        notation = state.text_of(action)
        events = state.apply(action, None if player == CHANCE else player)
        number = self.version + 1
        entry = Entry(
            number,
            CHANCE_SEAT if player == CHANCE else state.players[player],
            notation,
            [{**event.to_json(), "text": event.describe()} for event in events],
            secret=secret,
            revealed_at=None if secret else number,
        )
        self.entries.append(entry)
        if secret:
            # The phase ends where the state stops being SIMULTANEOUS, or where a move's events say
            # Revealed (the next secret phase follows at once), as core's Match reckons it.
            if (
                state.current_player() != SIMULTANEOUS
                or state.is_terminal()
                or any(isinstance(event, Revealed) for event in events)
            ):
                revealed = (*self.hidden, number)
                for shown in revealed:
                    self.entries[shown - 1] = replace(self.entries[shown - 1], revealed_at=number)
                self.reveals = {**self.reveals, number: revealed}
                self.hidden = ()
            else:
                self.hidden = (*self.hidden, number)
                if before is not None:
                    self.phase_start = before
        return self.entries[-1]

    def play(self, text: str, seat: str | None, allowed: frozenset[str], resolve_chance: bool = True) -> list[Entry]:
        """A player's move (for `seat`, or the one seat of `allowed` that must act), then any chance.

        Raises Forbidden when the move is for a seat the caller does not hold, IllegalAction or
        NotationError when the rules refuse it.
        """
        state = self.state
        self._refuse_if_over()
        if seat is not None and seat not in allowed:
            raise Forbidden(f"you do not hold the seat {seat!r}")
        if seat is None:
            seat = self._seat_for(text, allowed)
        action = state.text_to_action(text, state.players.index(seat))
        if isinstance(action, Resign) and state.players[action.player] not in allowed:
            raise Forbidden(f"you cannot resign for {state.players[action.player]}")
        entries = [self.apply(seat, state.text_of(action))]
        return entries + self.throw_dice() if resolve_chance else entries

    def throw_dice(self) -> list[Entry]:
        """Every chance decision due now, drawn from the state's own dice (after a move, or the dice a
        game opens with, such as Naval Warfare's first wind)."""
        state = self.state
        entries = []
        while self.outcome is None and state.current_player() == CHANCE:
            entries.append(self.apply(CHANCE_SEAT, state.text_of(state.sample_chance())))
        return entries

    def _refuse_if_over(self) -> None:
        if self.outcome is not None:
            raise IllegalAction("game-over", f"the game is over: {self.outcome.verdict} ({self.outcome.reason})")

    def _seat_for(self, text: str, allowed: frozenset[str]) -> str:
        ordered = [seat for seat in self.state.players if seat in allowed]
        if text.split()[:1] == ["resign"] and len(ordered) == 1:
            return ordered[0]
        deciding = [seat for seat in self.acting_seats() if seat in allowed]
        if len(deciding) == 1:
            return deciding[0]
        if not deciding:
            raise IllegalAction("turn-order", "it is not your decision now")
        raise IllegalAction("turn-order", f"several of your seats decide now ({', '.join(deciding)}); say which")

    def acting_seats(self) -> list[str]:
        if self.outcome is not None:
            return []
        if self.state.current_player() == CHANCE:
            return [CHANCE_SEAT]
        return [self.state.players[p] for p in self.state.acting_players()]

    def record(self, seats: frozenset[str]) -> Record:
        """The game record as `seats` may see it: it stops before a decision still secret from them."""
        outcome = self.outcome
        visible = []
        for entry in self.entries:
            if entry.shown_at(seats) is None:
                break
            visible.append((entry.seat, entry.text))
        return Record(
            game=self.game.name,
            scenario=self.row.scenario,
            options=self.row.options,
            seed=self.row.seed,
            players=dict(self.row.players),
            date=self.row.created_at.date().isoformat(),
            result=outcome.result if outcome else "*",
            termination=outcome.reason if outcome else "",
            moves=visible,
        )

    # --- views ---------------------------------------------------------------------------------
    def history(self, seats: frozenset[str], after: int = 0) -> list[dict[str, Any]]:
        """The moves a client holding `seats` knows of, in the order it learnt of them, after its
        first `after`."""
        if not self.reveals and not self.hidden:  # no secret ever made: the order is the moves'
            known = self.entries[after:]
        else:
            shown = [(entry.shown_at(seats), entry.number) for entry in self.entries]
            known = [self.entries[number - 1] for at, number in sorted(s for s in shown if s[0] is not None)][after:]
        return [entry.for_viewer(after + index) for index, entry in enumerate(known, start=1)]

    def news(self, seats: frozenset[str], previous_version: int) -> list[dict[str, Any]]:
        """What a client holding `seats` learnt from the moves after `previous_version` (the
        game's version, not the client's): those it may see, and the secrets they revealed."""
        learnt: list[Entry] = []
        for entry in self.entries[previous_version:]:
            for number in self.reveals.get(entry.number, ()):
                revealed = self.entries[number - 1]
                if number != entry.number and revealed.seat not in seats:
                    learnt.append(revealed)
            if entry.shown_at(seats) == entry.number:
                learnt.append(entry)
        first = self.version_for(seats) - len(learnt) + 1
        return [entry.for_viewer(first + index) for index, entry in enumerate(learnt)]

    def view(self, seats: frozenset[str]) -> dict[str, Any]:
        """Everything a client holding `seats` (none for a spectator) needs to draw and act."""
        state = self.state
        outcome = self.outcome
        acting = self.acting_seats()
        legal = {}
        shortcuts = {}
        phase_help = {}
        terminal_view = _terminal_view(self.game)
        for seat in acting:
            if seat in seats:
                player = state.players.index(seat)
                legal[seat] = _grouped_actions(state, player, terminal_view)
                shortcuts[seat] = _shortcuts(state, player, terminal_view)
                phase_help[seat] = _phase_help(state, player, terminal_view)
        viewer = self._viewer(seats)
        return {
            "id": self.row.id,
            "game": self.game.name,
            "title": self.game.title,
            "scenario": self.row.scenario,
            "options": self.row.options,
            "version": self.version_for(seats),
            "status": "finished" if outcome else "ongoing",
            "outcome": outcome.to_json() if outcome else None,
            "players": dict(self.row.players),
            "seats": list(state.players),
            "you": [seat for seat in state.players if seat in seats],
            "to_act": acting,
            "describe": state.describe() if outcome is None else f"game over: {outcome.verdict} ({outcome.reason})",
            "draw_offer": self.row.draw_offer,
            "state": state.to_json(viewer=viewer),
            "legal": legal,
            "shortcuts": shortcuts,
            "phase_help": phase_help,
            "notes": _board_notes(self.game, state, viewer),
            "questions": _questions(state, terminal_view),
            "computers": {
                seat: describe_level(spec, self.game)
                for seat, who in self.row.players.items()
                if (spec := agent_spec(who))
            },
        }

    def ask(self, question: str, seats: frozenset[str]) -> list[str]:
        """The answer to one of the game's own questions (its terminal view's `queries`, such as Naval
        Warfare's `range`), worked out on the table as `seats` may see it; it decides nothing."""
        terminal_view = _terminal_view(self.game)
        word, _, rest = question.strip().partition(" ")
        known = getattr(terminal_view, "queries", {})
        if word.lower() not in known:
            answers = f"it answers: {', '.join(known)}" if known else "it has no questions of its own"
            raise NotationError("question", f"{self.game.title} has no question {word!r}; {answers}", question)
        viewer = self._viewer(seats)
        seen = self.state if viewer is None else self.state.observe(viewer)
        return _plain_lines(terminal_view.query(seen, viewer, word.lower(), rest.strip()))

    def _viewer(self, seats: frozenset[str]) -> int | None:
        """Whose eyes the state is seen through: all is shown once the game is over."""
        state = self.state
        if self.outcome is not None:
            return None
        held = [seat for seat in state.players if seat in seats]
        if not held:
            return len(state.players)  # a seat nobody holds: every seat's secrets stay hidden
        acting = [seat for seat in self.acting_seats() if seat in held]
        return state.players.index((acting or held)[0])

    def state_after(self, moves: int, seats: frozenset[str] = frozenset()) -> tuple[int, dict[str, Any]]:
        """(moves, state): the state after the first `moves` moves, to step through the game. Once
        it is over, the whole state; while it is played, as `seats` may see it, and no further than
        the first decision still secret from them (as the record they may download)."""
        over = self.outcome is not None
        known = self.entries
        if not over:
            secret = next((e.number for e in self.entries if e.shown_at(seats) is None), None)
            known = self.entries if secret is None else self.entries[: secret - 1]
        moves = min(moves, len(known))
        # A draw agreed is no move: the moves before it replay as they were played.
        replay = LiveGame.start(self.game, replace(self.row, agreed=None), [(e.seat, e.text) for e in known[:moves]])
        return moves, replay.state.to_json(viewer=None if over else replay._viewer(seats))


def _grouped_actions(state: State, player: int, terminal_view: Any) -> list[dict[str, Any]]:
    groups: dict[str | None, list[dict[str, Any]]] = {}
    destination = getattr(terminal_view, "destination", None)
    for action in state.legal_actions(player):
        groups.setdefault(state.action_piece(action), []).append(
            {
                "text": state.action_to_text(action),
                "destination": destination(state, action) if destination else None,
            }
        )
    return [{"piece": piece, "actions": actions} for piece, actions in groups.items()]


def _shortcuts(state: State, player: int, terminal_view: Any) -> dict[str, list[str]]:
    shortcuts = getattr(terminal_view, "shortcuts", None)
    if shortcuts is None:
        return {}
    return {name: [state.action_to_text(a) for a in actions] for name, actions in shortcuts(state, player).items()}


def _phase_help(state: State, player: int, terminal_view: Any) -> str:
    """What the phase asks of `player`, in one line: the terminal view's `phase_help` (the line its
    `help` shows), else the state's own description of the position."""
    phase_help = getattr(terminal_view, "phase_help", None)
    return (phase_help(state, player) if phase_help else None) or state.describe()


def _questions(state: State, terminal_view: Any) -> dict[str, str]:
    """The game's own questions that can be asked now, each with its help (Naval Warfare's `range`,
    none in a battle fought by eye)."""
    questions = getattr(terminal_view, "questions", None)
    return questions(state) if questions else {}


def _plain_lines(renderable: Any) -> list[str]:
    """A terminal answer as the lines of text it prints, unwrapped, without colour or indent."""
    console = Console(file=io.StringIO(), width=1000, color_system=None, record=True, soft_wrap=True)
    console.print(renderable)
    return [line.strip() for line in console.export_text().splitlines() if line.strip()]


def _board_notes(game: Game, state: State, viewer: int | None) -> dict[str, Any]:
    """The game's optional `board_notes(state) -> dict` hook: numbers its rules compute for the board
    (such as combat totals) that the state's JSON does not carry, worked out on the state as `viewer`
    may see it, so the browser draws them without counting anything itself."""
    notes = game.hook("board_notes")
    if notes is None:
        return {}
    return notes(state if viewer is None else state.observe(viewer))


def _terminal_view(game: Game) -> Any:
    """The game's optional view hook; its `destination` and `shortcuts` serve the browser too."""
    try:
        return game.hook("terminal_view")
    except ImportError:  # the hook's module is optional; without it the browser has plain lists
        return None
