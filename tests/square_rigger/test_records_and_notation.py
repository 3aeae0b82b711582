"""Notation, JSON, records and take-backs (core protocol, used through Square Rigger Chess)."""

from __future__ import annotations

import copy
import random

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match

from .helpers import GAME, play, position


def random_match(scenario: str, seed: int, limit: int = 200) -> Match:
    rng = random.Random(seed)
    match = Match(GAME, scenario, {}, seed)
    for _ in range(limit):
        if match.state.is_terminal():
            break
        match.play(rng.choice(match.state.legal_actions()))
    return match


def test_every_legal_action_has_notation_that_parses_back():
    match = random_match("blockade", 3, 60)
    for action in match.state.legal_actions():
        text = match.state.action_to_text(action)
        assert match.state.parse_action(text) == action


def test_every_decision_is_offered_once_in_every_phase():
    # The blockade's forts open fire at once: random play soon passes through all three phases.
    rng = random.Random(0)
    match = Match(GAME, "blockade", {}, 0)
    phases = set()
    for _ in range(30):
        actions = match.state.legal_actions()
        assert len(set(actions)) == len(actions)
        phases.add(match.state.phase)
        match.play(rng.choice(actions))
    assert phases == {"move", "fire", "defence"}


@pytest.mark.parametrize(
    ("text", "field"),
    [("", "action"), ("sail Bellona", "verb"), ("move Bellona", "action"), ("move Nobody c3 N", "piece"),
     ("move Bellona q99 N", "square"), ("move Bellona c3 UP", "direction"), ("fire Bellona broadside 3", "bearing"),
     ("fire Bellona stbd-beam three", "amount"), ("escape Bellona up", "edge"), ("end-move now", "action"),
     ("fire Bellona stbd-beam 3 on Achille", "action"), ("defend Bellona stbd-beam 1 at Achille", "action"),
     ("end-defence now", "action")],
)
def test_malformed_notation_names_the_field(text, field):
    state = GAME.new_initial_state("duel")
    with pytest.raises(NotationError) as error:
        state.parse_action(text)
    assert error.value.field == field


def test_illegal_actions_leave_the_state_unchanged():
    state = GAME.new_initial_state("duel")
    before = state.to_json()
    for text in ("move Achille h7 W", "fire Bellona stbd-beam 3", "end-defence", "move Bellona j10 N"):
        with pytest.raises(IllegalAction):
            play(state, text)
        assert state.to_json() == before


def test_json_round_trip_mid_game():
    match = random_match("squadron-battle", 5, 150)
    data = match.state.to_json()
    again = GAME.state_from_json(data)
    assert again.to_json() == data
    assert [again.action_to_text(a) for a in again.legal_actions()] == [
        match.state.action_to_text(a) for a in match.state.legal_actions()]


def test_the_saved_state_is_a_copy_that_editing_leaves_the_game_alone():
    # A saved position of the fleet battle, played into its second turn so the repetition count has
    # entries, is edited by whoever holds it: the game and every other state of it stay as they were.
    match = random_match("fleet-battle", 4, 40)
    state = match.state
    other = GAME.new_initial_state("fleet-battle", {"turn_limit": 9})
    twin = state.clone()
    before, other_before = copy.deepcopy(state.to_json()), copy.deepcopy(other.to_json())
    saved = state.to_json()
    saved["setup"]["title"] = "edited"
    saved["setup"]["ships"][0]["at"] = "a1"
    saved["options"]["calm"] = True
    saved["seen"]["edited"] = 2
    edited_other = other.to_json()
    edited_other["options"]["turn_limit"] = 1
    assert state.to_json() == before
    assert twin.to_json() == before
    assert other.to_json() == other_before
    assert GAME.new_initial_state("fleet-battle").to_json()["setup"]["title"] != "edited"


def test_corrupt_json_is_rejected():
    data = GAME.new_initial_state("duel").to_json()
    data["ships"]["Bellona"]["square"] = "z99"
    with pytest.raises(RecordError):
        GAME.state_from_json(data)
    with pytest.raises(RecordError):
        GAME.state_from_json({"game": "square-rigger"})


