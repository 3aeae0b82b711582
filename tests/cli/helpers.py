"""Driving the terminal game loop as a person would: typed lines in, the screen out."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from pathlib import Path

import click
from click.testing import CliRunner
from rich.console import Console
from rich.markup import escape

from quarterdeck import games
from quarterdeck.ai import make_agent
from quarterdeck.cli.main import main as cli_main
from quarterdeck.cli.terminal import TerminalGame
from quarterdeck.core.session import Match

CLEAR = "\x1b[2J"  # what a terminal receives when the screen is cleared


class Person:
    """Types the given lines one per prompt and keeps every prompt it was shown."""

    def __init__(self, lines: Iterable[str], console: Console):
        self.lines = iter(lines)
        self.console = console
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        line = next(self.lines, None)
        if line is None:
            raise EOFError  # the person has nothing more to type: the game is left where it stands
        self.console.print(prompt + escape(line), markup=True, highlight=False)  # typed text is no markup
        return line


def play(game: str, lines: Iterable[str], scenario: str | None = None, agents: dict[int, str] | None = None,
         options: dict | None = None, width: int = 120, height: int = 60, terminal: bool = False,
         save_to: Path | None = None, match: Match | None = None) -> tuple[str, Match, Person]:
    """Play `game` in the terminal loop with a person typing `lines` (agents for the seats given).

    `terminal` makes the console a real terminal, so that clearing the screen writes its codes."""
    match = match or Match(games.get(game), scenario, options or {}, 0)
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None,
                      force_terminal=terminal, legacy_windows=False)
    person = Person(lines, console)
    seats = {seat: make_agent(spec, seed=seat) for seat, spec in (agents or {}).items()}
    extra = {"save_to": save_to} if save_to is not None else {}
    try:
        TerminalGame(match, seats, console, ask=person, **extra).run()
    except EOFError:
        pass
    return console.file.getvalue(), match, person


def flat(text: str) -> str:
    """The screen's words with the line breaks of wrapping taken out."""
    return " ".join(text.split())


def command(*args: str, input: str | None = None, columns: int = 160):
    """Run the `quarterdeck` command as a user would, errors reported as `main` reports them; never a
    traceback."""
    result = CliRunner().invoke(main, list(args), input=input, env={"COLUMNS": str(columns)})
    assert "Traceback" not in result.output, result.output
    return result


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False)
@click.pass_context
def main(context: click.Context) -> None:
    """The `quarterdeck` entry point (`cli.main.main`) for CliRunner, which needs a click command."""
    sys.argv = ["quarterdeck", *context.args]
    cli_main()
