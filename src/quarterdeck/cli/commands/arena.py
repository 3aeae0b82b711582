"""`quarterdeck arena`: many games between computer opponents, with a results table and Elo."""

from __future__ import annotations

import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ... import games
from ...arena import ArenaConfig, ArenaStore, Executor, GameResult, make_executor, plot, run_arena, summarise
from ...arena.report import Summary
from ...arena.runner import DEFAULT_DECISION_LIMIT
from ...arena.store import CONFIG
from .play import own_file, parse_options

OPENING_HELP = (
    "open each game with this many decisions drawn at random, the same for both games of a pair "
    "(sides swapped): varied games between agents that would otherwise play one game over and over"
)


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)


def arena(
    game: Annotated[str, typer.Option("--game", "-g", help="game name, see `quarterdeck games`")],
    agents: Annotated[
        str, typer.Option(help="agents separated by commas (a round robin if more than two)")
    ] = ("ai:3,greedy"),
    scenario: Annotated[
        str | None, typer.Option("--scenario", "-s", help="scenario name (default: the game's own)")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option, name=value (JSON value)")
    ] = None,
    games_per_pairing: Annotated[int, typer.Option("--games", "-n", min=1, help="games per pairing of agents")] = 20,
    workers: Annotated[int, typer.Option(min=1, help="worker processes (local executor)")] = 1,
    seed: Annotated[int, typer.Option(help="the arena's seed: same seed, same games")] = 0,
    out: Annotated[Path | None, typer.Option(help="folder for records and results")] = None,
    executor: Annotated[str, typer.Option(help="local, or ray ($RAY_ADDRESS, else a local Ray)")] = "local",
    decision_limit: Annotated[
        int, typer.Option(min=1, help="a longer game is stopped as a draw")
    ] = DEFAULT_DECISION_LIMIT,
    draw_plot: Annotated[bool, typer.Option("--plot", help="also write results.png")] = False,
    only: Annotated[
        str | None,
        typer.Option(help="play only these games of the schedule, e.g. 12-39 or 0,6,9 (to share an arena out)"),
    ] = None,
    opening: Annotated[int, typer.Option(min=0, help=OPENING_HELP)] = 0,
) -> None:
    """Play many games between agents (sides alternated, in parallel) and rate them by Elo.

    Records and results go to --out (default: `arena-<game>-<agents>-<seed>`). An interrupted arena
    resumes: run the same command again and finished games are kept.
    """
    rules = games.get(game)
    config = ArenaConfig(
        agents=tuple(split_agents(agents)),
        **shared_settings(game, games_per_pairing, seed, scenario, option, decision_limit, opening),
    )
    out = out or folder_name(f"arena-{game}-{'-'.join(config.agents)}-{seed}")
    console = Console()
    store = ArenaStore(out)
    try:
        with running(console, "arena", executor, workers) as (runner, report):
            results = run_arena(rules, config, out, runner, report, parse_games(only) if only else None)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted:[/yellow] the summary covers the games finished; run again to resume")
        results = finished_games(store, config)
        if not results:
            raise typer.Exit(130) from None
    summary = summarise(config, results)
    store.save_summary(summary.to_json())
    show(summary, console)
    if draw_plot:
        console.print(f"plot: {plot(summary, store.plot_path)}")
    console.print(f"records and results: {out}")


def finished_games(store: ArenaStore, config: ArenaConfig) -> list[GameResult]:
    """The games of this arena that `store` holds, by number: none if it holds none, or another arena."""
    if not (store.root / CONFIG).exists() or store.config() != config.to_json():
        return []
    return sorted(map(GameResult.from_json, store.finished()), key=lambda result: result.index)


