"""Playing in the terminal: the game loop shared by every game.

The loop asks each seat for its next decision: an agent answers by itself; a person is shown the
board (the game's `terminal_view` hook) and types commands. A line is read as a command first (the
words of `COMMANDS`, the game's own queries (the view's `queries`, answered by its `query`, such
as Naval Warfare's `range`) and its shortcuts), then as a piece's name (any case), then, with a piece
selected, as a square, and last as an action in notation; so `resign` is never taken for a square.

Between the secret decisions of two people at one keyboard (a hidden deployment, plotted moves)
the screen is cleared and the next person is asked to press Enter, so nobody sees another's plan.
Plans the game offers to make for a person (`automatic` in the view: Square Rigger Chess's best
defence) are made unless the person switches them off with ``auto <name> off``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from ..ai.agents import Agent
from ..core.errors import IllegalAction, NotationError, QuarterdeckError, RecordError
from ..core.events import Event, Revealed
from ..core.protocol import CHANCE, SIMULTANEOUS, Action, Resign
from ..core.session import Match

PIECES_NAMED = 6  # a refusal names this many pieces, then counts the rest

# What a person can type, for `help` (the game's own lines and the phase's choices follow).
COMMANDS = (
    ("<piece>", "select a piece by name (any case): its legal actions are listed and marked"),
    ("<square>", "with a piece selected: its action ending there (asked which, if several)"),
    ("<action less its verb>", "an action typed without its first word"),
    ("<number>", "an action from the last list"),
    ("<notation>", "any action written out in full"),
    ("end", "end the phase; if it cannot end, says which rule stands in the way"),
    ("same", "repeat your plan of this phase from your last turn (what is no longer legal is left out)"),
    ("back", "take back your last decision of this turn"),
    ("takeback <piece>", "take back that piece's action this turn, keeping the others"),
    ("list", "list every legal action"),
    ("save <file>", "write the game record (asks before replacing a file; `save! <file>` replaces it)"),
    ("resign", "give up the game"),
    ("help", "this help"),
    ("quit", "leave the game (`play --save FILE` keeps the record)"),
)
AUTO_COMMAND = ("auto <name> on|off", "let the terminal make a plan for you, or not")
HAND_OVER = "\x1b[3J"  # erases the scrollback too, where a cleared plan would still be readable


def typed_lines(console: Console) -> Callable[[str], str]:
    """How a person's lines are read: input() with readline's line editing and history (the Up arrow
    brings back the last command, for the many `move <ship>` of a turn) where the console is a
    terminal and the platform has readline."""
    if console.is_terminal:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (loading it is what gives input() editing and history)
    return lambda prompt: console.input(prompt)


def forget_typed_lines() -> None:
    """Empty the history of typed lines, where one is kept: the next person at the keyboard must not
    bring back another's secret plan with the Up arrow."""
    readline = sys.modules.get("readline")
    if readline is not None:
        readline.clear_history()


class QuitGame(Exception):
    """The person asked to leave the game (after saving, if they wished)."""


