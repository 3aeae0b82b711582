"""`quarterdeck ladder`: each computer level against the one below, and ai:5 against ai:2 (issue 20)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ... import games
from ...arena.ladder import BUDGETS, REPORT, TABLE, LadderConfig, run_ladder, write_report
from ...arena.runner import DEFAULT_DECISION_LIMIT
from .arena import OPENING_HELP, folder_name, parse_games, running, shared_settings

Budget = Enum("Budget", {name: name for name in BUDGETS}, type=str)  # typer offers and checks the choices
ExecutorKind = Enum("ExecutorKind", {name: name for name in ("local", "ray")}, type=str)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)


def ladder(
    game: Annotated[str, typer.Argument(help="game name, see `quarterdeck games`")],
    scenario: Annotated[str | None, typer.Option("--scenario", "-s", help="scenario (default: the game's own)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="a game option, name=value")] = None,
    games_per_pairing: Annotated[int, typer.Option("--games", "-n", min=1, help="games per pairing")] = 10,
    budget: Annotated[
        Budget,
        typer.Option(help="iterations: the level's iteration count (same results on any machine); time: its move time"),
    ] = Budget.iterations,
    workers: Annotated[int, typer.Option(min=1, help="worker processes (local executor)")] = 1,
    executor: Annotated[ExecutorKind, typer.Option(help="local, or ray ($RAY_ADDRESS)")] = ExecutorKind.local,
    seed: Annotated[int, typer.Option(help="the ladder's seed: same seed, same games")] = 0,
    out: Annotated[Path | None, typer.Option(help="folder for records and the report")] = None,
    decision_limit: Annotated[
        int, typer.Option(min=1, help="a longer game is stopped as a draw (a no-progress ending)")
    ] = DEFAULT_DECISION_LIMIT,
    report_only: Annotated[
        bool, typer.Option("--report-only", help="report the games saved in --out so far; play none")
    ] = False,
    only: Annotated[
        str | None,
        typer.Option(help="play only these games of the schedule, e.g. 0-9,100-109 (pairing p's game i is p*N+i)"),
    ] = None,
    opening: Annotated[int, typer.Option(min=0, help=OPENING_HELP)] = 0,
) -> None:
    """Play ai:2-ai:1, ai:3-ai:2, ai:4-ai:3, ai:5-ai:4 and ai:5-ai:2, sides alternated, and report the targets.

    Writes OUT/ladder.json (per pairing: W-D-L of the higher level, Elo difference with its 95%
    interval, draw reasons, no-progress endings, mean length, seconds per decision of each level)
    and OUT/ladder.md (the table for docs/ai.md), and prints the table. Run the same command again
    to resume an interrupted ladder; Ctrl-C, or --report-only while it runs, reports the games finished.
    """
    rules = games.get(game)
    config = LadderConfig(
        budget=budget.value,
        **shared_settings(game, games_per_pairing, seed, scenario, option, decision_limit, opening),
    )
    out = out or folder_name(f"ladder-{game}-{scenario or 'default'}-{budget.value}-{seed}")
    console = Console()
    if report_only:
        result = write_report(rules, config, out)
    else:
        try:
            with running(console, "ladder", executor.value, workers) as (runner, report):
                result = run_ladder(rules, config, out, runner, report, parse_games(only) if only else None)
        except KeyboardInterrupt:
            result = write_report(rules, config, out)
            console.print("[yellow]interrupted:[/yellow] the report covers the games finished; run again to resume")
    # The Markdown as it is, unwrapped, to paste into docs/ai.md
    console.print(result["markdown"], markup=False, highlight=False, soft_wrap=True)
    console.print(f"report: {Path(out) / REPORT} and {Path(out) / TABLE}; records: {Path(out) / 'games'}")