def parse_games(text: str) -> set[int]:
    """Game numbers of a schedule: single numbers and ranges separated by commas ("0,6,12-39")."""
    chosen: set[int] = set()
    for piece in filter(None, (p.strip() for p in text.split(","))):
        first, dash, last = piece.partition("-")
        try:
            low, high = int(first), int(last if dash else first)
        except ValueError:
            raise typer.BadParameter(f"--only: {piece!r} is not a game number or a range such as 12-39") from None
        if low > high:
            raise typer.BadParameter(f"--only: the range {piece!r} runs backwards")
        chosen.update(range(low, high + 1))
    return chosen


def split_agents(text: str) -> list[str]:
    """Agent specs separated by commas; a comma also separates one agent's options (ai:3:a=1,b=2),
    so a piece with '=' but no ':' continues the agent before it."""
    specs: list[str] = []
    for piece in filter(None, (p.strip() for p in text.split(","))):
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def shared_settings(
    game: str,
    games: int,
    seed: int,
    scenario: str | None,
    option: list[str] | None,
    decision_limit: int,
    opening: int,
) -> dict[str, Any]:
    """The settings the arena and the ladder commands share, named as both configurations name them."""
    return {
        "game": game,
        "games": games,
        "seed": seed,
        "scenario": own_file(scenario),
        "options": parse_options(option or []),
        "decision_limit": decision_limit,
        "opening": opening,
    }


def folder_name(text: str) -> Path:
    """The default output folder: `text` with anything but letters, digits, '.' and '-' made '_'."""
    return Path(re.sub(r"[^\w.-]+", "_", text))


@contextmanager
def running(
    console: Console, label: str, executor: str, workers: int
) -> Iterator[tuple[Executor, Callable[[int, int, GameResult | None], None]]]:
    """The executor, and a progress report for `run_arena` that draws a bar of the games played.
    SIGTERM (`kill`, a service manager) stops the run as Ctrl-C does, so the workers go with it."""
    with (
        interrupted_by_sigterm(),
        make_executor(executor, workers) as runner,
        Progress(
            TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
        ) as progress,
    ):
        bar = progress.add_task("games", total=None)

        def report(done: int, total: int, result: GameResult | None) -> None:
            progress.update(bar, completed=done, total=total)

        yield runner, report


@contextmanager
def interrupted_by_sigterm() -> Iterator[None]:
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def show(summary: Summary, console: Console) -> None:
    ladder = Table(title=f"{summary.config.game}: {summary.games} games")
    for column in ("agent", "games", "won", "drawn", "lost", "score", "Elo", "95% interval"):
        ladder.add_column(column, justify="left" if column == "agent" else "right")
    for s in summary.standings:
        ladder.add_row(
            s.agent,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.score:.1%}",
            f"{s.elo:+.0f}",
            f"[{s.elo_low:+.0f}, {s.elo_high:+.0f}]",
        )
    console.print(ladder)
    pairs = Table(title="head to head")
    for column in ("pairing", "games", "score", "Elo difference", "95% interval"):
        pairs.add_column(column, justify="left" if column == "pairing" else "right")
    for p in summary.pairings:
        pairs.add_row(
            f"{p.first} vs {p.second}",
            str(p.tally.games),
            f"{p.tally.wins}-{p.tally.draws}-{p.tally.losses} ({p.tally.score:.1%})",
            f"{p.elo:+.0f}",
            f"[{p.elo_low:+.0f}, {p.elo_high:+.0f}]",
        )
    console.print(pairs)
    sides = Table(title="by side")
    for column in ("side", "games", "won", "drawn", "lost"):
        sides.add_column(column, justify="left" if column == "side" else "right")
    for seat, t in summary.by_side.items():
        sides.add_row(seat, str(t.games), str(t.wins), str(t.draws), str(t.losses))
    console.print(sides)
    if summary.timing:
        timing = Table(title="seconds per decision")
        for column in ("agent", "decisions", "p50", "p90", "max"):
            timing.add_column(column, justify="left" if column == "agent" else "right")
        for agent, t in summary.timing.items():
            timing.add_row(agent, str(t.decisions), f"{t.p50:.3f}", f"{t.p90:.3f}", f"{t.max:.3f}")
        console.print(timing)
