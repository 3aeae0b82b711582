"""`quarterdeck games`, `scenarios` and `rules`: what can be played."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from ... import games


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


def list_scenarios(game: str = typer.Argument(..., help="game name, see `quarterdeck games`")) -> None:
    """List a game's scenarios, one line each."""
    rules = games.get(game)
    table = Table(title=f"{rules.title}: scenarios", expand=True)
    table.add_column("scenario", no_wrap=True)
    table.add_column("title", no_wrap=True)
    table.add_column("briefing", no_wrap=True, overflow="ellipsis", ratio=1)
    for info in rules.scenarios():
        default = " (default)" if info.name == rules.default_scenario else ""
        table.add_row(info.name + default, info.title, info.briefing)
    Console().print(table)


def show_rules(game: str = typer.Argument(..., help="game name, see `quarterdeck games`")) -> None:
    """Print a readable summary of a game's rules."""
    Console().print(Markdown(games.get(game).rules_summary()))
