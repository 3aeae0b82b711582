"""Movement: each unit at most once per turn, in any order, one at a time, never sharing a square."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Moved, PhaseChanged
from quarterdeck.games.napoleonic_chess.actions import Move

from .helpers import BLACK, GAME, GUARDS, RED, battle, events_of, legal_texts, play


def destinations(state, square: str) -> set[str]:
    """Where the unit on `square` may move now."""
    origin = state.scenario.grid.parse(square)
    return {
        state.scenario.square_name(a.destination)
        for a in state.legal_actions()
        if isinstance(a, Move) and a.origin == origin
    }


def rule_of(state, text: str) -> str:
    with pytest.raises(IllegalAction) as error:
        play(state, text)
    return error.value.rule


def test_infantry_moves_one_square_in_any_direction():
    state = battle({**GUARDS, "d4": "red infantry"})
    assert destinations(state, "d4") == {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"}
    assert rule_of(state, "move d4-d6") == "movement"


def test_guards_move_one_square_in_any_direction():
    state = battle({"d4": "red guards", "h8": "black guards"})
    assert destinations(state, "d4") == {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"}


def test_cavalry_moves_one_or_two_squares_in_a_straight_line():
    state = battle({**GUARDS, "d4": "red cavalry"})
    assert destinations(state, "d4") == {
        "c3",
        "c4",
        "c5",
        "d3",
        "d5",
        "e3",
        "e4",
        "e5",
        "b2",
        "b4",
        "b6",
        "d2",
        "d6",
        "f2",
        "f4",
        "f6",
    }
    assert rule_of(state, "move d4-e6") == "movement"


def test_cavalry_needs_the_first_square_empty():
    state = battle({**GUARDS, "d4": "red cavalry", "d5": "red infantry", "e5": "black infantry"})
    assert "d6" not in destinations(state, "d4")
    assert "f6" not in destinations(state, "d4")
    assert rule_of(state, "move d4-d6") == "blocked-path"
    assert rule_of(state, "move d4-f6") == "blocked-path"


def test_artillery_moves_one_square_orthogonally():
    state = battle({**GUARDS, "d4": "red artillery"})
    assert destinations(state, "d4") == {"d3", "d5", "c4", "e4"}
    assert rule_of(state, "move d4-e5") == "movement"


def test_horse_artillery_moves_two_squares_in_any_direction():
    state = battle({**GUARDS, "d4": "red horse-artillery"})
    assert {"b2", "b6", "f2", "f6", "d6", "d2", "b4", "f4", "e5"} <= destinations(state, "d4")
    assert len(destinations(state, "d4")) == 16


def test_dragoons_move_two_squares_in_any_direction():
    state = battle({**GUARDS, "d4": "red dragoons"})
    assert len(destinations(state, "d4")) == 16


def test_foot_guards_move_as_infantry():
    state = battle({**GUARDS, "d4": "red foot-guards"})
    assert len(destinations(state, "d4")) == 8


def test_cuirassiers_move_as_cavalry():
    state = battle({**GUARDS, "d4": "red cuirassiers"})
    assert len(destinations(state, "d4")) == 16


def test_heavy_infantry_moves_as_the_artillery_it_replaces():
    state = battle({**GUARDS, "d4": "red heavy-infantry"})
    assert destinations(state, "d4") == {"d3", "d5", "c4", "e4"}


def test_units_never_share_a_square():
    state = battle({**GUARDS, "d4": "red infantry", "d5": "red infantry", "e5": "black infantry"})
    assert rule_of(state, "move d4-d5") == "no-sharing"
    assert rule_of(state, "move d4-e5") == "no-sharing"


def test_each_unit_moves_at_most_once_per_turn():
    state = battle({**GUARDS, "d4": "red infantry", "f4": "red infantry"})
    play(state, "move d4-d5")
    assert rule_of(state, "move d5-d6") == "one-move-per-turn"
    assert "d5" not in {state.scenario.square_name(a.origin) for a in state.legal_actions() if isinstance(a, Move)}


def test_units_move_in_any_order_one_at_a_time_and_may_use_vacated_squares():
    state = battle({**GUARDS, "d4": "red infantry", "d3": "red infantry", "d5": "black infantry"})
    assert "d4" not in destinations(state, "d3")
    play(state, "move d4-c4")
    assert "d4" in destinations(state, "d3")
    events = play(state, "move d3-d4")
    assert events_of(events, Moved)[0].destination == "d4"


def test_a_unit_may_stay_put_and_movement_ends_on_command():
    state = battle({**GUARDS, "d4": "red infantry", "e6": "black infantry"})
    events = play(state, "end-move")
    assert state.current_player() == BLACK  # nothing to attack: Red's turn is over
    assert state.unit_at((3, 3)).id == "red-infantry-1"
    assert events_of(events, PhaseChanged)[-1].player == "black"


def test_only_the_side_to_play_moves_its_own_units():
    state = battle({**GUARDS, "d4": "red infantry", "e6": "black infantry"})
    assert rule_of(state, "move e6-e5") == "ownership"
    assert rule_of(state, "move c4-c5") == "no-unit"
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action("move e6-e5"), BLACK)
    assert error.value.rule == "turn-order"


def test_movement_phase_ends_by_itself_when_every_unit_has_moved():
    state = battle({"a1": "red guards", "h8": "black guards"})
    play(state, "move a1-a2")
    assert state.current_player() == BLACK


def test_actions_of_the_wrong_phase_are_refused():
    state = battle({**GUARDS, "d4": "red infantry", "d5": "black infantry"})
    assert rule_of(state, "attack d4xd5") == "phase"
    assert rule_of(state, "end-attack") == "phase"
    assert "end-move" in legal_texts(state)


def test_illegal_move_changes_nothing():
    state = battle({**GUARDS, "d4": "red cavalry", "d5": "red infantry"})
    before = state.to_json()
    for text in ("move d4-d6", "move d4-d5", "move d4-h8", "move e4-e5"):
        with pytest.raises(IllegalAction):
            play(state, text)
        assert state.to_json() == before


def test_first_standard_turn_offers_every_unit_its_moves():
    state = GAME.new_initial_state()
    origins = {state.scenario.square_name(a.origin) for a in state.legal_actions() if isinstance(a, Move)}
    assert "c3" in origins and "a2" in origins  # the artillery can step back to a1
    assert "move d3-d2" in legal_texts(state)
    assert RED in state.acting_players()


def test_legal_actions_of_one_piece():
    state = GAME.new_initial_state()
    texts = {state.action_to_text(a) for a in state.legal_actions(piece="red-artillery-1")}
    assert texts == {"move a2-a1"}
    assert state.legal_actions(piece="a2") == state.legal_actions(piece="red-artillery-1")  # by its square
    assert state.action_piece(state.parse_action("move a2-a1")) == "red-artillery-1"
    assert state.action_piece(state.parse_action("end-move")) is None
