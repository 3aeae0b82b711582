"""Entry point of the `quarterdeck` command.

Every module in `quarterdeck.cli.commands` registers its own subcommands, so a new tool is one new
module there. Errors a user can cause are printed as one clear line, never as a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer
from rich.console import Console
from rich.markup import escape

from ..core.errors import QuarterdeckError
from . import commands

app = typer.Typer(
    name="quarterdeck",
    help="Play and study Age-of-Sail and Napoleonic wargames and chess variants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines are joined into paragraphs, wrapped to the terminal
)

for _module in pkgutil.iter_modules(commands.__path__):
    importlib.import_module(f"{commands.__name__}.{_module.name}").register(app)


def main() -> None:
    try:
        app()
    except QuarterdeckError as exc:
        Console(stderr=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
