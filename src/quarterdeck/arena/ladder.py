"""The level ladder: each level against the one below, and ai:5 against ai:2, with the targets of issue 20.

A ladder is an ordinary arena (runner, store, Elo) whose configuration names its pairings: the
higher level first, sides alternating, so an interrupted ladder resumes like any arena. The report
gives, per pairing, the higher level's wins, draws and losses, the Elo difference with its 95%
interval, the draws by reason, the games ended by a no-progress rule, the mean game length and each
level's seconds per decision against the level's move time; and it says whether each target is met:

* every level at least +100 Elo over the one below, the interval's lower bound above 0;
* ai:5 at least +300 Elo over ai:2;
* fewer than 10% of the games between unequal levels ended by a no-progress rule: quiet turns,
  repetition, or a turn limit without a decision (a draw at the limit, the arena's own included).

The targets are to be measured at 100 games a pairing; a report of fewer games says how many.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai.knowledge import Knowledge
from ..ai.levels import LEVELS, level_iterations
from ..core.protocol import Game
from .elo import head_to_head
from .executors import Executor
from .report import Timing, decision_times, pairings_of
from .runner import DEFAULT_DECISION_LIMIT, ArenaConfig, ArenaError, GameResult, run_arena
from .store import CONFIG, ArenaStore, write_atomically

LADDER_PAIRINGS: tuple[tuple[int, int], ...] = ((2, 1), (3, 2), (4, 3), (5, 4), (5, 2))
BUDGETS = ("iterations", "time")
STEP_ELO = 100.0  # each level over the one below
SPAN_ELO = 300.0  # ai:5 over ai:2
NO_PROGRESS_SHARE = 0.10
TARGET_GAMES = 100
REPORT = "ladder.json"
TABLE = "ladder.md"

# Draw reasons the games give for their no-progress rules (Pirate Chess's quiet turns, Napoleonic
# Chess's turns without an elimination, threefold repetition, Square Rigger's and Frigate's turn
# limits, Naval Warfare's nightfall and dawn) and the arena's own decision limit.
NO_PROGRESS = re.compile(
    r"turns? without|same position|repetition|turn limit|game-turns? (?:are|is) over|nightfall|dawn|arena limit"
)


def is_no_progress(result: GameResult) -> bool:
    """A draw by quiet turns, repetition or a turn limit: the game ended without either side winning it."""
    return result.result == "draw" and NO_PROGRESS.search(result.reason) is not None


def level_spec(level: int, budget: str, extra: str = "") -> str:
    """The agent spec of `ai:level` at the budget (`extra`: more options, e.g. a smaller iteration count)."""
    options = [o for o in ("budget=iterations" if budget == "iterations" else "", extra) if o]
    return f"ai:{level}" + (":" + ",".join(options) if options else "")


def level_of(spec: str) -> int:
    match = re.fullmatch(r"ai:(\d+)(:.*)?", spec)
    if not match or int(match.group(1)) not in LEVELS:
        raise ArenaError(f"{spec!r} is not a level ai:1..ai:{max(LEVELS)}")
    return int(match.group(1))


@dataclass(frozen=True)
class LadderConfig:
    game: str
    games: int = 10  # per pairing
    budget: str = "iterations"
    seed: int = 0
    scenario: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    decision_limit: int = DEFAULT_DECISION_LIMIT
    level_options: Mapping[int, str] = field(default_factory=dict)  # extra options per level (tests, quick looks)
    opening: int = 0  # decisions drawn at random to open each pair of games (see the arena's runner)

    def __post_init__(self) -> None:
        if self.budget not in BUDGETS:
            raise ArenaError(f"--budget must be one of {', '.join(BUDGETS)}, not {self.budget!r}")
        if self.games < 1:
            raise ArenaError("--games must be at least 1 game a pairing")
        if self.decision_limit < 1:
            raise ArenaError("--decision-limit must be at least 1 decision")

    def spec(self, level: int) -> str:
        return level_spec(level, self.budget, self.level_options.get(level, ""))

    def arena(self) -> ArenaConfig:
        """The arena that plays this ladder: the five levels, the ladder's pairings, higher level first."""
        return ArenaConfig(
            game=self.game,
            agents=tuple(self.spec(level) for level in sorted(LEVELS)),
            games=self.games,
            seed=self.seed,
            scenario=self.scenario,
            options=dict(self.options),
            decision_limit=self.decision_limit,
            pairings=tuple((self.spec(high), self.spec(low)) for high, low in LADDER_PAIRINGS),
            opening=self.opening,
        )


