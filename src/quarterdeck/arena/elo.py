"""Statistics of an arena: tallies, Elo differences with confidence intervals, and a rating ladder.

* Head to head, `score_elo` turns a score over n games into an Elo difference with the logistic
  formula, and the Wilson score interval of the score into an Elo interval (draws count as half a
  win, which makes the interval slightly wide where there are many draws). Unlike the plain normal
  approximation, Wilson's interval stays open after a clean sweep; the point estimate of a perfect
  score is kept half a game away from 0 and 1 so that it stays finite.
* Among several agents, `fit_ratings` finds the maximum-likelihood Bradley-Terry (Elo) ratings,
  draws counting half, with `prior_draws` virtual draws added to every pairing that met so that a
  clean sweep stays finite; ratings are centred on 0. `ladder` gives each rating an interval from
  the curvature of the likelihood at its maximum (the inverse Fisher information, prior included).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

Z_95 = 1.959963984540054
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Pairing:
    """One game seen from two agents: `score` is the first agent's, 1 a win, 0.5 a draw, 0 a loss."""

    first: str
    second: str
    score: float


@dataclass(frozen=True)
class Tally:
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @classmethod
    def of(cls, scores: Sequence[float]) -> Tally:
        wins = sum(1 for s in scores if s > 0.5)
        losses = sum(1 for s in scores if s < 0.5)
        return cls(len(scores), wins, len(scores) - wins - losses, losses)


def elo_of_score(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_elo(tally: Tally, z: float = Z_95) -> tuple[float, float, float]:
    """(Elo difference, low, high) implied by a head-to-head tally."""
    n = tally.games
    if n == 0:
        return 0.0, float("-inf"), float("inf")
    edge = 0.5 / n
    low, high = wilson_interval(tally.score, n, z)
    return elo_of_score(min(max(tally.score, edge), 1.0 - edge)), _elo_or_infinite(low), _elo_or_infinite(high)


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    shrink = 1.0 + z * z / games
    centre = (score + z * z / (2 * games)) / shrink
    margin = z / shrink * math.sqrt(score * (1.0 - score) / games + z * z / (4 * games * games))
    return max(0.0, centre - margin), min(1.0, centre + margin)


def _elo_or_infinite(score: float) -> float:
    if score <= 1e-9:
        return float("-inf")
    return float("inf") if score >= 1.0 - 1e-9 else elo_of_score(score)


def fit_ratings(
    agents: Sequence[str], games: Sequence[Pairing], prior_draws: float = 1.0, rounds: int = 10_000
) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (mean 0) by Hunter's minorisation-maximisation iteration."""
    points = dict.fromkeys(agents, 0.0)
    meetings: dict[tuple[str, str], float] = {}
    for game in games:
        points[game.first] += game.score
        points[game.second] += 1.0 - game.score
        pair = _pair(game.first, game.second)
        meetings[pair] = meetings.get(pair, 0.0) + 1.0
    for pair in meetings:
        for agent in pair:
            points[agent] += prior_draws / 2.0
        meetings[pair] += prior_draws
    strength = dict.fromkeys(agents, 1.0)
    for _ in range(rounds):
        updated = {}
        for agent in agents:
            denominator = sum(
                count / (strength[a] + strength[b]) for (a, b), count in meetings.items() if agent in (a, b)
            )
            updated[agent] = points[agent] / denominator if denominator and points[agent] > 0 else 1e-12
        mean_log = sum(math.log(v) for v in updated.values()) / len(updated)
        updated = {a: v / math.exp(mean_log) for a, v in updated.items()}
        converged = max(abs(math.log(updated[a] / strength[a])) for a in agents) < 1e-10
        strength = updated
        if converged:
            break
    return {agent: ELO_PER_NAT * math.log(strength[agent]) for agent in agents}


@dataclass(frozen=True)
class Standing:
    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_low: float
    elo_high: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def ladder(
    agents: Sequence[str], games: Sequence[Pairing], prior_draws: float = 1.0, z: float = Z_95
) -> list[Standing]:
    """Every agent's tally and rating with its interval, strongest first."""
    ratings = fit_ratings(agents, games, prior_draws)
    errors = rating_errors(agents, games, ratings, prior_draws)
    standings = []
    for agent in agents:
        tally = Tally.of(_scores_of(agent, games))
        margin = z * errors[agent] if tally.games else float("inf")
        standings.append(
            Standing(
                agent,
                tally.games,
                tally.wins,
                tally.draws,
                tally.losses,
                tally.score,
                ratings[agent],
                ratings[agent] - margin,
                ratings[agent] + margin,
            )
        )
    return sorted(standings, key=lambda s: -s.elo)


def rating_errors(
    agents: Sequence[str], games: Sequence[Pairing], ratings: dict[str, float], prior_draws: float = 1.0
) -> dict[str, float]:
    """Standard errors (Elo) of ratings centred on 0: the pseudo-inverse of the Fisher information."""
    import numpy as np

    index = {agent: i for i, agent in enumerate(agents)}
    information = np.zeros((len(agents), len(agents)))
    counts: dict[tuple[str, str], float] = {}
    for game in games:
        pair = _pair(game.first, game.second)
        counts[pair] = counts.get(pair, 0.0) + 1.0
    for (a, b), count in counts.items():
        expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
        weight = (count + prior_draws) * expected * (1.0 - expected)
        i, j = index[a], index[b]
        information[i, i] += weight
        information[j, j] += weight
        information[i, j] -= weight
        information[j, i] -= weight
    covariance = np.linalg.pinv(information)  # ratings are only known up to a shift: centre them
    return {agent: ELO_PER_NAT * math.sqrt(max(covariance[i, i], 0.0)) for agent, i in index.items()}


@dataclass(frozen=True)
class HeadToHead:
    first: str
    second: str
    tally: Tally  # from the first agent's side
    elo: float
    elo_low: float
    elo_high: float

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            **asdict(self.tally),
            "score": self.tally.score,
            "elo": self.elo,
            "elo_low": self.elo_low,
            "elo_high": self.elo_high,
        }


def head_to_head(agents: Sequence[str], games: Sequence[Pairing], z: float = Z_95) -> list[HeadToHead]:
    rows = []
    for first, second in combinations(agents, 2):
        scores = [g.score for g in games if (g.first, g.second) == (first, second)]
        scores += [1.0 - g.score for g in games if (g.first, g.second) == (second, first)]
        if scores:
            tally = Tally.of(scores)
            rows.append(HeadToHead(first, second, tally, *score_elo(tally, z)))
    return rows


def _scores_of(agent: str, games: Sequence[Pairing]) -> list[float]:
    return [g.score if g.first == agent else 1.0 - g.score for g in games if agent in (g.first, g.second)]


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)
