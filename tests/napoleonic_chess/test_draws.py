"""Draws: threefold repetition and a run of turns without an elimination."""

from __future__ import annotations

from quarterdeck.core.events import GameOver

from .helpers import GAME, GUARDS, battle, events_of, play


def test_threefold_repetition_is_a_draw():
    state = battle(GUARDS)
    shuffle = ("move a1-a2", "move h8-h7", "move a2-a1", "move h7-h8")
    play(state, *shuffle)
    assert not state.is_terminal()
    events = play(state, *shuffle)
    assert events_of(events, GameOver)[0].result == "draw"
    assert "repetition" in state.outcome.reason
    assert state.returns() == [0.0, 0.0]


def test_fifty_turns_without_an_elimination_is_a_draw_by_default():
    assert GAME.new_initial_state().scenario.quiet_turn_limit == 50
    state = battle(GUARDS, options={"quiet_turn_limit": 4})
    play(state, "end-move", "end-move", "end-move")
    assert not state.is_terminal()
    events = play(state, "end-move")
    assert events_of(events, GameOver)[0].reason == "4 turns without an elimination"
    one = battle(GUARDS, options={"quiet_turn_limit": 1})
    assert events_of(play(one, "end-move"), GameOver)[0].reason == "1 turn without an elimination"


def test_an_elimination_restarts_the_count_and_the_repetition_history():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, options={"quiet_turn_limit": 3})
    play(state, "end-move", "end-attack", player=0)
    play(state, "end-move", "end-attack", player=1)
    assert state.quiet_turns == 2
    play(state, "end-move", "attack d4xd5", "end-advance")
    assert state.quiet_turns == 0
    assert list(state.history.values()) == [1]


def test_a_battle_saved_in_the_advance_counts_the_turns_eliminations():
    # Two Black infantry fall at once; a save taken before the advance says so, and the reloaded
    # battle restarts the count of quiet turns when the turn ends.
    state = battle(
        {**GUARDS, "d4": "red artillery", "e4": "red artillery", "d5": "black infantry", "e5": "black infantry"},
        options={"quiet_turn_limit": 3},
    )
    play(state, "end-move", "end-attack", player=0)
    play(state, "end-move", "end-attack", player=1)
    play(state, "end-move", "attack d4xd5", "attack e4xe5", player=0)
    saved = state.to_json()
    assert (saved["phase"], saved["quiet_turns"], saved["turn_eliminations"]) == ("advance", 2, 2)
    restored = GAME.state_from_json(saved)
    play(restored, "end-advance")
    assert restored.quiet_turns == 0 and not restored.is_terminal()


def test_the_position_key_tells_apart_what_the_moves_and_the_evaluation_read():
    """The search keys every position it meets by this key: positions with the same units but a
    different army to play, phase, attack declared or support given must not share one."""
    layout = {**GUARDS, "d4": "red artillery", "c5": "red infantry"}
    layout |= {"d5": "black infantry", "d6": "black infantry", "e5": "black infantry"}
    plain = battle(layout)
    assert battle(layout).position_key() == plain.position_key()
    variants = {}
    variants["a unit moved"] = battle(layout)
    play(variants["a unit moved"], "move a1-a2")
    variants["the attacks begun"] = battle(layout)
    play(variants["the attacks begun"], "end-move")
    variants["an attack declared"] = battle(layout)
    play(variants["an attack declared"], "end-move", "attack d4xd5")
    variants["another attack declared"] = battle(layout)
    play(variants["another attack declared"], "end-move", "attack c5xd5")
    variants["the supports begun"] = battle(layout)
    play(variants["the supports begun"], "end-move", "attack d4xd5", "end-attack")
    variants["a support given"] = battle(layout)
    play(variants["a support given"], "end-move", "attack d4xd5", "end-attack", "support d6>d5")
    variants["the other army to play"] = battle(layout)
    play(variants["the other army to play"], "end-move", "end-attack")
    keys = [plain.position_key(), *(state.position_key() for state in variants.values())]
    assert len(set(keys)) == len(keys), variants.keys()
