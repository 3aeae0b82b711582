"""The `quarterdeck` command as a player uses it for Square Rigger Chess."""

from __future__ import annotations

from typer.testing import CliRunner

from quarterdeck.cli.main import app
from quarterdeck.core.record import Record

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


def test_optimal_defence_shortcut_and_a_full_game_against_the_computer():
    script = "\n".join(["resign"]) + "\n"
    result = run("play", "square-rigger", "--blue", "greedy", "--red", "random", "--scenario", "duel",
                 "--option", "turn_limit=3", input=script)
    assert result.exit_code == 0 and "Game over" in result.output


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


def test_human_defence_with_the_optimal_shortcut():
    # Red fires at blue; blue (a person) takes the optimal defence in one word.
    state = GAME.new_initial_state("duel")
    assert state is not None
    script = "\n".join(["end", "optimal", "quit"]) + "\n"
    result = run("play", "square-rigger", "--red", "greedy", input=script)
    assert result.exit_code == 0
