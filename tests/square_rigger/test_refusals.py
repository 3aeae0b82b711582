"""Every refusal names the rule it enforces and changes nothing (seed 000: "Speed and Turn",
"Firepower", the defence paragraph, "Shore Batteries", "Transports and Merchant Ships"; decisions:
turn sequence, exits, fire chart, resolution)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.events import Turned
from quarterdeck.core.geometry import Compass
from quarterdeck.games.square_rigger.actions import AssignDefence, AssignFire, MoveShip, to_text

from .helpers import GAME, play, position


def refused(state, action) -> IllegalAction:
    """The refusal of `action` (notation or an action value); the state must be left as it was."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(state.text_to_action(action) if isinstance(action, str) else action)
    assert state.to_json() == before
    return error.value


def in_fire_phase():
    """Blue to fire: Victory (F5) beside red's Foe, with a struck Hulk and a merchantman of her own."""
    state = position([("Victory", "blue", "first", "e5", "N"), ("Hulk", "blue", "third", "a1", "N"),
                      ("Trader", "blue", "third", "a8", "N", {"role": "merchant"}),
                      ("Foe", "red", "third", "f5", "N"), ("Wreck", "red", "third", "e7", "N")])
    state.hits["Hulk"] = state.hits["Wreck"] = 7
    play(state, "end-move")
    return state


# --- movement -------------------------------------------------------------------------------
def test_an_escaped_ship_has_left_the_battle():
    state = position([("Runner", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Stay", "blue", "frigate", "a5", "N"), ("Foe", "red", "third", "a10", "S")], wind="W")
    play(state, "escape Runner E")
    assert refused(state, MoveShip("Runner", (8, 4), Compass.E)).rule == "escaped"


def test_an_exit_edge_out_of_reach_this_turn_is_refused():
    state = position([("Runner", "blue", "frigate", "c5", "E", {"exits": ["E"]}),
                      ("Foe", "red", "third", "a10", "S")], wind="W")
    error = refused(state, "escape Runner E")
    assert error.rule == "movement" and "cannot reach the E edge" in error.message


def test_staying_put_is_no_move():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")])
    error = refused(state, "move Bellona d4 N")
    assert error.rule == "movement" and "already there" in error.message
    # Turning on the spot is a move: she ends on d4 heading NE, and the event says she turned.
    assert play(state, "move Bellona d4 NE") == [Turned("Bellona", "d4", "NE")]


def test_a_side_moves_only_its_own_ships():
    state = GAME.new_initial_state("duel")  # blue to move; red's Achille could sail h8 -> g8 in her own turn
    error = refused(state, "move Achille g8 W")
    assert error.rule == "own-pieces-only" and error.message == "Achille belongs to red"


def test_a_ship_of_no_one_is_an_unknown_piece():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")])
    assert refused(state, MoveShip("Nobody", (3, 4), Compass.N)).rule == "unknown-piece"
    assert refused(state, ("sail", "away")).rule == "notation"


# --- fire -----------------------------------------------------------------------------------
def test_a_struck_ship_cannot_fire():
    assert refused(in_fire_phase(), AssignFire("Hulk", 2, 1)).rule == "struck-inert"


def test_a_merchantman_cannot_fire():
    assert refused(in_fire_phase(), AssignFire("Trader", 2, 1)).rule == "merchants-unarmed"


def test_fire_needs_a_bearing_and_at_least_one_point():
    state = in_fire_phase()
    assert refused(state, AssignFire("Victory", 8, 1)).rule == "fire-chart"
    assert refused(state, AssignFire("Victory", -1, 1)).rule == "fire-chart"
    error = refused(state, AssignFire("Victory", 2, 0))
    assert error.rule == "fire-chart" and "at least 1" in error.message


def test_a_struck_ship_cannot_be_fired_on():
    state = in_fire_phase()
    error = refused(state, "fire Victory fore 2")  # Wreck, struck, lies two squares ahead
    assert error.rule == "struck-inert" and "Wreck" in error.message


# --- defence --------------------------------------------------------------------------------
def in_defence():
    """Red defends Target (F3): 1 effect arrives off her port beam; her Hulk has struck."""
    state = position([("Victory", "blue", "first", "d5", "N"), ("Target", "red", "third", "e5", "N"),
                      ("Hulk", "red", "third", "j10", "S")])
    state.hits["Hulk"] = 7
    play(state, "end-move", "fire Victory stbd-beam 1 at Target", "end-fire")
    return state


def test_a_struck_ship_cannot_defend():
    assert refused(in_defence(), AssignDefence("Hulk", 6, 1)).rule == "struck-inert"


def test_defence_only_where_fire_arrives_once_per_bearing_and_no_more_than_arrives():
    state = in_defence()
    error = refused(state, "defend Target fore 1")
    assert error.rule == "defence" and error.message == "no fire arrives off the fore of Target"
    assert refused(state, AssignDefence("Target", 8, 1)).rule == "defence"  # no such bearing
    assert refused(state, AssignDefence("Target", 6, 0)).rule == "fire-chart"
    error = refused(state, "defend Target port-beam 2")
    assert error.rule == "defence" and "only 1 fire arrives" in error.message
    play(state, "defend Target port-beam 1")
    error = refused(state, "defend Target port-beam 1")
    assert error.rule == "defence" and "already assigned" in error.message


# --- the turn sequence ---------------------------------------------------------------------
@pytest.mark.parametrize(("setup", "phase", "texts"), [
    (lambda: GAME.new_initial_state("duel"), "move",
     ["fire Bellona stbd-beam 1", "end-fire", "defend Bellona stbd-beam 1", "end-defence"]),
    (in_fire_phase, "fire", ["move Victory e6 N", "end-move", "defend Victory stbd-beam 1", "end-defence"]),
    (in_defence, "defence", ["move Target e6 N", "end-move", "fire Target port-beam 1", "end-fire"]),
])
def test_each_decision_belongs_to_its_phase(setup, phase, texts):
    state = setup()
    for text in texts:
        error = refused(state, text)
        assert error.rule == "turn-sequence" and error.message.endswith(f"; this is the {phase} phase")
    word = texts[1]  # end-move or end-fire
    assert refused(state, word).message == f"{word} belongs to the {word[4:]} phase; this is the {phase} phase"


def test_only_the_side_whose_phase_it_is_fires_or_defends():
    state = in_fire_phase()
    assert state.legal_actions(piece="Foe") == []  # red's ship, beside Victory, waits for her own turn
    assert refused(state, "fire Foe port-beam 1").rule == "own-pieces-only"
    state = in_defence()
    assert state.legal_actions(piece="Victory") == []
    assert refused(state, "defend Victory stbd-beam 1").rule == "own-pieces-only"


# --- notation and saved games ---------------------------------------------------------------
def test_only_square_rigger_actions_have_notation():
    with pytest.raises(NotationError) as error:
        to_text(GAME.new_initial_state("duel"), ("fly", "away"))
    assert error.value.field == "action"


def test_a_saved_game_in_an_unknown_phase_is_rejected():
    data = GAME.new_initial_state("duel").to_json()
    data["phase"] = "boarding"
    with pytest.raises(RecordError, match="unknown phase"):
        GAME.state_from_json(data)
