"""The level ladder (issue 20): its pairings and sides, the report and its targets, resuming, bad arguments."""

from __future__ import annotations

import dataclasses
import functools
import json

import pytest
from typer.testing import CliRunner

from quarterdeck import games
from quarterdeck.arena import ArenaError, ArenaStore, schedule
from quarterdeck.arena.ladder import LadderConfig, is_no_progress, ladder_report, level_spec, run_ladder
from quarterdeck.arena.runner import GameResult
from quarterdeck.cli.commands import arena as arena_command
from quarterdeck.cli.commands import ladder as ladder_command
from quarterdeck.cli.main import app
from quarterdeck.core.record import Record

from ..ai.toy_games import NimWithItsOwnLevels
from .helpers import InProcess

# Pirate Chess with searches of a handful of nodes and short games, so a whole ladder takes seconds.
TINY = LadderConfig(
    game="pirate-chess",
    games=2,
    seed=4,
    decision_limit=30,
    level_options={level: f"iterations={2 * level}" for level in range(1, 6)},
)


@pytest.fixture(scope="module")
def pirate_chess():
    return games.get("pirate-chess")


@pytest.fixture(scope="module")
def tiny_ladder(tmp_path_factory, pirate_chess):
    """The TINY ladder played once for the module: its folder and its report."""
    out = tmp_path_factory.mktemp("tiny-ladder")
    return out, run_ladder(pirate_chess, TINY, out, InProcess())


def result(index: int, agents: tuple[str, str], winner: int | None, reason: str = "") -> GameResult:
    """A finished Pirate Chess game: `winner` is the seat that won (None: a draw for `reason`)."""
    returns = (0.0, 0.0) if winner is None else tuple(1.0 if s == winner else -1.0 for s in range(2))
    word = "draw" if winner is None else ("blue", "red")[winner]
    return GameResult(index, index, agents, ("blue", "red"), returns, word, reason or "no ship left", 100, 1.0)


def test_each_level_meets_the_one_below_and_ai5_meets_ai2_sides_alternated():
    tasks = schedule(TINY.arena(), seats=2)
    assert len(tasks) == 10  # five pairings of two games
    levels = [tuple(int(spec.split(":")[1]) for spec in task.agents) for task in tasks]
    assert levels == [(2, 1), (1, 2), (3, 2), (2, 3), (4, 3), (3, 4), (5, 4), (4, 5), (5, 2), (2, 5)]
    assert len({task.seed for task in tasks}) == 10


def test_the_budget_picks_iteration_counts_or_move_times():
    assert level_spec(3, "iterations") == "ai:3:budget=iterations"
    assert level_spec(3, "time") == "ai:3"
    assert level_spec(2, "iterations", "iterations=4") == "ai:2:budget=iterations,iterations=4"
    assert LadderConfig(game="pirate-chess", budget="time").arena().agents == ("ai:1", "ai:2", "ai:3", "ai:4", "ai:5")


def test_bad_ladder_configurations_are_refused_naming_the_option():
    with pytest.raises(ArenaError, match="--budget"):
        LadderConfig(game="pirate-chess", budget="fast")
    with pytest.raises(ArenaError, match="--games"):
        LadderConfig(game="pirate-chess", games=0)
    with pytest.raises(ArenaError, match="--decision-limit"):
        LadderConfig(game="pirate-chess", decision_limit=0)


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (["--budget", "fast"], "--budget"),
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--executor", "dask"], "--executor"),
        (["--decision-limit", "0"], "--decision-limit"),
    ],
)
def test_the_ladder_command_refuses_bad_arguments_naming_the_option(tmp_path, arguments, option):
    outcome = CliRunner().invoke(app, ["ladder", "pirate-chess", *arguments, "--out", str(tmp_path / "out")])
    assert outcome.exit_code == 2
    assert option in outcome.output
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_the_ladder_command_refuses_an_unknown_game(tmp_path):
    outcome = CliRunner().invoke(app, ["ladder", "checkers", "--out", str(tmp_path / "out")])
    assert outcome.exit_code != 0
    assert "checkers" in str(outcome.exception)
    assert not (tmp_path / "out").exists()


