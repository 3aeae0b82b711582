"""The board, the fleets, the scenarios and the options."""

import pytest

from quarterdeck.core.errors import RecordError, ScenarioError
from quarterdeck.core.registry import registered
from quarterdeck.games import get
from quarterdeck.games.pirate_chess import PirateChess

from .helpers import GAME, layout, legal, new_game, to_move

FLEET = ["Frigate", "Pirate", "Barque", "Schooner", "Brig", "Caravel", "Junk", "Dhow"]


def test_registered_as_pirate_chess():
    assert get("pirate-chess").name == "pirate-chess"
    assert registered()["pirate-chess"] is PirateChess


def test_each_fleet_starts_with_one_ship_of_each_type_in_reserve():
    state = new_game()
    for player in range(2):
        assert sorted(state.reserve(player)) == sorted(FLEET)
        assert state.on_board(player) == []


def test_blue_moves_first():
    state = new_game()
    assert to_move(state) == "blue"
    assert state.players == ("blue", "red")


def test_board_is_8x8_by_default():
    state = new_game()
    assert state.options.size == 8
    assert len(state.legal_actions()) == 8 * 64  # any reserve ship on any square


@pytest.mark.parametrize("size", [6, 8, 10, 12, 26])
def test_board_size_option_any_even_size_from_6(size):
    state = new_game(size=size)
    assert len(state.board) == size * size
    assert len(legal(state, "Dhow")) == size * size


@pytest.mark.parametrize("size", [4, 5, 7, 9, 28, "8", 8.0, True, None])
def test_board_size_option_rejects_odd_small_or_non_integer_sizes(size):
    with pytest.raises(ScenarioError) as error:
        new_game(size=size)
    assert error.value.field == "options.size"


@pytest.mark.parametrize(
    ("option", "value"),
    [("repetition_draw", "yes"), ("quiet_turn_draw", 1), ("quiet_turn_limit", 0), ("quiet_turn_limit", "100")],
)
def test_draw_options_are_checked_and_named(option, value):
    with pytest.raises(ScenarioError) as error:
        new_game(**{option: value})
    assert error.value.field == f"options.{option}"


def test_unknown_option_is_named():
    with pytest.raises(ScenarioError) as error:
        new_game(wind="NE")
    assert error.value.field == "options.wind"


def test_unknown_scenario_is_a_scenario_error():
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("armada")
    assert error.value.field == "scenario"


def test_scenarios_standard_8x8_and_large_10x10_with_briefings():
    scenarios = {s.name: s for s in GAME.scenarios()}
    assert scenarios["standard"].options == {"size": 8}
    assert scenarios["large"].options == {"size": 10}
    for scenario in scenarios.values():
        assert len(scenario.briefing) > 200 and "\n" not in scenario.briefing
    assert GAME.new_initial_state("large").options.size == 10
    assert GAME.new_initial_state(None).options.size == 8


def test_options_override_the_scenario():
    assert GAME.new_initial_state("large", {"size": 6}).options.size == 6


@pytest.mark.parametrize(
    ("size", "harbour"),
    [(6, {"c3", "d3", "c4", "d4"}), (8, {"d4", "e4", "d5", "e5"}), (10, {"e5", "f5", "e6", "f6"})],
)
def test_harbour_is_the_centre_four_squares(size, harbour):
    state = new_game(size=size)
    assert {state.square_name(s) for s in state.geometry.harbour} == harbour


def test_rules_summary_lists_every_ship():
    summary = GAME.rules_summary()
    for kind in FLEET:
        assert f"| {kind} |" in summary


def test_layout_rejects_a_fleet_without_ships_on_the_board():
    with pytest.raises(ScenarioError):
        layout({"a1": "blue Frigate"})


def test_layout_rejects_malformed_ships():
    with pytest.raises(ScenarioError):
        layout({"a1": "blue Galleon", "b2": "red Dhow"})
    with pytest.raises(ScenarioError):
        layout({"z9": "blue Frigate", "b2": "red Dhow"})
    with pytest.raises(ScenarioError):
        layout({"a1": "blue Pirate anchored", "b2": "red Dhow"})


def test_state_from_json_rejects_corrupt_data():
    good = layout({"a1": "blue Frigate", "b2": "red Dhow"}).to_json()
    for corrupt in ({}, {"game": "chess"}, {**good, "to_move": "green"}, {**good, "fleets": {}}):
        with pytest.raises(RecordError):
            GAME.state_from_json(corrupt)
    two_on_a_square = {**good, "fleets": {**good["fleets"]}}
    two_on_a_square["fleets"]["red"] = {
        **good["fleets"]["red"],
        "ships": [{"id": "Dhow", "square": "a1", "anchored": False}],
    }
    with pytest.raises(RecordError):
        GAME.state_from_json(two_on_a_square)


def blue_fleet(good: dict, **changes) -> dict:
    """A copy of a saved state with blue's fleet entry changed."""
    return {**good, "fleets": {**good["fleets"], "blue": {**good["fleets"]["blue"], **changes}}}


@pytest.mark.parametrize(("corrupt", "message"), [
    (lambda good: {**good, "options": {**good["options"], "size": 5}}, "bad options"),
    (lambda good: blue_fleet(good, lost=["Frigate", *good["fleets"]["blue"]["lost"]]), "both in the game and lost"),
    (lambda good: blue_fleet(good, ships=[{"id": "Frigate", "square": "a1", "anchored": False},
                                          {"id": "Frigate", "square": "c3", "anchored": False}]),
     "two ships called Frigate"),
    (lambda good: blue_fleet(good, ships=[{"id": "Frigate", "square": None, "anchored": True}]),
     "in the reserve and cannot be anchored"),
    (lambda good: blue_fleet(good, ships=[{"id": "Galleon", "square": "a1", "anchored": False}]), "not a ship id"),
    (lambda good: blue_fleet(good, lost=["Pirate", "Galleon2"]), "not a ship id"),
])
def test_state_from_json_names_what_is_impossible_in_a_saved_fleet(corrupt, message):
    good = layout({"a1": "blue Frigate", "b2": "red Dhow"}).to_json()
    with pytest.raises(RecordError, match=message):
        GAME.state_from_json(corrupt(good))
