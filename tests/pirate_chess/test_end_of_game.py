"""How the game ends: no ship left on the board after the opening; repetition; quiet turns."""

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import GameOver

from .helpers import layout, new_game, play

# Two lone Pirates: they cannot anchor, so each move is a whole turn.
DUEL = {"a1": "blue Pirate", "h8": "red Pirate"}
SHUFFLE = ("move Pirate a1-b3", "move Pirate h8-g6", "move Pirate b3-a1", "move Pirate g6-h8")


def test_win_when_the_enemy_has_no_ship_on_the_board_even_with_ships_in_reserve():
    state = layout({"a1": "blue Barque", "a3": "red Junk"}, reserves={"red": ["Frigate", "Dhow"]})
    events = play(state, "move Barque a1xa3 sink")
    assert events[-1] == GameOver("blue", "red has no ship left on the board")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.reserve(1) == ["Frigate", "Dhow"]
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction) as error:
        play(state, "end")
    assert error.value.rule == "game-over"


def test_win_by_capturing_the_last_enemy_ship():
    state = layout({"a1": "blue Dhow", "a2": "red Frigate"})
    play(state, "move Dhow a1xa2 capture")
    assert state.outcome.result == "blue"


def test_no_loss_during_the_opening_before_a_fleet_has_placed():
    state = new_game()
    play(state, "place Frigate d4")
    assert not state.is_terminal() and state.on_board(1) == []


def test_threefold_repetition_is_a_draw():
    state = layout(DUEL)
    play(state, *SHUFFLE)
    play(state, *SHUFFLE[:3])
    assert not state.is_terminal()
    events = play(state, SHUFFLE[3])
    assert state.outcome.result == "draw" and "third time" in state.outcome.reason
    assert state.returns() == [0.0, 0.0]  # a draw scores neither fleet
    assert events[-1].kind == "game-over"


def test_repetition_draw_option_off():
    state = layout(DUEL, options={"repetition_draw": False})
    play(state, *SHUFFLE * 3)
    assert not state.is_terminal()


def test_repetition_counts_whole_positions_with_the_player_to_move():
    state = layout(DUEL)
    play(state, *SHUFFLE, *SHUFFLE[:3])
    assert state.history.count(state.repetition_key()) == 2


def test_saved_games_keep_the_repetition_positions_in_the_documented_form():
    # Each square a1, b1, ... h8 in turn: Blue's ships by symbol in capitals, Red's in small letters,
    # * when anchored, . for open sea; first the initial of the player to act. A saved game carries
    # these, so a game saved earlier goes on counting its repetitions the same way.
    state = layout({"a1": "blue Frigate anchored", "b1": "blue Pirate", "h8": "red Dhow"})
    assert state.to_json()["history"] == ["bFr*Pi" + "." * 61 + "dh"]


def test_hundred_quiet_turns_are_a_draw():
    state = layout(DUEL, options={"repetition_draw": False})
    for turn in range(99):
        play(state, SHUFFLE[turn % 4])
    assert not state.is_terminal() and state.quiet_turns == 99
    play(state, SHUFFLE[99 % 4])
    assert state.outcome.result == "draw"
    assert state.outcome.reason == "100 turns without an attack, placement or upgrade"


def test_quiet_turn_draw_option_off_and_limit_option():
    state = layout(DUEL, options={"repetition_draw": False, "quiet_turn_draw": False})
    play(state, *SHUFFLE * 26)
    assert not state.is_terminal()
    state = layout(DUEL, options={"repetition_draw": False, "quiet_turn_limit": 4})
    play(state, *SHUFFLE)
    assert state.outcome.result == "draw"


def test_quiet_turns_reset_by_a_placement_an_attack_or_an_upgrade():
    state = layout({**DUEL, "e4": "red Dhow", "d4": "blue Junk anchored"}, reserves={"blue": ["Barque"]})
    play(state, "move Pirate a1-b3", "end")
    assert state.quiet_turns == 1
    play(state, "move Dhow e4-e3", "end")
    assert state.quiet_turns == 2
    play(state, "place Barque a8", "end")
    assert state.quiet_turns == 0 and state.history == [state.repetition_key()]
    play(state, "move Dhow e3-e2", "end")
    assert state.quiet_turns == 1
    play(state, "move Pirate b3-d4 upgrade Pirate", "end")
    assert state.quiet_turns == 0
    play(state, "move Pirate h8-f7", "end")
    assert state.quiet_turns == 1
    play(state, "move Pirate2 d4xe2 sink", "end")
    assert state.quiet_turns == 0