def scores(report: dict) -> list[dict]:
    """A report's results per pairing, without the timings that differ from run to run."""
    keys = ("higher", "lower", "games", "wins", "draws", "losses", "elo", "draw_reasons", "no_progress")
    return [{k: row[k] for k in keys} for row in report["pairings"]]


def test_a_real_tiny_ladder_writes_its_report_and_table(tiny_ladder):
    out, report = tiny_ladder
    assert json.loads((out / "ladder.json").read_text()) == json.loads(json.dumps(report))
    assert (out / "ladder.md").read_text() == report["markdown"]
    rows = report["pairings"]
    assert [row["levels"] for row in rows] == [[2, 1], [3, 2], [4, 3], [5, 4], [5, 2]]
    store = ArenaStore(out)
    results = [GameResult.from_json(data) for data in store.finished()]
    for row in rows:
        played = [r for r in results if set(r.agents) == {row["higher"], row["lower"]}]
        assert row["games"] == len(played) == 2
        assert row["wins"] + row["draws"] + row["losses"] == 2
        assert sum(row["draw_reasons"].values()) == row["draws"]
        assert row["no_progress"] == sum(map(is_no_progress, played)) <= row["draws"]
        assert row["mean_decisions"] == sum(r.decisions for r in played) / 2
        timing = row["time_per_decision"]
        assert list(timing) == [row["higher"], row["lower"]]
        # Pirate Chess has no dice, so every line of a record is one level's decision.
        assert sum(t["decisions"] for t in timing.values()) == sum(r.decisions for r in played)
        for spec, t in timing.items():
            assert 0 <= t["p50"] <= t["p90"] <= t["max"]
            assert t["move_time"] == {1: 0.05, 2: 0.25, 3: 1.0, 4: 2.0, 5: 5.0}[int(spec.split(":")[1])]
        line = next(line for line in report["markdown"].splitlines() if line.startswith(f"| ai:{row['levels'][0]}"))
        assert f"| {row['wins']}-{row['draws']}-{row['losses']} |" in line
    assert "2 games a pairing (targets are measured at 100), budget iterations, seed 4" in report["markdown"]


def test_every_decision_of_the_arena_is_timed_for_its_seat(tiny_ladder):
    store = ArenaStore(tiny_ladder[0])
    for data in store.finished():
        played = GameResult.from_json(data)
        record = Record.parse(store.record_path(played.index).read_text())
        for seat, seconds in zip(played.seats, played.decision_seconds, strict=True):
            assert len(seconds) == sum(1 for mover, _ in record.moves if mover == seat)
            assert all(s >= 0 for s in seconds)


def test_an_interrupted_ladder_resumes_with_the_games_it_lacks(tmp_path, pirate_chess, tiny_ladder):
    stopped = InProcess(stop_after=3)
    with pytest.raises(KeyboardInterrupt):
        run_ladder(pirate_chess, TINY, tmp_path / "part", stopped)
    assert len(list(ArenaStore(tmp_path / "part").finished())) == 3
    again = InProcess()
    resumed = run_ladder(pirate_chess, TINY, tmp_path / "part", again)
    assert again.games_played == 7
    assert scores(resumed) == scores(tiny_ladder[1])
    with pytest.raises(ArenaError, match="different arena"):
        run_ladder(pirate_chess, dataclasses.replace(TINY, games=4), tmp_path / "part", InProcess())


def test_a_ladder_shared_out_by_game_numbers_adds_up_to_the_whole(tmp_path, pirate_chess, tiny_ladder):
    first, rest = InProcess(), InProcess()
    run_ladder(pirate_chess, TINY, tmp_path / "shared", first, only=range(0, 10, 2))
    assert first.games_played == 5
    whole = run_ladder(pirate_chess, TINY, tmp_path / "shared", rest, only=range(10))
    assert rest.games_played == 5
    assert scores(whole) == scores(tiny_ladder[1])


