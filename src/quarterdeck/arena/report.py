"""An arena's results as tables (JSON) and as a picture (PNG): the Elo ladder and wins by side."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .elo import HeadToHead, Pairing, Standing, Tally, head_to_head, ladder
from .runner import ArenaConfig, GameResult


@dataclass(frozen=True)
class Summary:
    config: ArenaConfig
    games: int
    standings: list[Standing]
    pairings: list[HeadToHead]
    by_side: dict[str, Tally]  # each seat's results, whoever played it
    timing: dict[str, Timing] = field(default_factory=dict)  # each agent's seconds per decision

    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.config.to_json(),
            "games": self.games,
            "standings": [s.to_json() for s in self.standings],
            "head_to_head": [p.to_json() for p in self.pairings],
            "by_side": {seat: {**vars(t), "score": t.score} for seat, t in self.by_side.items()},
            "time_per_decision": {agent: t.to_json() for agent, t in self.timing.items()},
        }


@dataclass(frozen=True)
class Timing:
    """The distribution of one agent's seconds per decision (nearest-rank percentiles)."""

    decisions: int
    p50: float
    p90: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Timing:
        ordered = sorted(seconds)
        if not ordered:
            return cls(0, 0.0, 0.0, 0.0)

        def rank(q: float) -> float:
            return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

        return cls(len(ordered), rank(0.5), rank(0.9), ordered[-1])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def decision_times(results: Sequence[GameResult]) -> dict[str, list[float]]:
    """Every decision's seconds, per agent, over all its seats and games."""
    times: dict[str, list[float]] = {}
    for result in results:
        for agent, seconds in zip(result.agents, result.decision_seconds, strict=False):  # () before it was kept
            times.setdefault(agent, []).extend(seconds)
    return times


def pairings_of(results: Sequence[GameResult]) -> list[Pairing]:
    """Each game between two different agents as one Pairing (seats of one agent pooled)."""
    pairings = []
    for result in results:
        scores: dict[str, list[float]] = {}
        for agent, score in zip(result.agents, result.seat_scores(), strict=True):
            scores.setdefault(agent, []).append(score)
        if len(scores) == 2:
            (first, a), (second, _) = scores.items()
            pairings.append(Pairing(first, second, sum(a) / len(a)))
    return pairings


def summarise(config: ArenaConfig, results: Sequence[GameResult]) -> Summary:
    games = pairings_of(results)
    side_scores: dict[str, list[float]] = {}
    for result in results:
        for seat, score in zip(result.seats, result.seat_scores(), strict=True):
            side_scores.setdefault(seat, []).append(score)
    return Summary(
        config=config,
        games=len(results),
        standings=ladder(config.agents, games),
        pairings=head_to_head(config.agents, games),
        by_side={seat: Tally.of(scores) for seat, scores in side_scores.items()},
        timing={agent: Timing.of(seconds) for agent, seconds in decision_times(results).items()},
    )


def plot(summary: Summary, path: Path) -> Path:
    """Two panels: ratings with their intervals, and each seat's wins, draws and losses."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (ratings, sides) = plt.subplots(1, 2, figsize=(11, 0.6 * len(summary.standings) + 3))
    standings = list(reversed(summary.standings))  # strongest at the top
    names = [s.agent for s in standings]
    elos = [s.elo for s in standings]
    below = [s.elo - s.elo_low for s in standings]
    above = [s.elo_high - s.elo for s in standings]
    ratings.errorbar(elos, range(len(names)), xerr=[below, above], fmt="o", capsize=4)
    ratings.set_yticks(range(len(names)), names)
    ratings.axvline(0, color="grey", linewidth=0.5)
    ratings.set_xlabel("Elo (95% interval)")
    ratings.set_title(f"{summary.config.game}: {summary.games} games")

    seats = list(summary.by_side)
    tallies = [summary.by_side[seat] for seat in seats]
    wins = [t.wins / t.games for t in tallies]
    draws = [t.draws / t.games for t in tallies]
    losses = [t.losses / t.games for t in tallies]
    sides.bar(seats, wins, label="won", color="tab:green")
    sides.bar(seats, draws, bottom=wins, label="drawn", color="tab:grey")
    sides.bar(seats, losses, bottom=[w + d for w, d in zip(wins, draws, strict=True)], label="lost", color="tab:red")
    sides.set_ylim(0, 1)
    sides.set_ylabel("share of games")
    sides.set_title("results by side")
    sides.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
