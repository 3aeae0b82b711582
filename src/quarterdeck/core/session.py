"""A match: a game in progress with its history, for interfaces (terminal, browser, arena).

It keeps the setup and every action in notation, so it can take actions back, accept a whole turn
checked as one, and write or read a game record.

Decisions made in a simultaneous phase are secret until the phase ends: `moves_for(viewer)` and
`events_for(viewer)` leave another seat's secret decisions out until then (not even their number
shows), so an interface can show the history without leaking a plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import IllegalAction, NotationError
from .events import Event, Revealed
from .protocol import CHANCE, SIMULTANEOUS, Action, Game, Resign, State
from .record import Record, files_read, seat_name, start_state


class Match:
    def __init__(
        self,
        game: Game,
        scenario: str | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        players: dict[str, str] | None = None,
    ):
        self.game = game
        self.scenario = scenario or game.default_scenario  # the record names it, default or not
        self.options = dict(options or {})
        self.seed = seed
        self.state: State = game.new_initial_state(scenario, self.options, seed)
        self.files = files_read(game, scenario, self.options)  # the record names them, to replay the same game
        self.players = dict(players or {seat: "human" for seat in self.state.players})
        self.moves: list[tuple[str, str]] = []
        self.events: list[list[Event]] = []
        self._before: list[State] = []  # the state before each move, for take-backs

    # --- playing ---------------------------------------------------------------------------
    def play(self, action: Action | str, player: int | None = None) -> list[Event]:
        """Apply an action (or its notation). On error nothing changes."""
        if isinstance(action, str):
            action = self.state.text_to_action(action, player)
        if isinstance(action, Resign):
            player = action.player
        before = self.state.clone()
        if not isinstance(action, Resign):
            player = self.state._resolve_player(player)
        events = self.state.apply(action, player)
        self._record_move(before, player, before.text_of(action), events)
        return events

    def _record_move(self, before: State, player: int, text: str, events: list[Event]) -> None:
        self._before.append(before)
        self.moves.append((seat_name(before, player), text))
        self.events.append(events)

    def _ends_phase(self, index: int) -> bool:
        """Whether move `index` leaves no simultaneous phase under way: the state after it is not
        SIMULTANEOUS, or its events say `Revealed` (a game whose next secret phase follows at once)."""
        after = self._before[index + 1] if index + 1 < len(self.moves) else self.state
        return after.current_player() != SIMULTANEOUS or any(isinstance(e, Revealed) for e in self.events[index])

    def _secret(self, index: int) -> bool:
        """Whether move `index` was made in a simultaneous phase."""
        return self._before[index].current_player() == SIMULTANEOUS

    def _hidden(self) -> list[bool]:
        """Per move: made in the simultaneous phase still under way, so not yet revealed."""
        hidden = [False] * len(self.moves)
        for index in range(len(self.moves) - 1, -1, -1):
            if self._ends_phase(index):
                break
            hidden[index] = self._secret(index)
        return hidden

    def revealed_by_last_move(self) -> list[tuple[str, str]]:
        """The secret decisions (seat, notation) of the simultaneous phase the last move ended, in
        the order they were made; none when it ended no secret phase."""
        last = len(self.moves) - 1
        if last < 0 or not self._secret(last) or not self._ends_phase(last):
            return []
        first = last
        while first > 0 and self._secret(first - 1) and not self._ends_phase(first - 1):
            first -= 1
        return self.moves[first : last + 1]

    def _visible(self, viewer: int) -> list[bool]:
        """Per move: whether `viewer` may know of it. Another seat's unrevealed decision is left out
        altogether, so the history does not even tell how many decisions it has made."""
        own = self.state.players[viewer] if 0 <= viewer < len(self.state.players) else None
        return [not hidden or seat == own for (seat, _), hidden in zip(self.moves, self._hidden(), strict=True)]

    def moves_for(self, viewer: int | None) -> list[tuple[str, str]]:
        """The move list as `viewer` may see it (None: everything, e.g. for a finished game)."""
        if viewer is None:
            return list(self.moves)
        return [move for move, visible in zip(self.moves, self._visible(viewer), strict=True) if visible]

    def events_for(self, viewer: int | None) -> list[list[Event]]:
        """Events per move of `moves_for(viewer)`, as `viewer` may see them."""
        if viewer is None:
            return list(self.events)
        return [events for events, visible in zip(self.events, self._visible(viewer), strict=True) if visible]

    def play_turn(self, actions: Sequence[Action | str], player: int | None = None) -> list[Event]:
        """A whole turn submitted at once: every action applies, or none does."""
        trial = self.clone()
        events: list[Event] = []
        for number, action in enumerate(actions, start=1):
            try:
                events.extend(trial.play(action, player))
            except (IllegalAction, NotationError) as exc:
                raise type(exc)(*_with_prefix(exc, f"action {number} of the turn")) from None
        self.__dict__.update(trial.__dict__)
        return events

    def undo(self) -> None:
        if not self._before:
            raise IllegalAction("take-back", "there is nothing to take back")
        self.state = self._before.pop()
        self.moves.pop()
        self.events.pop()

    def retract(self, index: int) -> None:
        """Take back move `index` while keeping the moves after it, if they are still legal.

        The interfaces use it to take back one ship's move inside a turn that is not yet committed.
        """
        if not 0 <= index < len(self.moves):
            raise IllegalAction("take-back", f"there is no move number {index + 1}")
        later = self.moves[index + 1 :]
        trial = self.clone()
        for _ in range(len(self.moves) - index):
            trial.undo()
        for seat, text in later:
            player = trial.state.players.index(seat) if seat in trial.state.players else None
            try:
                trial.play(text, player)
            except (IllegalAction, NotationError) as exc:
                raise IllegalAction(
                    "take-back", f"cannot take that back: the later move {text!r} would no longer be legal ({exc})"
                ) from None
        self.__dict__.update(trial.__dict__)

    def clone(self) -> Match:
        copy = Match.__new__(Match)
        copy.__dict__.update(self.__dict__)
        copy.state = self.state.clone()
        copy.players = dict(self.players)
        copy.moves = list(self.moves)
        copy.events = list(self.events)
        copy._before = list(self._before)
        return copy

    # --- records ---------------------------------------------------------------------------
    def record(self) -> Record:
        outcome = self.state.outcome
        return Record(
            game=self.game.name,
            scenario=self.scenario,
            options=self.options,
            seed=self.seed,
            players=dict(self.players),
            result=outcome.result if outcome else "*",
            termination=outcome.reason if outcome else "",
            moves=list(self.moves),
            files=dict(self.files),
        )

    @classmethod
    def from_record(cls, record: Record, game: Game, upto: int | None = None) -> Match:
        """Rebuild a match by replaying its record (optionally only the first `upto` moves)."""
        start_state(record, game)  # reports a wrong game or a bad setup before anything else
        match = cls(game, record.scenario, record.options, record.seed, record.players or None)
        for number, (state, _, events) in enumerate(record.replay(game), start=1):
            if upto is not None and number > upto:
                break
            seat, text = record.moves[number - 1]
            before = match.state
            match.state = state.clone()
            match._record_move(before, _seat_index(before, seat), text, events)
        return match


def _with_prefix(exc: IllegalAction | NotationError, prefix: str) -> tuple[str, str]:
    if isinstance(exc, IllegalAction):
        return exc.rule, f"{prefix}: {exc.message}"
    return exc.field, f"{prefix}: {exc.message}"


def _seat_index(state: State, seat: str) -> int:
    return state.players.index(seat) if seat in state.players else CHANCE
