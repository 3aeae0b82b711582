"""`quarterdeck play` and `quarterdeck replay`: games in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ... import games
from ...ai.agents import Agent, make_agent
from ...core.errors import QuarterdeckError, RecordError, ScenarioError
from ...core.events import Event
from ...core.files import is_file_name
from ...core.protocol import Game, State
from ...core.record import Record, start_state
from ...core.session import Match
from ..terminal import TerminalGame


def register(app: typer.Typer) -> None:
    # Any seat or side of the chosen game is an option too (`--british ai:3`): click cannot know them in advance.
    app.command("play", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(play)
    app.command("replay")(replay)


def play(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="game name, see `quarterdeck games`"),
    scenario: str = typer.Option(None, "--scenario", "-s", help="scenario name (see `quarterdeck scenarios`) or "
                                 "your own scenario file (.toml)"),
    option: list[str] = typer.Option([], "--option", "-o", help="a scenario option, name=value (JSON value)"),
    blue: str = typer.Option(None, help="who plays blue: human, random, greedy, `ai:<level>` [default: human]"),
    red: str = typer.Option(None, help="who plays red [default: human]"),
    black: str = typer.Option(None, help="who plays black [default: human]"),
    seat: list[str] = typer.Option([], help="any seat: name=agent (e.g. blue.van=greedy)"),
    load: Path = typer.Option(None, help="a saved game record to continue (with the players it names)"),
    save: Path = typer.Option(None, help="write the game record to this file when the game ends or you leave"),
    force: bool = typer.Option(False, "--force", help="let --save replace a file that exists"),
    seed: int = typer.Option(0, help="seed for dice and computer opponents"),
    tables: Path = typer.Option(None, "--tables", help="your own tables file, for games that take one (the "
                                "`tables` option)"),
) -> None:
    """Play a game in the terminal, against a person at the same keyboard or the computer.

    Every seat or side of the game takes its player the same way: --british ai:3, --french human.
    """
    console = Console()
    try:
        rules = games.get(game)
        if save is not None:
            save = save.expanduser()
            if save.exists() and not force:
                raise ScenarioError("--save", f"{save} exists; add --force to replace it")
        recorded: dict[str, str] = {}
        if load is not None:
            setup = (("--scenario", scenario), ("--option", option), ("--tables", tables))
            given = [flag for flag, value in setup if value]
            if given:
                why = "a loaded game goes on as its record set it up; leave out " + ", ".join(given)
                raise ScenarioError(given[0], why)
            record = read_record(load.expanduser())
            match = Match.from_record(record, rules)
            recorded = dict(record.players)
        else:
            options = parse_options(option)
            if tables is not None:
                if "tables" not in rules.file_options:
                    takes = ", ".join(name for name, cls in games.load().items() if "tables" in cls.file_options)
                    raise ScenarioError("--tables", f"{rules.name} takes no tables file (the games that do: {takes})")
                options["tables"] = str(tables.expanduser())
            match = Match(rules, own_file(scenario), options, seed)
        wanted = {name: spec for name, spec in (("blue", blue), ("red", red), ("black", black)) if spec}
        check_seats(match, rules.name, wanted, "--{}")
        flagged = seat_flags(ctx.args)
        check_seats(match, rules.name, flagged, "--{}", " (nor is it an option of `quarterdeck play`: see --help)")
        wanted.update(flagged)
        pairs = dict(_pair(s, "--seat") for s in seat)
        check_seats(match, rules.name, pairs, "--seat")
        wanted.update(pairs)
        agents, specs = seat_agents(match, wanted, seed, recorded)
        match.players = specs
        console.print("Players: " + ", ".join(f"{name}: {who}" for name, who in specs.items()), highlight=False)
        TerminalGame(match, agents, console, save_to=save).run()
    except QuarterdeckError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    except (EOFError, KeyboardInterrupt):
        console.print("\nLeft the game.")


def replay(
    record: Path = typer.Argument(..., help="a game record file"),
    step: bool = typer.Option(False, help="step through the game: Enter, back, a move number, quit"),
) -> None:
    """Replay a game record, all at once or step by step (forwards, back, or to any move)."""
    console = Console()
    try:
        rec = read_record(record.expanduser())
        rules = games.get(rec.game)
        if step:
            Stepper(rec, rules, console).run()
            return
        view = rules.hook("terminal_view")
        for number, (_, text, events) in enumerate(rec.replay(rules), start=1):
            show_move(console, number, rec.moves[number - 1][0], text, events)
        final = rec.final_state(rules)
        if view is not None:
            console.print(view.board(final))
            console.print(view.status(final))
        show_result(console, final)
    except QuarterdeckError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    except (EOFError, KeyboardInterrupt):
        console.print()


def show_move(console: Console, number: int, seat: str, text: str, events: list[Event], of: int = 0) -> None:
    where = f"  [dim](move {number} of {of})[/dim]" if of else ""
    console.print(f"[bold]{number}. {escape(seat)}[/bold] {escape(text)}{where}")
    for event in events:
        console.print(f"  [italic]{escape(event.describe())}[/italic]")


def show_result(console: Console, state: State) -> None:
    if state.outcome:
        console.print(f"Result: [bold]{escape(state.outcome.verdict)}[/bold] ({escape(state.outcome.reason)})")


class Stepper:
    """`replay --step`: the position after any move of a record, moving forwards and back."""

    PROMPT = "[dim](Enter: next, b: back, <number>: after that move, 0: the start, q: quit)[/dim] "

    def __init__(self, record: Record, rules: Game, console: Console, ask=None):
        self.record = record
        self.console = console
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.view = rules.hook("terminal_view")
        self.positions: list[State] = [start_state(record, rules)]
        self.events: list[list[Event]] = [[]]
        for state, _, events in record.replay(rules):
            self.positions.append(state.clone())  # replay goes on changing the state it yields
            self.events.append(events)

    def run(self) -> None:
        last = len(self.positions) - 1
        at = 0
        while True:
            self.show(at)
            if at == last:
                show_result(self.console, self.positions[at])
            answer = self.ask(self.PROMPT).strip().lower()
            if answer in ("q", "quit"):
                return
            if answer == "":
                if at == last:
                    return
                at += 1
            elif answer in ("b", "back"):
                at = max(0, at - 1)
            elif answer.isascii() and answer.isdigit() and int(answer) <= last:
                at = int(answer)
            else:
                self.console.print(f"[red]{escape(answer)}: type Enter, b, q or a move number from 0 to {last}[/red]")

    def show(self, at: int) -> None:
        state = self.positions[at]
        if at == 0:
            self.console.print(f"[bold]The start[/bold] ({len(self.positions) - 1} moves in the record)")
        else:
            seat, text = self.record.moves[at - 1]
            show_move(self.console, at, seat, text, self.events[at], len(self.positions) - 1)
        if self.view is not None:
            self.console.print(self.view.board(state))
            self.console.print(self.view.status(state))


def read_record(path: Path) -> Record:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text game record") from None
    return Record.parse(text)


def own_file(scenario: str | None) -> str | None:
    """A scenario given by the path of a player's own file with `~` read as the home folder, as the
    shell reads it everywhere but after `--scenario=`."""
    return str(Path(scenario).expanduser()) if scenario and is_file_name(scenario) else scenario


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        name, value = _pair(pair, "--option")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value  # a word: no quotes needed on the command line
        except RecursionError:
            raise ScenarioError(f"options.{name}", "a value nested too deeply to be read") from None
    return options


def _pair(text: str, flag: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ScenarioError(flag, f"expected name=value, got {text!r}")
    return name, value


def seat_flags(args: list[str]) -> dict[str, str]:
    """`--<seat> AGENT` (or `--<seat>=AGENT`) for the seats and sides that are not options of their own."""
    wanted: dict[str, str] = {}
    rest = list(args)
    while rest:
        flag = rest.pop(0)
        name, sep, spec = flag[2:].partition("=")
        if not flag.startswith("--") or not name:
            raise ScenarioError("arguments", f"unexpected {flag!r}: the game is named once, then options (see --help)")
        if not sep:
            if not rest or rest[0].startswith("-"):
                raise ScenarioError(flag, f"who plays {name}? e.g. {flag} ai:3 (or human, random, greedy)")
            spec = rest.pop(0)
        wanted[name] = spec
    return wanted


def check_seats(match: Match, game: str, wanted: dict[str, str], flag: str, hint: str = "") -> None:
    """Refuse a seat or side the game does not have, naming the ones it has (and `hint`)."""
    state = match.state
    known = list(dict.fromkeys([*state.players, *(state.team_of(i) for i in range(len(state.players)))]))
    for name in wanted:
        if name not in known:
            raise ScenarioError(
                flag.format(name), f"{game} has no seat or side {name!r}; it has: {', '.join(known)}{hint}"
            )


def seat_agents(
    match: Match, wanted: dict[str, str], seed: int, recorded: dict[str, str] | None = None
) -> tuple[dict[int, Agent], dict[str, str]]:
    """Agents for the seats not played by a person, and who plays each seat (for the record).

    A side's name covers all its squadrons; a seat not named takes the player of a loaded record.
    """
    agents: dict[int, Agent] = {}
    specs: dict[str, str] = {}
    state = match.state
    recorded = recorded or {}
    for index, name in enumerate(state.players):
        given = wanted.get(name) or wanted.get(state.team_of(index))
        spec = given or recorded.get(name) or "human"
        specs[name] = spec
        if spec != "human":
            try:
                agents[index] = make_agent(spec, seed=seed + index)
            except ValueError as exc:
                where = f"--{name}" if given else f"the record's player of {name} (give another with --{name})"
                raise ScenarioError(where, str(exc)) from None
    return agents, specs
