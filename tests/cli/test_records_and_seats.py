"""Saving, loading and replaying games, and naming who plays (issue 12, points 19, 20, 21 and 23)."""

from __future__ import annotations

import re

from quarterdeck import games
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match

from .helpers import command, flat, play

DUEL_OPENING = ["move Bellona d4 N", "end-move", "move Achille g7 SW", "end-move", "move Bellona b6 N"]


def duel_record(tmp_path, name: str = "duel.qdr", players: dict[str, str] | None = None):
    match = Match(games.get("square-rigger"), "duel", {}, 0, players)
    for text in DUEL_OPENING:
        match.play(text)
    path = tmp_path / name
    path.write_text(match.record().to_text(), encoding="utf-8")
    return path


# --- point 19: save ---------------------------------------------------------------------------------
def test_save_asks_before_replacing_a_file_and_save_bang_replaces_it(tmp_path):
    kept = tmp_path / "kept.qdr"
    kept.write_text("my other game\n")
    screen, _, _ = play("square-rigger", [f"save {kept}", "n"], scenario="duel")
    assert "exists; replace it?" in screen and "Not saved." in screen
    assert kept.read_text() == "my other game\n"
    play("square-rigger", ["move Bellona d4 N", f"save {kept}", "y"], scenario="duel")
    assert Record.parse(kept.read_text()).moves == [("blue", "move Bellona d4 N")]
    play("square-rigger", [f"save! {kept}"], scenario="duel")
    assert Record.parse(kept.read_text()).moves == []


def test_save_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    screen, _, _ = play("square-rigger", ["save ~/duel.qdr"], scenario="duel")
    assert (tmp_path / "duel.qdr").exists() and "cannot write" not in screen


def test_a_game_between_computers_is_saved_with_its_result(tmp_path):
    saved = tmp_path / "computers.qdr"
    result = command("play", "square-rigger", "--scenario", "duel", "--option", "turn_limit=2", "--blue", "random",
                     "--red", "greedy", "--save", str(saved))
    assert result.exit_code == 0, result.output
    record = Record.parse(saved.read_text())
    assert record.players == {"blue": "random", "red": "greedy"}
    assert record.result != "*" and "turn limit (2)" in record.termination
    assert record.final_state(games.get("square-rigger")).is_terminal()


