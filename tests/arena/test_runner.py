"""The arena: its schedule, saved records that replay, resuming, and parallel workers."""

from __future__ import annotations

import dataclasses
import json

import pytest
import typer
from typer.testing import CliRunner

from quarterdeck.arena import (
    ArenaConfig,
    ArenaError,
    ArenaStore,
    LocalExecutor,
    plot,
    run_arena,
    schedule,
    summarise,
)
from quarterdeck.arena.runner import GameResult
from quarterdeck.cli.commands.arena import parse_games, split_agents
from quarterdeck.cli.main import app
from quarterdeck.core.record import Record

from ..ai.helpers import real_games
from ..ai.toy_games import Nim, NimWithEvaluation, Pig
from ..cli.helpers import command
from .helpers import InProcess, without_timing

PIG_ARENA = ArenaConfig(game="toy-pig", agents=("mcts:iterations=20", "random"), games=4, seed=11)


def test_the_schedule_alternates_sides_and_fixes_seeds():
    config = ArenaConfig(game="toy-nim", agents=("a", "b", "c"), games=4, seed=3)
    tasks = schedule(config, seats=2)
    assert len(tasks) == 12  # three pairings of four games
    assert [t.agents for t in tasks[:4]] == [("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")]
    assert {t.agents for t in tasks[8:]} == {("b", "c"), ("c", "b")}
    assert len({t.seed for t in tasks}) == 12
    assert schedule(config, seats=2) == tasks


def test_named_pairings_are_played_in_their_order_first_agent_first():
    config = ArenaConfig(game="toy-nim", agents=("a", "b", "c"), games=2, seed=3, pairings=(("c", "b"), ("c", "a")))
    assert [t.agents for t in schedule(config, seats=2)] == [("c", "b"), ("b", "c"), ("c", "a"), ("a", "c")]
    assert ArenaConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    # A round robin's saved configuration is as before pairings existed, so its folder still resumes.
    assert "pairings" not in ArenaConfig(game="toy-nim", agents=("a", "b"), games=2).to_json()


def test_a_result_saved_before_decisions_were_timed_still_reads():
    data = GameResult(0, 1, ("a", "b"), ("first", "second"), (1.0, -1.0), "first", "won", 3, 0.1).to_json()
    del data["decision_seconds"]
    assert GameResult.from_json(data).decision_seconds == ()


def test_bad_configurations_are_refused():
    with pytest.raises(ArenaError):
        ArenaConfig(game="toy-nim", agents=("random",), games=2)
    with pytest.raises(ArenaError):
        ArenaConfig(game="toy-nim", agents=("random", "random"), games=2)
    with pytest.raises(ArenaError, match="pairing"):
        ArenaConfig(game="toy-nim", agents=("random", "greedy"), games=2, pairings=(("random", "mcts"),))
    with pytest.raises(ArenaError, match="pairing"):
        ArenaConfig(game="toy-nim", agents=("random", "greedy"), games=2, pairings=(("random", "random"),))
    with pytest.raises(ArenaError, match="--decision-limit"):  # else every game a draw before its first move
        ArenaConfig(game="toy-nim", agents=("random", "greedy"), games=2, decision_limit=0)


@pytest.mark.parametrize("arguments", [["--decision-limit", "0"], ["--games", "0"]])
def test_the_arena_command_refuses_a_limit_or_count_below_one_before_writing(tmp_path, arguments):
    out = tmp_path / "out"
    line = ["arena", "-g", "square-rigger", "--agents", "random,greedy", *arguments, "--out", str(out)]
    outcome = CliRunner().invoke(app, line)
    assert outcome.exit_code == 2 and arguments[0] in outcome.output
    assert not out.exists()