def run_ladder(
    game: Game,
    config: LadderConfig,
    out: Path | str,
    executor: Executor | None = None,
    progress: Callable[[int, int, GameResult | None], None] | None = None,
    only: Collection[int] | None = None,
) -> dict[str, Any]:
    """Play the ladder (resuming from `out`), write its JSON report and Markdown table there, return the report.
    `only`: play just these games of the schedule (pairing p's game i is number p * games + i), as
    `run_arena` does, to share a long ladder out between machines or sittings."""
    results = run_arena(game, config.arena(), out, executor, progress, only)
    return write_report(game, config, out, results)


def write_report(
    game: Game, config: LadderConfig, out: Path | str, results: Sequence[GameResult] | None = None
) -> dict[str, Any]:
    """Write OUT/ladder.json and OUT/ladder.md from `results`, or from the games saved in `out` so far."""
    store = ArenaStore(Path(out))
    if results is None:
        if not (store.root / CONFIG).exists():
            raise ArenaError(f"--out {out} holds no ladder to report")
        if store.config() != config.arena().to_json():
            raise ArenaError(f"--out {out} holds a different ladder ({store.config()}); give its options")
        results = [GameResult.from_json(data) for data in store.finished()]
    report = ladder_report(config.arena(), results, config.budget, game)
    write_atomically(store.root / REPORT, json.dumps(report, indent=2))
    write_atomically(store.root / TABLE, report["markdown"])
    return report


def ladder_report(arena: ArenaConfig, results: Sequence[GameResult], budget: str, game: Game) -> dict[str, Any]:
    """The ladder's report: pairings, targets and the Markdown table (infinite interval ends are None)."""
    rows = [_pairing_row(high, low, results) for high, low in arena.pairs()]
    iterations = level_iterations(Knowledge.of(game))
    report = {
        "game": arena.game,
        "title": getattr(game, "title", game.name),
        "scenario": arena.scenario,
        "options": dict(arena.options),
        "budget": budget,
        "seed": arena.seed,
        "games_per_pairing": arena.games,
        "decision_limit": arena.decision_limit,
        "opening": arena.opening,
        "level_budgets": {
            f"ai:{n}": {"move_time": level.movetime, "iterations": iterations[n]} for n, level in LEVELS.items()
        },
        "pairings": rows,
    }
    report["markdown"] = markdown(report)
    return report


def _pairing_row(high: str, low: str, results: Sequence[GameResult]) -> dict[str, Any]:
    played = [r for r in results if set(r.agents) == {high, low}]
    tally = head_to_head([high, low], pairings_of(played))
    wins = draws = losses = 0
    elo, elo_low, elo_high = 0.0, -math.inf, math.inf
    if tally:
        wins, draws, losses = tally[0].tally.wins, tally[0].tally.draws, tally[0].tally.losses
        elo, elo_low, elo_high = tally[0].elo, tally[0].elo_low, tally[0].elo_high
    no_progress = sum(map(is_no_progress, played))
    times = decision_times(played)
    levels = (level_of(high), level_of(low))
    row: dict[str, Any] = {
        "higher": high,
        "lower": low,
        "levels": list(levels),
        "games": len(played),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "elo": elo + 0.0,  # never -0.0
        "elo_low": _finite(elo_low),
        "elo_high": _finite(elo_high),
        "draw_reasons": dict(Counter(r.reason for r in played if r.result == "draw").most_common()),
        "no_progress": no_progress,
        "no_progress_share": no_progress / len(played) if played else None,
        "mean_decisions": sum(r.decisions for r in played) / len(played) if played else None,
        "time_per_decision": {
            spec: {
                **Timing.of(times.get(spec, ())).to_json(),
                "move_time": LEVELS[level].movetime,
                "over_move_time": sum(1 for t in times.get(spec, ()) if t > LEVELS[level].movetime),
            }
            for spec, level in zip((high, low), levels, strict=True)
        },
    }
    row["targets"] = _targets(row)
    return row


