"""`quarterdeck games`, `scenarios` and `rules`: what can be played."""

from __future__ import annotations

import json

import typer
from rich.console import Console, Group
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from ... import games
from ...core.protocol import Game
from .play import own_file


def register(app: typer.Typer) -> None:
    app.command("games")(list_games)
    app.command("scenarios")(list_scenarios)
    app.command("rules")(show_rules)


def list_games() -> None:
    """List the games Quarterdeck plays."""
    table = Table(title="Games")
    table.add_column("name")
    table.add_column("title")
    table.add_column("scenarios", justify="right")
    for name in games.names():
        game = games.get(name)
        table.add_row(name, game.title, str(len(game.scenarios())))
    Console().print(table)


def list_scenarios(
    game: str = typer.Argument(..., help="game name, see `quarterdeck games`"),
    name: str = typer.Argument(
        None, help="a scenario, or your own scenario file (.toml) to check it: print its whole briefing and options"
    ),
) -> None:
    """List a game's scenarios; with a scenario's name (or your own scenario file), its whole briefing."""
    rules = games.get(game)
    console = Console()
    if name is not None:
        console.print(scenario_sheet(rules, own_file(name)))
        return
    table = Table(title=f"{rules.title}: scenarios", expand=True,
                  caption=f"The whole briefing: quarterdeck scenarios {rules.name} <scenario>")
    table.add_column("scenario", no_wrap=True)
    # a long title wraps rather than squeezing the briefing to a few letters on an 80-column terminal
    table.add_column("title", ratio=1)
    table.add_column("briefing", no_wrap=True, overflow="ellipsis", ratio=1)
    for info in rules.scenarios():
        default = " (default)" if info.name == rules.default_scenario else ""
        table.add_row(info.name + default, info.title, " ".join(info.briefing.split()))
    console.print(table)


def scenario_sheet(rules: Game, name: str) -> Group:
    """A scenario's title, whole briefing (its victory conditions included) and options with defaults."""
    info = rules.scenario_info(name)
    default = " (the default)" if info.name == rules.default_scenario else ""
    parts: list = [
        Text(f"{rules.title}: {info.title}{default}", style="bold"),
        Text(" ".join(info.briefing.split())),
        Text(f"quarterdeck play {rules.name} --scenario {info.name}", style="dim"),
    ]
    opening = rules.new_initial_state(info.name)
    seats = opening.players
    sides = list(dict.fromkeys(opening.team_of(seat) for seat in range(len(seats))))  # a squadron's seat: its side
    computer = sides[-1]
    parts.append(Text(f"Against the computer (it plays {computer}; you play {' and '.join(sides[:-1])}):"))
    parts.append(Text(f"quarterdeck play {rules.name} --scenario {info.name} --{computer} ai:3", style="dim"))
    parts.append(Text("Seats: " + "; ".join(f"{seat} ({info.sides[seat]})" if info.sides.get(seat) else seat
                                            for seat in seats)))
    if info.options:
        parts.append(Text("Options (play ... --option name=value):"))
        options = Table(box=None)
        options.add_column("option", no_wrap=True)
        options.add_column("default", no_wrap=True)
        options.add_column("what it does")
        for option, value in info.options.items():
            names = info.choices.get(option)
            note = info.notes.get(option, "") + (f" (one of: {', '.join(names)})" if names else "")
            options.add_row(option, json.dumps(value), note)
        parts.append(options)
    return Group(*parts)


def show_rules(game: str = typer.Argument(..., help="game name, see `quarterdeck games`")) -> None:
    """Print a readable summary of a game's rules."""
    Console().print(Markdown(games.get(game).rules_summary()))
