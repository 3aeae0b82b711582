"""Playing in the terminal: the game loop shared by every game.

The loop asks each seat for its next decision: an agent answers by itself; a person is shown the
board (the game's `terminal_view` hook) and types commands. What a person can type:

* a piece's name: select it; its legal actions are listed and their squares marked on the board;
* a square (with a piece selected): the action ending there (asked which, if several);
* a number from the last list, or any action in notation (``move Victory d4 NE``);
* ``end``: the end-of-phase action that is legal now; a shortcut the game offers (``optimal``);
* ``back``: take back your last decision of this turn; ``takeback <piece>``: take back that
  piece's action this turn, keeping the others;
* ``list``, ``save <file>``, ``resign``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from ..ai.agents import Agent
from ..core.errors import IllegalAction, NotationError, QuarterdeckError, RecordError
from ..core.events import Event
from ..core.protocol import CHANCE, SIMULTANEOUS, Action
from ..core.session import Match

HELP = __doc__.split("What a person can type:", 1)[1]


class QuitGame(Exception):
    """The person asked to leave the game (after saving, if they wished)."""


class TerminalGame:
    def __init__(self, match: Match, agents: dict[int, Agent], console: Console,
                 ask: Callable[[str], str] | None = None):
        self.match = match
        self.agents = agents
        self.console = console
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.view = match.game.hook("terminal_view")
        self.selected: str | None = None
        self.listed: list[Action] = []
        self.viewer: int | None = None  # the person at the keyboard now

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while not self.match.state.is_terminal():
                self.step()
        except QuitGame:
            self.console.print("Left the game.")
            return
        self.show()
        outcome = self.match.state.outcome
        assert outcome is not None
        self.console.print(Panel(f"Game over: [bold]{outcome.result}[/bold] ({outcome.reason})"))

    def step(self) -> None:
        state = self.match.state
        player = state.current_player()
        if player == CHANCE:
            self.report(self.match.play(state.sample_chance(), CHANCE))
            return
        seats = state.acting_players() if player == SIMULTANEOUS else [player]
        for seat in seats:
            if seat in self.agents:
                action = self.agents[seat].act(self.match.state, seat)
                name = self.match.state.players[seat]
                self.console.print(f"[dim]{name} ({self.agents[seat].name}):[/dim] {self.match.state.text_of(action)}")
                self.report(self.match.play(action, seat))
            else:
                self.human(seat)
            if self.match.state.is_terminal():
                return

    def report(self, events: list[Event]) -> None:
        for event in events:
            self.console.print(f"  [italic]{escape(event.describe())}[/italic]")

    def show(self, targets: list[Action] | None = None) -> None:
        state = self.match.state
        if self.viewer is not None and state.current_player() == SIMULTANEOUS:
            state = state.observe(self.viewer)  # only this seat's own secret plan is drawn
        if self.view is None:
            self.console.print(state.describe())
            return
        self.console.print(self.view.board(state, self.selected, targets or []))
        self.console.print(self.view.status(state))

    # --- a person's decision -------------------------------------------------------------------------
    def human(self, seat: int) -> None:
        """Read commands until one decision of `seat` has been applied."""
        self.selected = None
        self.viewer = seat
        self.show()
        name = self.match.state.players[seat]
        while True:
            line = self.ask(f"[bold]{name}[/bold]> ").strip()
            if not line:
                continue
            try:
                if self.command(seat, line):
                    return
            except QuarterdeckError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/red]")

    def command(self, seat: int, line: str) -> bool:
        """Carry out one typed command; True once a decision has been applied."""
        state = self.match.state
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in ("help", "?"):
            self.console.print(HELP)
            return False
        if word == "quit":
            raise QuitGame
        if word == "save":
            return self.save(rest)
        if word == "list":
            self.offer(state.legal_actions(seat))
            return False
        if word == "back":
            return self.take_back(seat, None)
        if word == "takeback":
            return self.take_back(seat, rest)
        shortcuts = self.view.shortcuts(state, seat) if self.view else {}
        if word in shortcuts:
            self.report(self.match.play_turn(shortcuts[word], seat))
            return not self.same_decision(seat)
        if word == "end":
            ends = [a for a in state.legal_actions(seat) if state.text_of(a).startswith("end")]
            if not ends:
                raise IllegalAction("turn-sequence", "there is nothing to end now")
            return self.play(ends[0], seat)
        if word.isascii() and word.isdigit():
            index = int(word) - 1
            if not 0 <= index < len(self.listed):
                raise NotationError("number", f"choose 1 to {len(self.listed)} from the last list", line)
            return self.play(self.listed[index], seat)
        if state.legal_actions(seat, piece=line) or line in self.pieces():
            self.selected = line
            actions = state.legal_actions(seat, piece=line)
            self.show(actions)
            self.offer(actions)
            return False
        if self.selected and self.view:
            at_square = [a for a in state.legal_actions(seat, piece=self.selected)
                         if self.view.destination(state, a) == line.lower()]
            if len(at_square) == 1:
                return self.play(at_square[0], seat)
            if at_square:
                self.console.print(f"Several actions end on {line}; choose one:")
                self.offer(at_square)
                return False
            if " " not in line:
                raise IllegalAction("legal-moves", f"{self.selected} has no legal action ending on {line}")
        return self.play(state.text_to_action(line, seat), seat)

    def pieces(self) -> set[str]:
        state = self.match.state
        return {p for p in (state.action_piece(a) for a in state.legal_actions()) if p}

    def offer(self, actions: list[Action]) -> None:
        self.listed = list(actions)
        state = self.match.state
        if not actions:
            self.console.print("(no legal actions)")
        for number, action in enumerate(actions, start=1):
            self.console.print(f"  {number:>3}. {escape(state.text_of(action))}")

    def play(self, action: Action, seat: int) -> bool:
        self.report(self.match.play(action, seat))
        self.selected = None
        if self.same_decision(seat):
            self.show()
            return False
        return True

    def same_decision(self, seat: int) -> bool:
        """Whether `seat` still has the move; a person keeps the prompt until the turn passes."""
        state = self.match.state
        return not state.is_terminal() and seat in state.acting_players()

    def take_back(self, seat: int, piece: str | None) -> bool:
        own = self.own_pending(seat)
        if not own:
            raise IllegalAction("take-back", "you have nothing to take back in this turn")
        if piece is None:
            self.match.retract(own[-1])
        else:
            mine = self.piece_moves(own, piece)
            if not mine:
                raise IllegalAction("take-back", f"{piece} has no action to take back in this turn")
            self.match.retract(mine[-1])
        self.console.print("Taken back.")
        self.show()
        return False

    def own_pending(self, seat: int) -> list[int]:
        """Indices of this seat's moves since another seat last acted (its open decisions)."""
        name = self.match.state.players[seat]
        indices: list[int] = []
        for index in range(len(self.match.moves) - 1, -1, -1):
            if self.match.moves[index][0] != name:
                break
            indices.append(index)
        return sorted(indices)

    def piece_moves(self, indices: list[int], piece: str) -> list[int]:
        found = []
        for index in indices:
            before = self.match._before[index]
            seat, text = self.match.moves[index]
            action = before.text_to_action(text, before.players.index(seat))
            if before.action_piece(action) == piece:
                found.append(index)
        return found

    def save(self, path: str) -> bool:
        if not path:
            raise NotationError("file", "save <file>")
        try:
            Path(path).write_text(self.match.record().to_text())
        except OSError as exc:
            raise RecordError(f"cannot write {path}: {exc.strerror}") from None
        self.console.print(f"Saved to {path}.")
        return False