def _targets(row: dict[str, Any]) -> dict[str, bool | None]:
    """Whether the pairing meets its Elo target and the no-progress target (None: no game played)."""
    if not row["games"]:
        return {"elo": None, "no_progress": None}
    high, low = row["levels"]
    if (high, low) == (5, 2):
        elo_met = row["elo"] >= SPAN_ELO
    else:
        elo_met = row["elo"] >= STEP_ELO and row["elo_low"] is not None and row["elo_low"] > 0
    return {"elo": elo_met, "no_progress": row["no_progress_share"] < NO_PROGRESS_SHARE}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def markdown(report: dict[str, Any]) -> str:
    """The table for docs/ai.md, with a heading line saying what was measured."""
    scenario = f" ({report['scenario']})" if report["scenario"] else ""
    counts = sorted({row["games"] for row in report["pairings"]})
    games = " to ".join(map(str, (counts[0], counts[-1]) if len(counts) > 1 else counts))
    opening = report["opening"]
    openings = f", the first {opening} decisions of each pair of games drawn at random" if opening else ""
    lines = [
        f"{report['title']}{scenario}: {games} games a pairing (targets are measured at {TARGET_GAMES}), "
        f"budget {report['budget']}, seed {report['seed']}, sides alternated{openings}.",
        "",
        "| pairing | games | W-D-L (higher level) | Elo difference [95%] | Elo target | no-progress endings "
        "| draw reasons | mean length (decisions) "
        "| seconds per decision p50 / p90 / max (move time; decisions over it) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["pairings"]:
        high, low = row["levels"]
        target = f">= +{SPAN_ELO:.0f}" if (high, low) == (5, 2) else f">= +{STEP_ELO:.0f}, low > 0"
        share = row["no_progress_share"]
        lines.append(
            "| "
            + " | ".join(
                [
                    f"ai:{high} vs ai:{low}",
                    str(row["games"]),
                    f"{row['wins']}-{row['draws']}-{row['losses']}",
                    _elo(row),
                    f"{target}: {_verdict(row['targets']['elo'])}",
                    f"{row['no_progress']} ({_percent(share)}): {_verdict(row['targets']['no_progress'])}",
                    "; ".join(f"{reason} x{n}" for reason, n in row["draw_reasons"].items()) or "none",
                    f"{row['mean_decisions']:.0f}" if row["mean_decisions"] is not None else "-",
                    "; ".join(_timing(spec, t) for spec, t in row["time_per_decision"].items()),
                ]
            )
            + " |"
        )
    lines.append("")
    lines.append(
        f"Targets: every level >= +{STEP_ELO:.0f} Elo over the one below with the interval's lower bound above "
        f"0; ai:5 >= +{SPAN_ELO:.0f} over ai:2; fewer than {NO_PROGRESS_SHARE:.0%} of games ended by quiet turns, "
        "repetition or a turn limit without a decision."
    )
    return "\n".join(lines) + "\n"


def _elo(row: dict[str, Any]) -> str:
    if not row["games"]:
        return "-"
    return f"{row['elo']:+.0f} [{_bound(row['elo_low'], '-inf')}, {_bound(row['elo_high'], '+inf')}]"


def _bound(value: float | None, unbounded: str) -> str:
    return f"{value:+.0f}" if value is not None else unbounded


def _percent(share: float | None) -> str:
    return f"{share:.0%}" if share is not None else "-"


def _verdict(met: bool | None) -> str:
    return "no games" if met is None else ("met" if met else "not met")


def _timing(spec: str, t: dict[str, Any]) -> str:
    level = spec.split(":")[1]
    if not t["decisions"]:
        return f"ai:{level} -"
    over = f"; {t['over_move_time']} over" if t["over_move_time"] else ""
    return f"ai:{level} {t['p50']:.2f} / {t['p90']:.2f} / {t['max']:.2f} ({t['move_time']:g} s{over})"