def test_the_command_plays_a_ladder_and_after_ctrl_c_reports_the_games_finished(tmp_path, monkeypatch, tiny_ladder):
    tiny_levels = functools.partial(LadderConfig, level_options=TINY.level_options)
    monkeypatch.setattr(ladder_command, "LadderConfig", tiny_levels)
    stopped = InProcess(stop_after=4)
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: stopped)
    out = tmp_path / "out"
    arguments = ["ladder", "pirate-chess", "--games", "2", "--seed", "4", "--decision-limit", "30", "--out", str(out)]
    first = CliRunner().invoke(app, arguments)
    assert first.exit_code == 0, first.output
    assert "interrupted" in first.output
    assert [row["games"] for row in json.loads((out / "ladder.json").read_text())["pairings"]] == [2, 2, 0, 0, 0]
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: InProcess())
    second = CliRunner().invoke(app, arguments)
    assert second.exit_code == 0, second.output
    assert "ai:5 vs ai:2" in second.output and "interrupted" not in second.output
    report = json.loads((out / "ladder.json").read_text())
    assert [row["games"] for row in report["pairings"]] == [2, 2, 2, 2, 2]
    assert scores(report) == scores(tiny_ladder[1])


@pytest.mark.parametrize(
    ("reason", "no_progress"),
    [
        ("100 turns without an attack, placement or upgrade", True),  # Pirate Chess, quiet turns
        ("the same position arose for the third time", True),
        ("50 turns without an elimination", True),  # Napoleonic Chess
        ("1 turn without an elimination", True),  # at a limit of one turn
        ("the same position for the 3rd time (threefold repetition)", True),
        ("the turn limit (40) is reached", True),  # Square Rigger Chess
        ("the turn limit (40) is reached; points level (blue 3, red 3)", True),
        ("nightfall ends the battle; 2 points each", True),  # Naval Warfare
        ("the 12 game-turns are over; points: blue 4, red 4", True),  # Frigate
        ("the game-turn is over; points: blue 0, red 0", True),  # a Frigate scenario of one game-turn
        ("arena limit of 5000 decisions", True),
        ("both sides met their victory conditions together", False),
    ],
)
def test_no_progress_endings_are_draws_by_quiet_turns_repetition_or_a_turn_limit(reason, no_progress):
    drawn = result(0, ("ai:3", "ai:2"), None, reason)
    assert is_no_progress(drawn) is no_progress
    won = dataclasses.replace(drawn, result="blue", returns=(1.0, -1.0))
    assert not is_no_progress(won)  # a win on points at the limit is a decision


QUIET = "100 turns without an attack, placement or upgrade"
TOGETHER = "both sides met their victory conditions together"


def ladder_of(scores: dict[tuple[int, int], tuple[int, int, int]], reason: str = TOGETHER) -> dict:
    """A ladder report from tallies of the higher level (W, D, L) per pairing, sides alternated."""
    arena = LadderConfig(game="pirate-chess", games=10, budget="time").arena()
    results = []
    for (high, low), (wins, draws, losses) in scores.items():
        outcomes = [0] * wins + [None] * draws + [1] * losses  # 0: the higher level won
        for game, outcome in enumerate(outcomes):
            agents = (f"ai:{high}", f"ai:{low}") if game % 2 == 0 else (f"ai:{low}", f"ai:{high}")
            winner = None if outcome is None else (outcome if game % 2 == 0 else 1 - outcome)
            results.append(result(len(results), agents, winner, reason if outcome is None else ""))
    return ladder_report(arena, results, "time", games.get("pirate-chess"))


def test_the_report_gives_each_levels_iteration_count_in_the_game_played():
    """A game that sets some of its levels' counts (`level_iterations`) is reported with them, the
    default counts for the rest; a game that sets none, with the defaults."""
    arena = LadderConfig(game="toy-nim-own-levels", games=2).arena()
    own = ladder_report(arena, [], "iterations", NimWithItsOwnLevels())["level_budgets"]
    plain = ladder_of({})["level_budgets"]
    assert [own[f"ai:{n}"]["iterations"] for n in range(1, 6)] == [25, 7, 400, 1600, 30]
    assert [plain[f"ai:{n}"]["iterations"] for n in range(1, 6)] == [25, 100, 400, 1600, 6400]
    assert own["ai:5"]["move_time"] == plain["ai:5"]["move_time"] == 5.0