def test_a_record_replays_to_the_same_state():
    match = random_match("convoy", 11, 300)
    text = match.record().to_text()
    record = Record.parse(text)
    assert record.final_state(GAME).to_json() == match.state.to_json()
    assert "[Game \"square-rigger\"]" in text and "1. blue " in text


def test_a_corrupt_record_names_the_line():
    match = random_match("duel", 2, 30)
    lines = match.record().to_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    lines[index] = "3. blue fire Bellona fore 9"
    with pytest.raises(RecordError) as error:
        Record.parse("\n".join(lines)).final_state(GAME)
    assert error.value.line == index + 1
    with pytest.raises(RecordError) as error:
        Record.parse("[Game square-rigger]")
    assert error.value.line == 1
    with pytest.raises(RecordError):
        Record.parse('[Game "square-rigger"]\n\n1. blue end-move\n3. red end-move\n')


def test_match_loads_from_a_record_and_goes_on():
    match = random_match("duel", 4, 25)
    loaded = Match.from_record(Record.parse(match.record().to_text()), GAME)
    assert loaded.state.to_json() == match.state.to_json()
    action = loaded.state.legal_actions()[0]
    loaded.play(action)
    assert len(loaded.moves) == len(match.moves) + 1


def test_take_back_one_ships_move_before_committing():
    state_match = Match(GAME, "fleet-battle")
    state_match.play("move Victory c4 NE")
    state_match.play("move Temeraire e4 NE")
    state_match.retract(0)  # take back Victory's move, keep Temeraire's
    assert state_match.moves == [("blue", "move Temeraire e4 NE")]
    assert state_match.state.square["Victory"] == (1, 2)
    state_match.undo()
    assert state_match.moves == [] and state_match.state.square["Temeraire"] == (3, 2)


def test_a_whole_turn_is_checked_as_one():
    match = Match(GAME, "duel")
    before = match.state.to_json()
    with pytest.raises(IllegalAction) as error:
        match.play_turn(["move Bellona d3 E", "move Bellona e3 E"])
    assert "action 2 of the turn" in str(error.value)
    assert match.state.to_json() == before and match.moves == []
    match.play_turn(["move Bellona d3 E", "end-move"])
    assert match.state.side_name == "red"


def test_struck_ships_count_toward_terminal_points_in_the_record():
    state = position([("Victory", "blue", "first", "e5", "N"), ("Naiad", "red", "frigate", "f5", "N")])
    state.hits["Naiad"] = 6
    play(state, "end-move", "fire Victory stbd-beam 5", "end-fire", "end-defence")
    assert state.points("blue") == 7


def test_a_game_saved_mid_defence_against_a_shore_battery_reloads_with_its_options():
    # Red's fort fires on Victory; blue has given part of her defence when the game is saved.
    board = "\n".join([".........."] * 9 + ["####......"])
    fort = {"name": "Fort", "side": "red", "at": "b1", "F": 3, "field": ["N"]}
    state = position([("Victory", "blue", "first", "b3", "E"), ("Foe", "red", "frigate", "j10", "S")],
                     board=board, batteries=[fort], options={"repetition_draw": False, "turn_limit": 12})
    play(state, "end-move", "end-fire", "end-move", "fire Fort N 3 at Victory", "end-fire",
         "defend Victory stbd-beam 1")
    saved = state.to_json()
    again = GAME.state_from_json(saved)
    assert again.to_json() == saved
    assert (again.phase, again.players[again.current_player()]) == ("defence", "blue")
    assert (again.setup.turn_limit, again.setup.repetition_draw) == (12, False)
    assert saved["batteries"]["Fort"] == {"side": "red", "square": "b1", "field": ["N"], "hits": 0, "F": 3,
                                          "silenced": False}
    assert [again.action_to_text(a) for a in again.legal_actions()] == [
        state.action_to_text(a) for a in state.legal_actions()]
    # The fort's fire (2 effect at two squares) less the one point of defence lands on both alike.
    assert play(again, "end-defence") == play(state, "end-defence")
    assert again.to_json() == state.to_json() and again.hits["Victory"] == 1
