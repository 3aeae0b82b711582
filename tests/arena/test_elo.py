"""The arena's statistics on fixed sets of results, checked against hand-computed values."""

from __future__ import annotations

import math

import pytest

from quarterdeck.arena.elo import Pairing, Tally, elo_of_score, fit_ratings, head_to_head, ladder, score_elo


def games(first: str, second: str, wins: int, draws: int, losses: int) -> list[Pairing]:
    return (
        [Pairing(first, second, 1.0)] * wins
        + [Pairing(first, second, 0.5)] * draws
        + [Pairing(second, first, 1.0)] * losses  # the other side's win, seen from its seat
    )


def test_tally_and_score():
    tally = Tally.of([1, 1, 0.5, 0, 1])
    assert (tally.games, tally.wins, tally.draws, tally.losses) == (5, 3, 1, 1)
    assert tally.score == pytest.approx(0.7)


def test_elo_difference_with_its_interval():
    # 6 wins, 2 draws, 2 losses: score 0.7. Wilson's 95% interval on the score, by hand:
    # centre (0.7 + 1.96^2/20) / (1 + 1.96^2/10) = 0.6445, margin 0.2477: [0.3968, 0.8922]
    elo, low, high = score_elo(Tally(10, 6, 2, 2))
    assert elo == pytest.approx(400 * math.log10(0.7 / 0.3))
    assert elo == pytest.approx(147.19, abs=0.01)
    assert low == pytest.approx(elo_of_score(0.39679), abs=0.05)
    assert high == pytest.approx(elo_of_score(0.89221), abs=0.05)


def test_a_clean_sweep_stays_finite_with_an_open_interval():
    elo, low, high = score_elo(Tally(20, 20, 0, 0))
    assert elo == pytest.approx(elo_of_score(1 - 0.5 / 20))
    assert low < elo and high == float("inf")
    z = 1.959963984540054
    assert low == pytest.approx(elo_of_score(1 / (1 + z * z / 20)))  # Wilson's bound for a perfect score


def test_even_results_rate_equally():
    assert score_elo(Tally(8, 3, 2, 3))[0] == pytest.approx(0.0)
    cycle = games("a", "b", 3, 0, 1) + games("b", "c", 3, 0, 1) + games("c", "a", 3, 0, 1)
    ratings = fit_ratings(["a", "b", "c"], cycle)
    assert all(r == pytest.approx(0.0, abs=1e-6) for r in ratings.values())


def test_maximum_likelihood_matches_the_head_to_head_formula():
    results = games("strong", "weak", 6, 2, 2)
    ratings = fit_ratings(["strong", "weak"], results, prior_draws=0)
    assert ratings["strong"] - ratings["weak"] == pytest.approx(147.19, abs=0.01)
    assert ratings["strong"] + ratings["weak"] == pytest.approx(0.0, abs=1e-9)
    with_prior = fit_ratings(["strong", "weak"], results, prior_draws=1)
    assert with_prior["strong"] - with_prior["weak"] == pytest.approx(elo_of_score(7.5 / 11), abs=0.01)


def test_ladder_orders_a_transitive_round_robin_and_is_reproducible():
    results = games("mcts", "greedy", 7, 1, 2) + games("mcts", "random", 10, 0, 0) + games("greedy", "random", 8, 0, 2)
    standings = ladder(["random", "greedy", "mcts"], results)
    assert [s.agent for s in standings] == ["mcts", "greedy", "random"]
    top = standings[0]
    assert (top.games, top.wins, top.draws, top.losses) == (20, 17, 1, 2)
    assert all(s.elo_low < s.elo < s.elo_high for s in standings)
    assert sum(s.elo for s in standings) == pytest.approx(0.0, abs=1e-6)


def test_ladder_intervals_come_from_the_likelihood_curvature():
    # two agents, 10 games at 0.7 plus one virtual draw: p = 7.5 / 11, information 11 p (1 - p);
    # each rating is half the difference, so its standard error is half that of the difference
    [strong, weak] = ladder(["weak", "strong"], games("strong", "weak", 6, 2, 2))
    p = 7.5 / 11
    half_error = 0.5 * (400 / math.log(10)) / math.sqrt(11 * p * (1 - p))
    assert strong.elo == pytest.approx(elo_of_score(p) / 2, abs=0.01)
    assert strong.elo_high - strong.elo == pytest.approx(1.959963984540054 * half_error, rel=1e-6)
    assert weak.elo == pytest.approx(-strong.elo)


def test_head_to_head_rows_read_from_the_first_agent():
    results = games("a", "b", 1, 1, 3)
    [row] = head_to_head(["a", "b"], results)
    assert (row.first, row.second, row.tally) == ("a", "b", Tally(5, 1, 1, 3))
    assert row.elo < 0
