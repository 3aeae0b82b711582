"""The `quarterdeck` command as a player uses it for Square Rigger Chess."""

from __future__ import annotations

from typer.testing import CliRunner

from quarterdeck.cli.main import app
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.square_rigger.evaluate import optimal_defence

from .helpers import GAME

runner = CliRunner()


def run(*args: str, input: str | None = None):
    result = runner.invoke(app, list(args), input=input, env={"COLUMNS": "160"})
    assert "Traceback" not in result.output
    return result


def test_games_lists_square_rigger_chess():
    result = run("games")
    assert result.exit_code == 0 and "square-rigger" in result.output and "Square Rigger Chess" in result.output


def test_scenarios_lists_one_line_each():
    result = run("scenarios", "square-rigger")
    assert result.exit_code == 0
    for name in ("duel", "frigate-action", "squadron-battle", "fleet-battle", "convoy", "chase", "blockade"):
        assert name in result.output


def test_rules_prints_a_summary():
    result = run("rules", "square-rigger")
    assert result.exit_code == 0 and "Non-adjacency" not in result.output and "strikes her colours" in result.output


def test_play_a_turn_by_selecting_a_ship_and_a_square_then_save_and_replay(tmp_path):
    saved = tmp_path / "duel.qdr"
    script = "\n".join([
        "Bellona",          # select: legal end positions listed
        "d4",              # three headings end on d4: listed
        "1",               # d4 heading N
        "end",             # commit the movement
        f"save {saved}",
        "quit",
    ]) + "\n"
    result = run("play", "square-rigger", "--scenario", "duel", "--red", "greedy", input=script)
    assert result.exit_code == 0, result.output
    assert "move Bellona" in result.output and "red (greedy)" in result.output
    record = Record.parse(saved.read_text())
    assert record.moves[0] == ("blue", "move Bellona d4 N")
    assert record.players == {"blue": "human", "red": "greedy"}

    replay = run("replay", str(saved))
    assert replay.exit_code == 0 and "1. blue move Bellona d4 N" in replay.output

    resumed = run("play", "square-rigger", "--load", str(saved), "--red", "greedy", input="quit\n")
    assert resumed.exit_code == 0 and "Bellona" in resumed.output


def test_bad_input_gets_a_clear_message_and_changes_nothing(tmp_path):
    saved = tmp_path / "game.qdr"
    script = "\n".join(["move Bellona j10 N", "fire Bellona fore 3", "frobnicate", "Bellona", "j9",
                        f"save {saved}", "quit"]) + "\n"
    result = run("play", "square-rigger", input=script)
    assert result.exit_code == 0
    assert "cannot reach j10" in result.output
    assert "turn-sequence" in result.output
    assert "[field: verb]" in result.output
    assert "no legal action ending on j9" in result.output
    assert Record.parse(saved.read_text()).moves == []


def test_take_back_a_ship_before_committing(tmp_path):
    saved = tmp_path / "game.qdr"
    script = "\n".join(["move Bellona d4 N", "back", f"save {saved}", "quit"]) + "\n"
    result = run("play", "square-rigger", input=script)
    assert "Taken back" in result.output
    assert Record.parse(saved.read_text()).moves == []


def test_a_full_game_between_two_computer_captains_runs_to_the_turn_limit():
    # No person plays: the command plays all three turns and ends the game as the scenario says.
    result = run("play", "square-rigger", "--blue", "greedy", "--red", "random", "--scenario", "duel",
                 "--option", "turn_limit=3", input="")
    assert result.exit_code == 0
    assert result.output.count("blue (greedy): end-move") == 3
    assert result.output.count("red (random): end-move") == 3
    assert "Game over: " in result.output and "the turn limit (3) is reached" in result.output


def test_unknown_game_scenario_or_agent_is_a_clear_error(tmp_path):
    assert "unknown game" in run("play", "chequers").output
    result = run("play", "square-rigger", "--scenario", "armada")
    assert result.exit_code == 2 and "no scenario 'armada'" in result.output
    result = run("play", "square-rigger", "--red", "genius")
    assert result.exit_code == 2 and "unknown agent" in result.output
    corrupt = tmp_path / "bad.qdr"
    corrupt.write_text('[Game "square-rigger"]\n\n1. blue fly away\n')
    result = run("replay", str(corrupt))
    assert result.exit_code == 2 and "line 3" in result.output


# Turn 1 of the duel: blue closes, red crosses her bow and fires, blue defends. Blue is to move.
OPENING = ["move Bellona e4 NE", "end-move", "move Achille g6 S", "end-move",
           "fire Achille stbd-bow 2 at Bellona", "end-fire", "defend Bellona fore 1", "end-defence"]


def test_human_defence_with_the_optimal_shortcut(tmp_path):
    # Red (the computer) fires at blue in turn 2; blue, a person, answers with `optimal`, which
    # must give exactly the engine's best defence, and `end` lands the hits.
    match = Match(GAME, "duel", {}, 0)
    for text in OPENING:
        match.play(text)
    loaded, saved = tmp_path / "opening.qdr", tmp_path / "after.qdr"
    loaded.write_text(match.record().to_text())
    script = "\n".join(["auto defence off", "end", "optimal", "end", f"save {saved}", "quit"]) + "\n"
    result = run("play", "square-rigger", "--load", str(loaded), "--red", "greedy", input=script)
    assert result.exit_code == 0
    record = Record.parse(saved.read_text())
    red_fired = [i for i, (seat, text) in enumerate(record.moves) if seat == "red" and text == "end-fire"][1]
    before_defence = Match.from_record(record, GAME, upto=red_fired + 1).state
    expected = [before_defence.action_to_text(a) for a in optimal_defence(before_defence)]
    assert expected  # red's fire arrives where blue can answer it
    after = record.moves[red_fired + 1:]
    assert after[:len(expected) + 1] == [("blue", text) for text in [*expected, "end-defence"]]
    landed = Match.from_record(record, GAME, upto=red_fired + len(expected) + 2).state
    taken = landed.hits["Bellona"] - before_defence.hits["Bellona"]
    assert taken > 0 and f"Bellona takes {taken} hit{'' if taken == 1 else 's'}" in result.output
