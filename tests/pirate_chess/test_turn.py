"""The turn: at most one fleet action and one anchor action, in either order; when it ends."""

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import PhaseChanged
from quarterdeck.games.pirate_chess.actions import Move, Place

from .helpers import layout, legal, play, refused, square_of, to_move

# Blue: a Junk under way, a Dhow at anchor; Red: a lone Dhow far off.
SHIPS = {"a1": "blue Junk", "c3": "blue Dhow anchored", "h8": "red Dhow"}


def test_turn_fleet_action_then_anchor_action():
    state = layout(SHIPS)
    play(state, "move Junk a1-a2")
    assert to_move(state) == "blue"
    events = play(state, "anchor Junk")
    assert to_move(state) == "red"
    assert events[-1] == PhaseChanged("red", "play", 8)


def test_turn_anchor_action_then_fleet_action():
    state = layout(SHIPS)
    play(state, "weigh Dhow")
    assert to_move(state) == "blue"
    play(state, "move Dhow c3-c4")
    assert to_move(state) == "red"


def test_turn_both_actions_may_concern_the_same_ship():
    state = layout(SHIPS)
    play(state, "move Junk a1-a3", "anchor Junk")
    assert state.ships[0]["Junk"].anchored and to_move(state) == "red"


def test_turn_end_declines_the_anchor_action():
    state = layout(SHIPS)
    play(state, "move Junk a1-b1")
    assert "end" in legal(state)
    play(state, "end")
    assert to_move(state) == "red"


def test_turn_passes_by_itself_when_no_anchor_action_is_possible():
    """Decision: once only `end` would be left, the turn passes without it (a fleet of Pirates)."""
    state = layout({"a1": "blue Pirate", "h8": "red Dhow"})
    play(state, "move Pirate a1-b3")
    assert to_move(state) == "red"


def test_turn_one_fleet_action_only():
    state = layout(SHIPS)
    play(state, "move Junk a1-a2")
    assert refused(state, "move Junk a2-a3") == "one-fleet-action"


def test_turn_one_anchor_action_only():
    state = layout(SHIPS)
    play(state, "weigh Dhow")
    assert refused(state, "anchor Junk") == "one-anchor-action"


def test_turn_fleet_action_is_required_when_one_is_legal():
    state = layout(SHIPS)
    assert "end" not in legal(state)
    assert refused(state, "end") == "fleet-action-required"
    play(state, "weigh Dhow")
    assert refused(state, "end") == "fleet-action-required"


def test_turn_fleet_action_is_required_when_the_only_one_is_joining_a_ship_anchored_in_harbour():
    # Blue's Dhow is boxed in by her own anchored ships but for d4, where her Junk rides at anchor
    # in the harbour: sailing in to upgrade is a fleet action, so the turn must take it.
    state = layout({"d3": "blue Dhow", "d4": "blue Junk anchored", "c3": "blue Barque anchored",
                    "e3": "blue Brig anchored", "d2": "blue Caravel anchored", "h8": "red Dhow"})
    moves = {text for text in legal(state) if text.startswith("move")}
    assert moves == {"move Dhow d3-d4 upgrade Frigate", "move Dhow d3-d4 upgrade Pirate"}
    assert "end" not in legal(state)
    assert refused(state, "end") == "fleet-action-required"
    play(state, "move Dhow d3-d4 upgrade Frigate")
    frigate = next(name for name, ship in state.ships[0].items() if ship.kind == "Frigate")
    assert square_of(state, "blue", frigate) == "d4" and "Dhow" not in state.ships[0]


def test_turn_anchor_action_may_not_remove_the_last_fleet_action():
    """Decision: anchoring the only ship that could move, before moving, would dodge the required fleet action."""
    state = layout(SHIPS)
    assert "anchor Junk" not in legal(state) and "weigh Dhow" in legal(state)
    assert refused(state, "anchor Junk") == "fleet-action-required"


def test_turn_without_a_legal_fleet_action_may_anchor_or_end():
    state = layout({"a1": "blue Junk anchored", "c3": "blue Dhow anchored", "h8": "red Dhow"})
    assert legal(state) == {"weigh Junk", "weigh Dhow", "end"}
    play(state, "end")
    assert to_move(state) == "red"


def test_turn_weighing_makes_the_fleet_action_required():
    state = layout({"a1": "blue Junk anchored", "c3": "blue Dhow anchored", "h8": "red Dhow"})
    play(state, "weigh Junk")
    assert to_move(state) == "blue"
    assert "end" not in legal(state)
    play(state, "move Junk a1-a2")
    assert to_move(state) == "red"


def test_turn_fleet_action_may_be_a_placement_after_the_opening():
    state = layout(SHIPS, reserves={"blue": ["Barque"]})
    play(state, "place Barque f6")
    assert not state.ships[0]["Barque"].anchored  # no automatic anchoring after the opening
    play(state, "anchor Barque")
    assert to_move(state) == "red"


def test_turn_placement_goes_on_an_empty_square():
    state = layout(SHIPS, reserves={"blue": ["Barque"]})
    assert refused(state, "place Barque h8") == "occupied"
    assert refused(state, "place Barque a1") == "occupied"
    assert refused(state, "place Frigate f6") == "not-in-reserve"


def test_turn_order_other_player_cannot_act():
    state = layout(SHIPS)
    assert state.legal_actions(player=1) == []
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action("move Dhow h8-h7"), player=1)
    assert error.value.rule == "turn-order"
    assert state.to_json() == before


def test_action_objects_from_elsewhere_are_refused():
    state = layout(SHIPS)
    with pytest.raises(IllegalAction) as error:
        state.apply(("castle", "kingside"))
    assert error.value.rule == "action"


def test_square_off_the_board_is_refused():
    state = layout(SHIPS, reserves={"blue": ["Barque"]})
    with pytest.raises(IllegalAction) as error:
        state.apply(Place("Barque", 64))
    assert error.value.rule == "square"
    with pytest.raises(IllegalAction) as error:
        state.apply(Move("Junk", state.ships[0]["Junk"].square, 64))
    assert error.value.rule == "square"


def test_turn_weighing_the_only_upgrade_base_may_not_remove_the_last_fleet_action():
    # Blue's Dhow can only sail into d4 to join the Junk anchored there; the Junk is boxed in by
    # red ships at anchor (immune to her). Weighing the Junk would leave blue no fleet action at
    # all, so it is refused; weighing the Barque takes nothing away.
    state = layout({"d3": "blue Dhow", "d4": "blue Junk anchored", "c3": "blue Barque anchored",
                    "e3": "blue Brig anchored", "d2": "blue Caravel anchored", "d5": "red Frigate anchored",
                    "e4": "red Schooner anchored", "c4": "red Barque anchored"})
    assert "weigh Junk" not in legal(state) and "weigh Barque" in legal(state)
    assert refused(state, "weigh Junk") == "fleet-action-required"
    play(state, "weigh Barque")
    assert to_move(state) == "blue" and "end" not in legal(state)
