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
from ...core.record import Record
from ...core.session import Match
from ..terminal import TerminalGame


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("replay")(replay)


def play(
    game: str = typer.Argument(..., help="game name, see `quarterdeck games`"),
    scenario: str = typer.Option(None, "--scenario", "-s", help="scenario name, see `quarterdeck scenarios`"),
    option: list[str] = typer.Option([], "--option", "-o", help="a scenario option, name=value (JSON value)"),
    blue: str = typer.Option("human", help="who plays blue: human, random, greedy, ai:<level>"),
    red: str = typer.Option("human", help="who plays red"),
    black: str = typer.Option("human", help="who plays black"),
    seat: list[str] = typer.Option([], help="any seat: name=agent (e.g. blue.van=greedy)"),
    load: Path = typer.Option(None, help="a saved game record to continue"),
    seed: int = typer.Option(0, help="seed for dice and computer opponents"),
    tables: Path = typer.Option(None, "--tables", help="your own tables file, for games that take one (the "
                                "`tables` option)"),
) -> None:
    """Play a game in the terminal, against a person at the same keyboard or the computer."""
    console = Console()
    try:
        rules = games.get(game)
        if load is not None:
            match = Match.from_record(read_record(load), rules)
        else:
            options = parse_options(option)
            if tables is not None:
                options["tables"] = str(tables)
            match = Match(rules, scenario, options, seed)
        wanted = {"blue": blue, "red": red, "black": black}
        wanted.update(dict(_pair(s, "--seat") for s in seat))
        agents = seat_agents(match, wanted, seed)
        match.players = {name: (agents[i].name if i in agents else "human") for i, name in
                         enumerate(match.state.players)}
        TerminalGame(match, agents, console).run()
    except QuarterdeckError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    except (EOFError, KeyboardInterrupt):
        console.print("\nLeft the game.")


def replay(
    record: Path = typer.Argument(..., help="a game record file"),
    step: bool = typer.Option(False, help="wait for Enter after each move"),
) -> None:
    """Replay a game record move by move."""
    console = Console()
    try:
        rec = read_record(record)
        rules = games.get(rec.game)
        view = rules.hook("terminal_view")
        for number, (state, text, events) in enumerate(rec.replay(rules), start=1):
            seat = rec.moves[number - 1][0]
            console.print(f"[bold]{number}. {seat}[/bold] {text}")
            for event in events:
                console.print(f"  [italic]{event.describe()}[/italic]")
            if step:
                if view is not None:
                    console.print(view.board(state))
                console.input("[dim](Enter)[/dim]")
        final = rec.final_state(rules)
        if view is not None:
            console.print(view.board(final))
            console.print(view.status(final))
        if final.outcome:
            console.print(f"Result: [bold]{final.outcome.result}[/bold] ({final.outcome.reason})")
    except QuarterdeckError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    except (EOFError, KeyboardInterrupt):
        console.print()


def read_record(path: Path) -> Record:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text game record") from None
    return Record.parse(text)


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        name, value = _pair(pair, "--option")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def _pair(text: str, flag: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ScenarioError(flag, f"expected name=value, got {text!r}")
    return name, value


def seat_agents(match: Match, wanted: dict[str, str], seed: int) -> dict[int, Agent]:
    """Agents for the seats not played by a person. A side's name covers all its squadrons."""
    agents: dict[int, Agent] = {}
    state = match.state
    for index, name in enumerate(state.players):
        spec = wanted.get(name) or wanted.get(state.team_of(index)) or "human"
        if spec != "human":
            try:
                agents[index] = make_agent(spec, seed=seed + index)
            except ValueError as exc:
                raise ScenarioError(f"--{name}", str(exc)) from None
    return agents
