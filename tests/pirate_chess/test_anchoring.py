"""Anchoring: anchored ships cannot move and only a Pirate can attack them; the Pirate never anchors."""

from quarterdeck.core.events import Anchored

from .helpers import layout, legal, play, refused, square_of, targets


def test_anchor_and_weigh_are_anchor_actions():
    state = layout({"a1": "blue Junk", "f1": "blue Barque", "c3": "blue Dhow anchored", "h8": "red Dhow"})
    assert {"anchor Junk", "anchor Barque", "weigh Dhow"} <= legal(state)
    events = play(state, "weigh Dhow")
    assert events == [Anchored("blue Dhow", "c3", False)]
    assert not state.ships[0]["Dhow"].anchored


def test_anchored_ship_cannot_move():
    state = layout({"a1": "blue Junk anchored", "c3": "blue Dhow", "h8": "red Dhow"})
    assert targets(state, "Junk") == set()
    assert refused(state, "move Junk a1-a2") == "anchored-cannot-move"


def test_anchored_ship_may_move_after_weighing_in_the_same_turn():
    state = layout({"a1": "blue Junk anchored", "c3": "blue Dhow", "h8": "red Dhow"})
    play(state, "weigh Junk", "move Junk a1-a3")
    assert square_of(state, "blue", "Junk") == "a3"
    assert state.to_move == 1


def test_anchored_immunity_from_every_ship_but_the_pirate():
    for kind in ("Frigate", "Barque", "Junk", "Dhow"):
        state = layout({"a1": f"blue {kind}", "a2": "red Caravel anchored", "h8": "red Dhow"})
        assert "a2" not in targets(state, kind)
        assert refused(state, f"move {kind} a1xa2 sink") == "anchored-immunity"


def test_pirate_can_sink_an_anchored_ship():
    state = layout({"a1": "blue Pirate", "b3": "red Caravel anchored", "h8": "red Dhow"})
    assert "move Pirate a1xb3 sink" in legal(state)
    play(state, "move Pirate a1xb3 sink")
    assert "Caravel" in state.lost[1]
    assert square_of(state, "blue", "Pirate") == "b3"


def test_pirate_can_capture_an_anchored_frigate_which_sails_on_unanchored():
    state = layout({"a1": "blue Pirate", "b3": "red Frigate anchored", "h8": "red Dhow"})
    play(state, "move Pirate a1xb3 capture")
    prize = state.ships[0]["Frigate2"]  # Blue's own first Frigate has left the game in this layout
    assert state.square_name(prize.square) == "b3" and not prize.anchored


def test_pirate_never_anchors():
    state = layout({"a1": "blue Pirate", "c3": "blue Dhow", "h8": "red Dhow"})
    assert "anchor Pirate" not in legal(state)
    assert refused(state, "anchor Pirate") == "pirate-never-anchors"


def test_anchoring_an_anchored_ship_or_weighing_one_under_way_is_refused():
    state = layout({"a1": "blue Junk anchored", "c3": "blue Dhow", "h8": "red Dhow"})
    assert refused(state, "anchor Junk") == "already-anchored"
    assert refused(state, "weigh Dhow") == "not-anchored"


def test_only_ships_on_the_board_anchor():
    state = layout({"a1": "blue Junk", "h8": "red Dhow"}, reserves={"blue": ["Dhow"]})
    assert refused(state, "anchor Dhow") == "not-on-board"
    assert refused(state, "anchor Barque") == "no-such-ship"