def test_a_game_of_the_default_scenario_is_saved_naming_it(tmp_path):
    saved = tmp_path / "default.qdr"
    result = command("play", "pirate-chess", "--blue", "random", "--red", "random", "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert '[Scenario "standard"]' in saved.read_text()


def test_a_game_ended_by_its_turn_limit_shows_the_last_turn_not_one_beyond():
    result = command("play", "square-rigger", "--scenario", "duel", "--option", "turn_limit=2", "--blue", "random",
                     "--red", "random")
    assert result.exit_code == 0 and "turn limit (2)" in result.output
    assert "turn 2/2" in result.output and "turn 3/2" not in result.output


def test_play_save_refuses_an_existing_file_without_force(tmp_path):
    saved = duel_record(tmp_path)
    before = saved.read_text()
    result = command("play", "square-rigger", "--blue", "random", "--red", "random", "--save", str(saved))
    assert result.exit_code == 2 and "exists; add --force to replace it" in result.output
    assert saved.read_text() == before
    result = command("play", "square-rigger", "--option", "turn_limit=1", "--blue", "random", "--red", "random",
                     "--save", str(saved), "--force")
    assert result.exit_code == 0 and Record.parse(saved.read_text()).result != "*"


def test_leaving_a_game_keeps_it_when_play_has_save(tmp_path):
    saved = tmp_path / "left.qdr"
    result = command("play", "square-rigger", "--red", "greedy", "--save", str(saved),
                     input="move Bellona d4 N\nquit\n")
    assert result.exit_code == 0
    assert Record.parse(saved.read_text()).moves == [("blue", "move Bellona d4 N")]


# --- point 20: loading and seats ------------------------------------------------------------------
def test_load_keeps_the_players_of_the_record(tmp_path):
    saved = duel_record(tmp_path, players={"blue": "human", "red": "greedy"})
    result = command("play", "square-rigger", "--load", str(saved), input="end\nquit\n")
    assert "Players: blue: human, red: greedy" in result.output
    assert "red (greedy):" in result.output  # red answers by itself once blue has ended the move
    result = command("play", "square-rigger", "--load", str(saved), "--red", "human", input="end\nquit\n")
    assert "red (greedy)" not in result.output and "red> " in result.output


def test_a_loaded_game_refuses_a_scenario_options_or_tables_it_would_not_use(tmp_path):
    saved = duel_record(tmp_path)
    result = command("play", "square-rigger", "--load", str(saved), "--scenario", "frigate-action", "-o", "x=1")
    assert result.exit_code == 2
    assert "--scenario: a loaded game goes on as its record set it up; leave out --scenario, --option" in result.output
    assert "Players:" not in result.output  # refused before anything was played


def test_tables_are_refused_by_a_game_that_takes_none_and_named_for_one_that_does(tmp_path):
    tables = tmp_path / "tables.toml"
    tables.write_text("[gunnery]\n", encoding="utf-8")
    result = command("play", "naval-warfare", "--tables", str(tables))
    assert result.exit_code == 2
    assert "--tables: naval-warfare takes no tables file (the games that do: frigate)" in result.output
    # frigate reads the file
    result = command("play", "frigate", "--tables", str(tables))
    assert result.exit_code == 2 and "gunnery: no such field; fields are" in flat(result.output)


def test_a_record_whose_computer_player_no_longer_exists_says_so_and_takes_another(tmp_path):
    saved = duel_record(tmp_path, players={"blue": "human", "red": "ai:3:foresight=9"})
    result = command("play", "square-rigger", "--load", str(saved), input="quit\n")
    assert result.exit_code == 2
    assert "the record's player of red (give another with --red): agent spec 'ai:3:foresight=9'" in result.output
    result = command("play", "square-rigger", "--load", str(saved), "--red", "greedy", input="end\nquit\n")
    assert result.exit_code == 0 and "red (greedy):" in result.output


def test_seats_the_game_does_not_have_are_refused_with_its_seat_names():
    result = command("play", "square-rigger", "--black", "greedy")
    assert result.exit_code == 2
    assert "--black: square-rigger has no seat or side 'black'; it has: blue, red" in result.output
    result = command("play", "square-rigger", "--scenario", "squadron-battle", "--seat", "green=random")
    assert result.exit_code == 2 and "it has: blue.van, blue.rear, red.van, red.rear, blue, red" in result.output
    result = command("play", "napoleonic-chess", "--blue", "random", input="quit\n")
    assert result.exit_code == 2 and "it has: red, black" in result.output


def test_every_seat_and_side_of_a_game_is_an_option_of_its_own(tmp_path):
    saved = tmp_path / "squadrons.qdr"
    result = command("play", "square-rigger", "--scenario", "squadron-battle", "--option", "turn_limit=1",
                     "--blue.van", "random", "--blue.rear=random", "--red", "greedy", "--save", str(saved))
    assert result.exit_code == 0, result.output
    players = Record.parse(saved.read_text()).players
    assert players == {"blue.van": "random", "blue.rear": "random", "red.van": "greedy", "red.rear": "greedy"}
    result = command("play", "naval-warfare", "--scenario", "lee-shore", "--french", "ai:3", input="quit\n")
    assert "Players: british: human, french: ai:3" in result.output


def test_a_seat_flag_without_its_player_or_for_no_seat_is_refused_by_name(tmp_path):
    result = command("play", "naval-warfare", "--scenario", "lee-shore", "--british", "--french", "ai:3")
    assert result.exit_code == 2 and "--british: who plays british? e.g. --british ai:3" in result.output
    result = command("play", "naval-warfare", "--scenario", "lee-shore", "--britsh", "human")
    refusal = "--britsh: naval-warfare has no seat or side 'britsh'; it has: british, french (nor is it an option"
    assert result.exit_code == 2 and refusal in " ".join(result.output.split())
    result = command("play", "naval-warfare", "--scenario", "lee-shore", "--sede", "4")
    assert result.exit_code == 2 and "see --help" in result.output
    result = command("play", "naval-warfare", "lee-shore")
    assert result.exit_code == 2 and "unexpected 'lee-shore': the game is named once" in result.output


def test_a_scenario_sheet_gives_the_command_to_play_it_against_the_computer():
    result = command("scenarios", "naval-warfare", "lee-shore", columns=100)
    assert "Against the computer (it plays french; you play british):" in result.output
    assert "quarterdeck play naval-warfare --scenario lee-shore --french ai:3" in result.output
    result = command("scenarios", "square-rigger", "squadron-battle", columns=100)
    assert "quarterdeck play square-rigger --scenario squadron-battle --red ai:3" in result.output


def test_a_record_with_a_byte_order_mark_loads(tmp_path):
    saved = duel_record(tmp_path)
    marked = tmp_path / "marked.qdr"
    marked.write_bytes(b"\xef\xbb\xbf" + saved.read_bytes())
    result = command("replay", str(marked))
    assert result.exit_code == 0 and "5. blue move Bellona b6 N" in result.output


def test_a_deeply_nested_options_header_is_a_clear_error(tmp_path):
    deep = tmp_path / "deep.qdr"
    nested = "[" * 100_000 + "]" * 100_000
    deep.write_text(f'[Game "square-rigger"]\n[Options "{{\\"a\\": {nested}}}"]\n')
    for args in (("replay", str(deep)), ("play", "square-rigger", "--load", str(deep))):
        result = command(*args)
        assert result.exit_code == 2 and "error: Options header is nested too deeply" in result.output


# --- point 21: a scenario's whole briefing ------------------------------------------------------------
def test_scenarios_prints_a_scenarios_whole_briefing_and_options():
    result = command("scenarios", "square-rigger", "blockade", columns=80)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "Square Rigger Chess: Harbour blockade and breakout" in text
    assert "If red has not broken out by turn 30, the blockade has held." in text  # the end, not cut
    result = command("scenarios", "napoleonic-chess", "three-armies", columns=80)
    text = " ".join(result.output.split())
    assert "the coalition wins by eliminating both Black Guards" in text and "allied_attacks true" in text
    assert "Seats: red (the coalition, with blue); blue (the coalition, with red); black (the empire)" in text
    result = command("scenarios", "square-rigger", "armada")
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and "no scenario 'armada'; scenarios are blockade, chase" in said
    assert "quarterdeck scenarios square-rigger <scenario>" in command("scenarios", "square-rigger").output


def test_the_scenario_list_on_an_80_column_terminal_shows_each_briefings_opening_words():
    # Naval Warfare's titles are long; the briefing column must still say what each scenario is about
    output = command("scenarios", "naval-warfare", columns=80).output
    assert "The Armada's rearguard" in output and "Two 32-gun frigates" in output
    assert "Single-ship action:" in output and "fight it out, 1795" in output  # the title wrapped, whole


def test_each_option_of_a_scenario_says_what_it_does_and_which_names_it_takes():
    text = " ".join(command("scenarios", "frigate", "sister-frigates", columns=120).output.split())
    assert "sagging false Sagging (Movement 8, optional): in a Fresh wind every ship is carried downwind" in text
    assert "turns 15 game-turns to play" in text  # the scenario's own length, not a bare 0
    assert "(one of: standard, optional)" in text
    assert "Seats: blue (Royal Navy: Amethyst); red (Marine nationale: Thetis)" in text
    # Attack at Dawn has no squares for a fixed deployment, so it is not offered
    text = " ".join(command("scenarios", "napoleonic-chess", "attack-at-dawn", columns=120).output.split())
    assert 'deployment "secret" how the armies take the field' in text and "(one of: secret, alternate)" in text


# --- point 23: stepping through a replay -------------------------------------------------------------
def test_replay_steps_forwards_back_to_a_move_and_quits(tmp_path):
    saved = duel_record(tmp_path)
    # Enter twice (moves 1, 2), back (move 1), move 4, then the start, then quit.
    result = command("replay", str(saved), "--step", input="\n\nb\n4\n0\nq\n")
    assert result.exit_code == 0
    assert re.findall(r"(\d+)\. (?:blue|red) ", result.output) == ["1", "2", "1", "4"]
    assert result.output.count("The start (5 moves in the record)") == 2
    assert "Result" not in result.output  # left before the end


def test_replay_step_refuses_a_move_number_beyond_the_record(tmp_path):
    saved = duel_record(tmp_path)
    result = command("replay", str(saved), "--step", input="9\n5\n\n")
    assert "type Enter, b, q or a move number from 0 to 5" in result.output
    assert "5. blue move Bellona b6 N" in result.output and result.exit_code == 0


def test_an_option_value_nested_past_reading_is_refused_naming_the_option():
    deep = "[" * 20000 + "]" * 20000
    for line in (("play", "square-rigger"), ("arena", "-g", "square-rigger", "--agents", "random,greedy")):
        result = command(*line, "--option", f"turn_limit={deep}")
        said = " ".join(result.output.split())
        assert result.exit_code == 2 and "options.turn_limit: a value nested too deeply to be read" in said, said


def test_scenarios_checks_a_players_own_scenario_file_and_prints_its_briefing(tmp_path):
    mine = tmp_path / "narrow-seas.toml"
    mine.write_text('title = "Narrow seas"\nbriefing = "Two fleets on a small board."\n[options]\nsize = 6\n')
    result = command("scenarios", "pirate-chess", str(mine), columns=200)
    assert result.exit_code == 0, result.output
    assert "Pirate Chess: Narrow seas" in result.output and "Two fleets on a small board." in result.output
    assert f"quarterdeck play pirate-chess --scenario {mine} --red ai:3" in result.output
    mine.write_text('title = "Narrow seas"\nbriefing = "Two fleets on a small board."\n[options]\nsize = 7\n')
    result = command("scenarios", "pirate-chess", str(mine), columns=200)
    assert result.exit_code == 2 and "options.size" in result.output and "Narrow seas" not in result.output


def test_a_scenario_file_in_the_home_folder_is_found_after_scenario_equals(tmp_path, monkeypatch):
    """The shell leaves `--scenario=~/narrow.toml` as it is; the command reads `~` as the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "narrow.toml").write_text('title = "Narrow seas"\nbriefing = "A small board."\n[options]\nsize = 6\n')
    saved = tmp_path / "narrow.qdr"
    result = command("play", "pirate-chess", "--scenario=~/narrow.toml", "--blue", "random", "--red", "random",
                     "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert Record.parse(saved.read_text()).scenario == str(tmp_path / "narrow.toml")
    result = command("scenarios", "pirate-chess", "~/narrow.toml", columns=200)
    assert result.exit_code == 0 and "Pirate Chess: Narrow seas" in result.output


def test_help_reads_as_paragraphs_with_its_placeholders_and_defaults():
    """`--help` wraps each paragraph to the terminal rather than breaking it where the source does, and
    keeps `<game>` and `[default: human]` rather than reading them as markup."""
    arena = command("arena", "--help", columns=120).output
    assert "Records and results go to --out (default: arena-<game>-<agents>-<seed>). An interrupted arena resumes: " \
           "run the same" in arena
    play_help = flat(command("play", "--help", columns=120).output)
    assert "who plays blue: human, random, greedy, ai:<level> [default: human]" in play_help