def test_the_targets_read_from_the_issues_own_table():
    report = ladder_of({(2, 1): (9, 1, 0), (3, 2): (7, 3, 0), (4, 3): (1, 9, 0), (5, 2): (7, 3, 0)})
    rows = {tuple(row["levels"]): row for row in report["pairings"]}
    # ai:2 vs ai:1 9-1-0 is +512 [+112, +911]: a step of +100 with the lower bound above 0.
    assert round(rows[2, 1]["elo"]) == 512 and round(rows[2, 1]["elo_low"]) == 112
    assert rows[2, 1]["targets"]["elo"] is True
    assert rows[3, 2]["targets"]["elo"] is True  # +301 [+29, +574]
    assert rows[4, 3]["targets"]["elo"] is False  # +35 [-170, +239]
    assert rows[5, 2]["targets"]["elo"] is True  # +301: at least +300 over ai:2
    assert rows[5, 4]["games"] == 0 and rows[5, 4]["targets"] == {"elo": None, "no_progress": None}
    # These draws came by no no-progress rule, so that target is met wherever games were played.
    assert all(row["targets"]["no_progress"] for row in report["pairings"] if row["games"])
    table = report["markdown"]
    assert "| ai:4 vs ai:3 | 10 | 1-9-0 | +35 [-170, +239] | >= +100, low > 0: not met |" in table
    assert "| ai:5 vs ai:4 | 0 | 0-0-0 | - | >= +100, low > 0: no games | 0 (-): no games |" in table


def test_a_clean_sweep_has_no_upper_bound_and_quiet_draws_miss_the_no_progress_target():
    report = ladder_of({(2, 1): (10, 0, 0), (3, 2): (8, 2, 0)}, reason=QUIET)
    rows = {tuple(row["levels"]): row for row in report["pairings"]}
    assert rows[2, 1]["elo_high"] is None and rows[2, 1]["targets"] == {"elo": True, "no_progress": True}
    assert "[+166, +inf]" in report["markdown"]
    assert rows[3, 2]["no_progress"] == 2 and rows[3, 2]["no_progress_share"] == 0.2
    assert rows[3, 2]["targets"]["no_progress"] is False
    assert rows[3, 2]["draw_reasons"] == {QUIET: 2}
    assert "| 2 (20%): not met |" in report["markdown"]


def test_report_only_reports_the_saved_games_and_refuses_another_ladder(tmp_path, monkeypatch, tiny_ladder):
    out, report = tiny_ladder
    monkeypatch.setattr(
        ladder_command, "LadderConfig", functools.partial(LadderConfig, level_options=TINY.level_options)
    )
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: pytest.fail("--report-only played"))
    arguments = ["ladder", "pirate-chess", "--seed", "4", "--decision-limit", "30", "--out", str(out), "--report-only"]
    shown = CliRunner().invoke(app, [*arguments, "--games", "2"])
    assert shown.exit_code == 0, shown.output
    assert scores(json.loads((out / "ladder.json").read_text())) == scores(report)
    other = CliRunner().invoke(app, [*arguments, "--games", "3"])
    assert other.exit_code != 0 and "different ladder" in str(other.exception)
    empty = CliRunner().invoke(app, [*arguments[:-3], "--out", str(tmp_path), "--report-only"])
    assert empty.exit_code != 0 and "no ladder" in str(empty.exception)


def test_a_ladder_opened_at_random_plays_each_opening_from_both_sides_and_says_so(tmp_path, monkeypatch):
    tiny_levels = functools.partial(LadderConfig, level_options=TINY.level_options)
    monkeypatch.setattr(ladder_command, "LadderConfig", tiny_levels)
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: InProcess())
    out = tmp_path / "out"
    arguments = ["ladder", "pirate-chess", "--games", "2", "--seed", "4", "--decision-limit", "30", "--opening", "2"]
    played = CliRunner().invoke(app, [*arguments, "--out", str(out)])
    assert played.exit_code == 0, played.output
    report = json.loads((out / "ladder.json").read_text())
    assert report["opening"] == 2
    assert "the first 2 decisions of each pair of games drawn at random" in report["markdown"]
    records = [Record.parse(ArenaStore(out).record_path(index).read_text()) for index in range(4)]
    assert records[0].moves[:2] == records[1].moves[:2] and records[2].moves[:2] == records[3].moves[:2]
    assert records[0].moves[:2] != records[2].moves[:2]