def test_a_bad_agent_is_refused_before_any_game_is_played(tmp_path):
    game = Nim()
    for bad, refusal in (("ai:9", "ai level must be one of 1, 2, 3, 4, 5, not '9'"),
                         ("mcts:iterations=5,speed=2", "mcts has no option 'speed'")):
        config = ArenaConfig(game=game.name, agents=(bad, "random"), games=2)
        with pytest.raises(ArenaError, match=refusal):
            run_arena(game, config, tmp_path / "nim", InProcess())
        assert not (tmp_path / "nim").exists()
    out = tmp_path / "arena"
    result = command("arena", "-g", "pirate-chess", "--agents", "bogus,random", "--out", str(out))
    assert result.exit_code == 2 and "unknown agent 'bogus'; agents: ai, alphabeta" in result.output
    assert not out.exists()
    # the scenario and options take the short flags `quarterdeck play` and `ladder` give them
    result = command("arena", "-g", "pirate-chess", "--agents", "random,greedy", "-s", "standard", "-o", "size=7",
                     "--out", str(out))
    assert result.exit_code == 2 and "options.size: the board size is an even number" in result.output
    assert not out.exists()


def test_random_openings_differ_between_pairs_of_games_and_each_is_played_from_both_sides(tmp_path):
    game = NimWithEvaluation()
    plain = ArenaConfig(game=game.name, agents=("alphabeta:depth=2", "alphabeta:depth=4"), games=6, seed=4)
    opened = dataclasses.replace(plain, opening=3)
    results = run_arena(game, opened, tmp_path, InProcess())
    records = [Record.parse(ArenaStore(tmp_path).record_path(index).read_text()) for index in range(6)]
    openings = [tuple(record.moves[:3]) for record in records]
    assert openings[0] == openings[1] and openings[2] == openings[3] and openings[4] == openings[5]
    assert len(set(openings)) == 3
    assert [r.agents[0] for r in results[:2]] == ["alphabeta:depth=2", "alphabeta:depth=4"]  # sides swapped
    for result, record in zip(results, records, strict=True):  # the drawn decisions replay and are not timed
        assert record.final_state(game).outcome.result == result.result
        assert sum(len(times) for times in result.decision_seconds) == result.decisions - 3
    # The configuration keeps its opening, and an arena without one is saved as before openings existed.
    assert ArenaConfig.from_json(json.loads(json.dumps(opened.to_json()))) == opened
    assert "opening" not in plain.to_json()
    with pytest.raises(ArenaError, match="--opening"):
        dataclasses.replace(plain, opening=-1)


def test_records_are_saved_and_replay_to_the_same_result(tmp_path):
    results = run_arena(Pig(), PIG_ARENA, tmp_path, InProcess())
    assert [r.index for r in results] == [0, 1, 2, 3]
    store = ArenaStore(tmp_path)
    for result in results:
        record = Record.parse(store.record_path(result.index).read_text())
        assert record.players == dict(zip(result.seats, result.agents, strict=True))
        final = record.final_state(Pig())
        assert final.outcome.result == result.result == record.result
        assert len(record.moves) == result.decisions


def test_an_interrupted_arena_resumes_without_replaying_finished_games(tmp_path):
    first = InProcess()
    complete = run_arena(Pig(), PIG_ARENA, tmp_path, first)
    assert first.games_played == 4
    for index in (1, 3):  # as if the arena had stopped before these finished
        (tmp_path / "games" / f"{index:06d}.json").unlink()
    (tmp_path / "games" / "000003.qdr").unlink()
    again = InProcess()
    resumed = run_arena(Pig(), PIG_ARENA, tmp_path, again)
    assert again.games_played == 2
    assert without_timing(resumed) == without_timing(complete)
    nothing_left = InProcess()
    run_arena(Pig(), PIG_ARENA, tmp_path, nothing_left)
    assert nothing_left.games_played == 0