class TerminalGame:
    def __init__(self, match: Match, agents: dict[int, Agent], console: Console,
                 ask: Callable[[str], str] | None = None, save_to: Path | None = None):
        self.match = match
        self.agents = agents
        self.console = console
        self.ask = ask or typed_lines(console)
        self.view = match.game.hook("terminal_view")
        self.save_to = save_to  # the record is written here when the game ends or the person leaves
        self.selected: str | None = None
        self.listed: list[Action] = []
        self.viewer: int | None = None  # the person at the keyboard now
        self.secret_shown: int | None = None  # a seat whose unrevealed plan may be on the screen
        self.secret_noted: set[int] = set()  # agents already said to be deciding in secret
        self.auto_off: set[str] = set()
        self.seen: dict[str, str] = {}  # pieces met, by their names in lower case
        self.verbs: set[str] = set()  # first words of the actions of pieces met

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while not self.match.state.is_terminal():
                self.step()
        except QuitGame:
            self.console.print("Left the game.")
            return
        finally:
            if self.save_to is not None:
                self.write(self.save_to)
        self.show()
        outcome = self.match.state.outcome
        assert outcome is not None
        self.console.print(Panel(f"Game over: [bold]{outcome.verdict}[/bold] ({outcome.reason})"))

    def step(self) -> None:
        state = self.match.state
        player = state.current_player()
        if player == CHANCE:
            self.report(self.match.play(state.sample_chance(), CHANCE))
            return
        seats = state.acting_players() if player == SIMULTANEOUS else [player]
        for seat in seats:
            if seat in self.agents:
                self.agent_decides(seat)
            else:
                self.human(seat)
            if self.match.state.is_terminal():
                return

    def agent_decides(self, seat: int) -> None:
        state = self.match.state
        action = self.agents[seat].act(state, seat)
        who = f"{state.players[seat]} ({self.agents[seat].name})"
        if state.current_player() == SIMULTANEOUS:
            # A secret decision is not printed, nor how many there are: only that the agent decides.
            if seat not in self.secret_noted:
                self.secret_noted.add(seat)
                self.console.print(f"[dim]{who} decides in secret.[/dim]")
        else:
            self.console.print(f"[dim]{who}:[/dim] {escape(state.text_of(action))}")
        self.report(self.match.play(action, seat))

    def report(self, events: list[Event]) -> None:
        told = False
        for event in events:
            self.console.print(f"  [italic]{escape(event.describe())}[/italic]")
            if isinstance(event, Revealed):  # what was decided, before what it led to
                told = self.report_revealed()
        if not told:
            self.report_revealed()
        if self.match.state.current_player() != SIMULTANEOUS or any(isinstance(e, Revealed) for e in events):
            self.secret_shown = None  # every plan made so far is out in the open
            self.secret_noted = set()

    def report_revealed(self) -> bool:
        """What the others decided in secret (a person alone at the keyboard knows their own); True
        once the last move revealed something."""
        revealed = self.match.revealed_by_last_move()
        if not revealed:
            return False
        players = self.match.state.players
        people = [seat for index, seat in enumerate(players) if index not in self.agents]
        known = set(people) if len(people) == 1 else {revealed[-1][0]} & set(people)
        for seat in dict.fromkeys(seat for seat, _ in revealed if seat not in known):
            texts = ", ".join(text for who, text in revealed if who == seat)
            self.console.print(f"  [italic]{escape(seat)} decided: {escape(texts)}[/italic]")
        return True

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
        self.hand_over(seat)
        self.viewer = seat
        if self.match.state.current_player() == SIMULTANEOUS:
            self.secret_shown = seat
        if self.automatic(seat) and not self.same_decision(seat):
            return
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
                if isinstance(exc, NotationError):
                    self.usage(seat, line)

    def usage(self, seat: int, line: str) -> None:
        """After a mistyped action (`order blue`): how its verb is written and what it can do now."""
        state = self.match.state
        verb = line.split()[0].lower()
        forms = [row for row in (self.view.help(state, seat) if hasattr(self.view, "help") else [])
                 if any(form.split()[0] == verb for form in row[0].lower().split(" / "))]
        if forms:
            self.console.print(self.rows(f"How to write {verb}", forms))
        legal = [state.text_of(a) for a in state.legal_actions(seat)]
        legal = [text for text in legal if text.split()[0].lower() == verb]
        if legal:
            typed = line.lower().split()

            def words_in_common(text: str) -> int:
                common = 0
                for word, typed_word in zip(text.lower().split(), typed, strict=False):
                    if word != typed_word:
                        break
                    common += 1
                return common

            example = max(legal, key=words_in_common)  # `place Junk` is shown a Junk's placement
            more = f" ({len(legal)} in all: `list` shows them)" if len(legal) > 1 else ""
            self.console.print(f"{verb} now: e.g. `{escape(example)}`{more}")
        elif forms:
            self.console.print(f"no {verb} is legal now ({escape(state.describe())})")

    def hand_over(self, seat: int) -> None:
        """Before a person's secret decision, when another person sat at the keyboard: clear the
        screen of the other's plan and wait until the new person is there."""
        state = self.match.state
        people = [p for p in range(len(state.players)) if p not in self.agents]
        if state.current_player() != SIMULTANEOUS or len(people) < 2 or self.viewer == seat:
            return
        if self.secret_shown not in (None, seat):
            forget_typed_lines()
            self.console.clear()
            if self.console.is_terminal:
                self.console.file.write(HAND_OVER)
                self.console.file.flush()
        self.ask(f"{state.players[seat].capitalize()}, press Enter (a secret decision: the others look away) ")

    def automatic(self, seat: int) -> bool:
        """Make a plan the game offers to make for a person (unless switched off); True if one was made."""
        plans = self.view.automatic(self.match.state, seat) if hasattr(self.view, "automatic") else {}
        for name, plan in plans.items():
            if name in self.auto_off:
                continue
            texts = "; ".join(self.match.state.text_of(a) for a in plan)
            try:
                events = self.match.play_turn(plan, seat)
            except QuarterdeckError as exc:  # the person decides after all, told why
                self.console.print(f"[red]auto {name} could not be made: {escape(str(exc))}[/red]")
                return False
            self.console.print(f"[dim]auto {name} (`auto {name} off` to decide it yourself):[/dim] {escape(texts)}")
            self.report(events)
            return True
        return False

    def command(self, seat: int, line: str) -> bool:
        """Carry out one typed command; True once a decision has been applied."""
        state = self.match.state
        word, _, rest = line.partition(" ")
        handler = _HANDLERS.get(word.lower())
        if handler is not None:
            return handler(self, seat, rest.strip())
        if word.lower() in getattr(self.view, "queries", {}):  # a game's own question (Naval Warfare's `range`)
            self.console.print(self.view.query(state, seat, word.lower(), rest.strip()))
            return False
        line = self.canonical(seat, line)
        word, _, rest = line.partition(" ")
        shortcuts = self.view.shortcuts(state, seat) if self.view else {}
        if word in shortcuts and not rest:
            self.report(self.match.play_turn(shortcuts[word], seat))
            if self.same_decision(seat):
                self.show()  # as after any action: the board and the odds as they now stand
                return False
            return True
        if word.isascii() and word.isdigit() and not rest:
            index = int(word) - 1
            if not self.listed:
                raise NotationError("number", "no list of actions is shown yet: name a piece, or type `list`", line)
            if not 0 <= index < len(self.listed):
                raise NotationError("number", f"choose 1 to {len(self.listed)} from the last list", line)
            return self.play(self.listed[index], seat)
        if state.legal_actions(seat, piece=word) or word in self.pieces(seat) or word in self.seen.values():
            if rest:
                return self.piece_command(seat, word, rest)
            actions = state.legal_actions(seat, piece=word)
            if not actions:
                raise state.idle_reason(word, seat) or IllegalAction("legal-moves", f"{word} has no legal action now")
            self.selected = word
            self.show(actions)
            self.offer(actions)
            return False
        if self.selected and self.view and not rest:
            return self.at_square(seat, self.selected, word)
        try:
            action = state.text_to_action(line, seat)
        except NotationError as exc:
            if exc.field != "verb":
                raise
            # an action typed without its verb (`a2-a1` for `move a2-a1`), as the browser takes it too
            typed = line.lower().split()
            bare = [a for a in state.legal_actions(seat) if state.text_of(a).lower().split()[1:] == typed]
            if len(bare) == 1:
                return self.play(bare[0], seat)
            raise NotationError("verb", f"{exc.message}; nor is {word!r} a command or a piece with a legal action "
                                "now (`help` says what you can type)", line) from None
        return self.play(action, seat)

    def canonical(self, seat: int, line: str) -> str:
        """The line with piece names in any case written as the game spells them (`victory`: `Victory`)."""
        self.pieces(seat)
        return " ".join(self.seen.get(w.lower(), w) for w in line.split())

    def piece_command(self, seat: int, piece: str, rest: str) -> bool:
        """A piece's action typed without its first word (`Victory d5 NE`), or a piece and a square."""
        state = self.match.state
        actions = state.legal_actions(seat, piece=piece)
        typed = f"{piece} {rest}".lower().split()
        exact = [a for a in actions if state.text_of(a).lower().split()[1:] == typed]
        if len(exact) == 1:
            return self.play(exact[0], seat)
        if exact:
            self.offer(exact)
            return False
        if " " not in rest and self.view and any(self.view.destination(state, a) == rest.lower() for a in actions):
            return self.at_square(seat, piece, rest)
        verbs = {state.text_of(a).split()[0] for a in actions} or self.verbs  # a piece done for the turn
        for verb in sorted(verbs):
            try:
                action = state.text_to_action(f"{verb} {piece} {rest}", seat)
            except NotationError:
                continue
            return self.play(action, seat)  # illegal: the rule that forbids it is named
        if " " not in rest:
            raise IllegalAction("legal-moves", f"{piece} has no legal action ending on {rest}")
        raise NotationError("action", f"{piece} has no action '{piece} {rest}'; type {piece} to list its actions")

    def at_square(self, seat: int, piece: str, square: str) -> bool:
        state = self.match.state
        found = [a for a in state.legal_actions(seat, piece=piece) if self.view.destination(state, a) == square.lower()]
        if len(found) == 1:
            return self.play(found[0], seat)
        if found:
            self.console.print(f"Several actions end on {square}; choose one:")
            self.offer(found)
            return False
        raise IllegalAction("legal-moves", f"{piece} has no legal action ending on {square}")

    def pieces(self, seat: int) -> set[str]:
        """The pieces with a legal action now; every piece and first word met is remembered, so a piece
        done for the turn is still known by name (any case) and told why it cannot act."""
        state = self.match.state
        found = set()
        for action in state.legal_actions(seat):
            piece = state.action_piece(action)
            if piece:
                found.add(piece)
                self.verbs.add(state.text_of(action).split()[0])
        self.seen.update((piece.lower(), piece) for piece in found)
        return found

    def offer(self, actions: list[Action]) -> None:
        self.listed = list(actions)
        state = self.match.state
        if not actions:
            self.console.print("(no legal actions)")
        entries = [f"{number:>3}. {escape(state.text_of(action))}" for number, action in enumerate(actions, start=1)]
        # A long list goes in columns, down then across, so the board above stays on the screen.
        self.console.print(Columns(entries, column_first=True, padding=(0, 3)) if len(entries) > 8
                           else "\n".join(entries))

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

    # --- the commands ---------------------------------------------------------------------------------
    def help(self, seat: int, rest: str) -> bool:
        """What to do now and how: the phase, its choices, this game's ways of typing, the commands
        in one line (`help commands` explains each)."""
        state = self.match.state
        if rest == "commands":
            self.console.print(self.rows("Commands of every game", self.commands(seat)))
            return False
        phase = self.phase_help(seat)
        self.console.print(f"[bold]{escape(self.match.game.title)}[/bold]: {escape(state.describe())}"
                           + (f"; {escape(phase)}" if phase else ""))
        verbs: dict[str, list[str]] = {}
        for action in state.legal_actions(seat):
            text = state.text_of(action)
            verbs.setdefault(text.split()[0], []).append(text)
        choices = [f"{verb} ({len(texts)}, e.g. `{texts[0]}`)" if texts[0] != verb else verb
                   for verb, texts in verbs.items()]
        choices += [f"`{name}`" for name in (self.view.shortcuts(state, seat) if self.view else {})]
        self.console.print(f"Choices now: {escape(', '.join(choices) or 'none')}")
        if hasattr(self.view, "help"):
            self.console.print(self.rows("In this game", self.view.help(state, seat)))
        words = ", ".join(command for command, _ in self.commands(seat) if not command.startswith("<"))
        self.console.print(f"Commands: {escape(words)}; `help commands` says what each does.")
        return False

    def commands(self, seat: int) -> list[tuple[str, str]]:
        """COMMANDS, the piece shorthand shown with an action of this game legal now."""
        example = self.shorthand_example(seat)
        rows = [(command, meaning + example if command == "<action less its verb>" else meaning)
                for command, meaning in COMMANDS]
        if hasattr(self.view, "automatic"):
            rows.insert(-4, AUTO_COMMAND)
        return rows

    def shorthand_example(self, seat: int) -> str:
        """The shorthand shown with an action legal now (`Bellona c1 S` for `move Bellona c1 S`)."""
        state = self.match.state
        texts = [state.text_of(action) for action in state.legal_actions(seat)]
        text = next((text for text in texts if " " in text), None)
        return f", e.g. `{text.split(' ', 1)[1]}` for `{text}`" if text else ""

    @staticmethod
    def rows(title: str, rows: list[tuple[str, str]]) -> Table:
        table = Table(title=title, title_justify="left", box=None, show_header=False, pad_edge=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for command, meaning in rows:
            table.add_row(escape(command), escape(meaning))
        return table

    def quit(self, seat: int, rest: str) -> bool:
        raise QuitGame

    def list_actions(self, seat: int, rest: str) -> bool:
        self.offer(self.match.state.legal_actions(seat))
        return False

    def resign(self, seat: int, rest: str) -> bool:
        if rest and rest != self.match.state.players[seat]:
            raise NotationError("player", f"you can resign only for yourself ({self.match.state.players[seat]})", rest)
        return self.play(Resign(seat), seat)

    def end(self, seat: int, rest: str) -> bool:
        return self.play(self.end_action(seat), seat)

    def end_action(self, seat: int) -> Action:
        """The end-of-phase action legal now; if there is none, the rule that stops the phase ending."""
        state = self.match.state
        ends = [a for a in state.legal_actions(seat) if state.text_of(a).startswith("end")]
        if ends:
            return ends[0]
        phase = getattr(state, "phase", None)
        candidates = [f"end-{phase}", "end"] if phase else ["end"]
        for text in candidates:
            try:
                action = state.text_to_action(text, seat)
            except NotationError:
                continue
            state.clone().apply(action, seat)  # raises IllegalAction naming the rule in the way
            return action
        raise IllegalAction("turn-sequence", "there is nothing to end now" + self.what_ends_the_phase(seat))

    def phase_help(self, seat: int) -> str | None:
        """What the phase asks of `seat`, in the game's words, where its view says."""
        return self.view.phase_help(self.match.state, seat) if hasattr(self.view, "phase_help") else None

    def what_ends_the_phase(self, seat: int) -> str:
        """What the phase asks and the pieces that still have an action, for a phase no action ends."""
        state = self.match.state
        phase = self.phase_help(seat)
        names = list(dict.fromkeys(filter(None, map(state.action_piece, state.legal_actions(seat)))))
        shown = ", ".join(names[:PIECES_NAMED]) + (f" and {len(names) - PIECES_NAMED} more" if len(names) > PIECES_NAMED
                                                   else "")
        return (f": with an action now: {shown}" if names else "") + (f". This phase: {phase}" if phase else "")

    def repeat(self, seat: int, rest: str) -> bool:
        plan = self.last_plan(seat)
        if not plan:
            raise IllegalAction("turn-sequence", "you have no plan of this phase from an earlier turn to repeat")
        for text in plan:
            try:
                self.report(self.match.play(text, seat))
            except QuarterdeckError as exc:
                self.console.print(f"[yellow]left out {escape(text)}: {escape(str(exc))}[/yellow]")
            if not self.same_decision(seat):
                return True
        self.show()
        return False

    def last_plan(self, seat: int) -> list[str]:
        """This seat's decisions (less the phase's end) the last time it decided in the current phase."""
        phase = self.plan_phase(self.match.state)
        name = self.match.state.players[seat]
        pending = set(self.own_pending(seat))
        block: list[str] = []
        for index in range(len(self.match.moves) - 1, -1, -1):
            mover, text = self.match.moves[index]
            if index in pending:
                continue
            if mover == name and self.plan_phase(self.match._before[index]) == phase:
                block.append(text)
            elif block:
                break
        return [text for text in reversed(block) if not text.startswith("end")]

    def plan_phase(self, state: object) -> object:
        """The phase whose plan `same` repeats; a game's view may join phases (Naval Warfare's movers)."""
        if hasattr(self.view, "plan_phase"):
            return self.view.plan_phase(state)
        return getattr(state, "phase", None)

    def auto(self, seat: int, rest: str) -> bool:
        name, _, switch = rest.rpartition(" ")
        known = set(getattr(self.view, "automatic_names", ()))
        if name not in known or switch not in ("on", "off"):
            choices = ", ".join(sorted(known)) or "none in this game"
            raise NotationError("auto", f"auto <name> on|off, where name is one of: {choices}", rest)
        if switch == "off":
            self.auto_off.add(name)
        else:
            self.auto_off.discard(name)
        self.console.print(f"auto {name} {switch}.")
        return self.automatic(seat) and not self.same_decision(seat)

    def back(self, seat: int, rest: str) -> bool:
        return self.take_back(seat, None)

    def takeback(self, seat: int, rest: str) -> bool:
        if not rest:
            raise NotationError("piece", "takeback <piece>")
        return self.take_back(seat, rest)

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
            if (before.action_piece(action) or "").lower() == piece.lower():
                found.append(index)
        return found

    def save(self, seat: int, rest: str) -> bool:
        if not rest:
            raise NotationError("file", "save <file>")
        path = Path(rest).expanduser()
        if path.exists():
            answer = self.ask(f"{escape(str(path))} exists; replace it? (y/n) ").strip().lower()
            if answer not in ("y", "yes"):
                self.console.print("Not saved.")
                return False
        self.write(path)
        return False

    def save_over(self, seat: int, rest: str) -> bool:
        if not rest:
            raise NotationError("file", "save! <file>")
        self.write(Path(rest).expanduser())
        return False

    def write(self, path: Path) -> None:
        try:
            path.write_text(self.match.record().to_text(), encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot write {path}: {exc.strerror}") from None
        self.console.print(f"Saved to {escape(str(path))}.")


# The command words, read before anything else on the line.
_HANDLERS: dict[str, Callable[[TerminalGame, int, str], bool]] = {
    "help": TerminalGame.help,
    "?": TerminalGame.help,
    "quit": TerminalGame.quit,
    "list": TerminalGame.list_actions,
    "resign": TerminalGame.resign,
    "end": TerminalGame.end,
    "same": TerminalGame.repeat,
    "auto": TerminalGame.auto,
    "back": TerminalGame.back,
    "takeback": TerminalGame.takeback,
    "save": TerminalGame.save,
    "save!": TerminalGame.save_over,
}