def test_an_arena_shared_out_by_game_numbers_adds_up_to_the_whole(tmp_path):
    whole = run_arena(Pig(), PIG_ARENA, tmp_path / "whole", InProcess())
    first, second = InProcess(), InProcess()
    part = run_arena(Pig(), PIG_ARENA, tmp_path / "shared", first, only={1, 2})
    assert first.games_played == 2 and [r.index for r in part] == [1, 2]
    rest = run_arena(Pig(), PIG_ARENA, tmp_path / "shared", second, only={0, 1, 2, 3})
    assert second.games_played == 2  # games 1 and 2 were saved already
    assert without_timing(rest) == without_timing(whole)
    with pytest.raises(ArenaError, match="games 0 to 3, not 4"):
        run_arena(Pig(), PIG_ARENA, tmp_path / "shared", InProcess(), only={4})
    with pytest.raises(ArenaError, match="games 0 to 3, not 7, 8"):  # and no folder is made for it
        run_arena(Pig(), PIG_ARENA, tmp_path / "mistyped", InProcess(), only={7, 8})
    assert not (tmp_path / "mistyped").exists()


def test_the_arena_command_reads_game_numbers_and_refuses_nonsense():
    assert parse_games("0,6, 12-14") == {0, 6, 12, 13, 14}
    for bad in ("a", "9-3", "1-x"):
        with pytest.raises(typer.BadParameter, match="--only"):
            parse_games(bad)


def test_a_folder_holding_another_arena_is_refused(tmp_path):
    run_arena(Pig(), PIG_ARENA, tmp_path, InProcess())
    with pytest.raises(ArenaError):
        run_arena(Pig(), dataclasses.replace(PIG_ARENA, seed=12), tmp_path, InProcess())


def test_two_worker_processes_give_the_same_results_as_one(tmp_path):
    config = ArenaConfig(game="toy-nim", agents=("mcts:iterations=15", "greedy", "random"), games=2, seed=5)
    one = run_arena(Nim(), config, tmp_path / "one", LocalExecutor(workers=1))
    two = run_arena(Nim(), config, tmp_path / "two", LocalExecutor(workers=2))
    assert len(one) == 6
    assert without_timing(one) == without_timing(two)
    records = sorted(p.name for p in (tmp_path / "one" / "games").glob("*.qdr"))
    for name in records:
        assert (tmp_path / "one" / "games" / name).read_text() == (tmp_path / "two" / "games" / name).read_text()


def test_summary_tables_and_plot(tmp_path):
    config = ArenaConfig(game="toy-nim", agents=("mcts:iterations=40", "random"), games=6, seed=2)
    results = run_arena(Nim(), config, tmp_path, InProcess())
    summary = summarise(config, results)
    assert summary.games == 6
    assert sum(s.games for s in summary.standings) == 12
    assert sum(t.games for t in summary.by_side.values()) == 12
    data = json.loads(json.dumps(summary.to_json()))
    assert {row["agent"] for row in data["standings"]} == set(config.agents)
    # Nim has no dice: every decision of the records is one agent's, and each was timed.
    timing = data["time_per_decision"]
    assert sum(t["decisions"] for t in timing.values()) == sum(r.decisions for r in results)
    assert all(0 <= t["p50"] <= t["p90"] <= t["max"] for t in timing.values())
    picture = plot(summary, tmp_path / "results.png")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_agent_lists_keep_each_agents_options_together():
    assert split_agents("ai:3,greedy") == ["ai:3", "greedy"]
    assert split_agents("mcts:iterations=50,exploration=0.5, random") == [
        "mcts:iterations=50,exploration=0.5",
        "random",
    ]


@pytest.mark.skipif(not real_games(), reason="no game is registered yet")
def test_the_arena_command_on_a_registered_game(tmp_path):
    game = real_games()[0]
    out = tmp_path / "out"
    arguments = ["arena", "--game", game.name, "--agents", "random,greedy", "--games", "2", "--decision-limit", "40"]
    result = CliRunner().invoke(app, [*arguments, "--out", str(out), "--plot"])
    assert result.exit_code == 0, result.output
    assert "head to head" in result.output
    assert "seconds per decision" in result.output  # each agent's p50, p90 and max
    assert len(list((out / "games").glob("*.qdr"))) == 2
    assert (out / "summary.json").exists() and (out / "results.png").exists()
