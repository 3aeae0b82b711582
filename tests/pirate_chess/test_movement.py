"""How the ships move: the eight move patterns, the torus, blocking."""

import pytest

from . import rulebook
from .helpers import layout, refused, targets

ALL_TYPES = list(rulebook.MOVES)
EDGES_AND_CORNERS = ["a1", "h1", "a8", "h8", "a4", "h5", "d1", "e8"]
# A red ship far from the action so the position is legal; anchored so it only ever blocks.
BYSTANDER = "red Dhow anchored"


def expected_targets(size, ships, kind, square):
    """Destinations by the independent rule-book model (the bystander blocks, never attacked)."""
    model = rulebook.position(size, ships)
    start = rulebook.square_of(square)
    found = rulebook.reachable(size, model.ships, kind, start)
    return {rulebook.name_of(s) for s in found if s not in model.ships or (model.ships[s][0] == 1 and kind == "Pirate")}


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("Dhow", {"d5", "e4", "d3", "c4"}),
        ("Junk", {"d5", "d6", "e4", "f4", "d3", "d2", "c4", "b4"}),
        ("Barque", {"d5", "d6", "d7", "d8", "e4", "f4", "g4", "h4", "e5", "f6", "g7", "h8"}),
        ("Schooner", {"e4", "f4", "g4", "h4", "d3", "d2", "d1", "d8", "e3", "f2", "g1", "h8"}),
        ("Brig", {"d3", "d2", "d1", "d8", "c4", "b4", "a4", "h4", "c3", "b2", "a1", "h8"}),
        ("Caravel", {"d5", "d6", "d7", "d8", "c4", "b4", "a4", "h4", "c5", "b6", "a7", "h8"}),
        ("Pirate", {"e6", "f5", "f3", "e2", "c2", "b3", "b5", "c6"}),
    ],
)
def test_ship_moves_from_the_rule_book(kind, expected):
    state = layout({"d4": f"blue {kind}", "b8": BYSTANDER}, options={"size": 8})
    assert targets(state, kind) == expected


def test_frigate_moves_1_to_4_squares_in_all_eight_directions():
    state = layout({"d4": "blue Frigate", "b8": BYSTANDER})
    found = targets(state, "Frigate")
    assert {"d5", "d8", "e5", "h8", "e4", "h4", "e3", "g1", "d3", "d1", "c3", "a1", "c4", "a4", "c5", "a7"} <= found
    assert found == expected_targets(8, {"d4": "blue Frigate", "b8": BYSTANDER}, "Frigate", "d4")


@pytest.mark.parametrize("square", EDGES_AND_CORNERS)
@pytest.mark.parametrize("kind", ALL_TYPES)
def test_torus_every_ship_wraps_at_every_edge_and_corner(kind, square):
    bystander_square = "d4" if square != "d4" else "e5"
    ships = {square: f"blue {kind}", bystander_square: BYSTANDER}
    state = layout(ships)
    assert targets(state, kind) == expected_targets(8, ships, kind, square)


@pytest.mark.parametrize(
    ("kind", "origin", "across"),
    [
        ("Barque", "c8", "c1"),  # north edge to south
        ("Schooner", "c1", "c8"),  # south edge to north
        ("Schooner", "h3", "a3"),  # east edge to west
        ("Brig", "a3", "h3"),  # west edge to east
        ("Barque", "h8", "a1"),  # north-east corner, diagonally
        ("Caravel", "a8", "h1"),  # north-west corner
        ("Schooner", "h1", "a8"),  # south-east corner
        ("Brig", "a1", "h8"),  # south-west corner
        ("Junk", "b8", "b2"),  # two squares across the north edge
        ("Dhow", "a5", "h5"),
        ("Frigate", "g7", "c3"),  # four squares north-east, across both edges
        ("Pirate", "h8", "b1"),  # the leap wraps too (2 east, 1 north)
        ("Pirate", "a1", "h3"),
    ],
)
def test_torus_moves_cross_the_edges(kind, origin, across):
    state = layout({origin: f"blue {kind}", "d4": BYSTANDER})
    assert across in targets(state, kind)


def test_torus_slides_continue_across_an_edge_on_a_6x6_board():
    state = layout({"f3": "blue Schooner", "c6": BYSTANDER}, options={"size": 6})
    assert {"a3", "b3", "c3"} <= targets(state, "Schooner")


def test_compass_directions_are_the_same_for_both_fleets():
    state = layout({"d4": "red Barque", "b8": "blue Dhow anchored"}, to_move="red")
    assert "d5" in targets(state, "Barque") and "d3" not in targets(state, "Barque")


def test_sliding_ship_is_blocked_by_any_ship_in_the_way():
    state = layout({"a1": "blue Barque", "a3": "blue Dhow", "c1": "red Dhow", "b2": "red Junk anchored"})
    found = targets(state, "Barque")
    assert {"a2", "b1"} <= found
    assert not {"a4", "a5", "d1", "c3"} & found
    assert "c1" in found  # an unanchored enemy in the way may be attacked
    assert refused(state, "move Barque a1-a4") == "blocked"
    assert refused(state, "move Barque a1-d1") == "blocked"


def test_junk_two_step_slides_and_is_blocked_by_a_ship_on_the_first_square():
    """Decision: the Junk slides 1 or 2 squares; a ship on the first square stops it."""
    state = layout({"d4": "blue Junk", "d5": "blue Dhow", "e4": "red Dhow anchored"})
    found = targets(state, "Junk")
    assert "d6" not in found and "f4" not in found
    assert {"d3", "d2", "c4", "b4"} == found
    assert refused(state, "move Junk d4-d6") == "blocked"


def test_pirate_leaps_over_ships():
    ships = {"d4": "blue Pirate", "d5": "blue Dhow", "e4": "blue Junk", "d3": "red Dhow", "c4": "red Junk anchored"}
    state = layout(ships)
    assert {"e6", "f5", "f3", "e2", "c2", "b3", "b5", "c6"} == targets(state, "Pirate")


def test_move_must_follow_the_ship_pattern():
    state = layout({"d4": "blue Barque", "b8": BYSTANDER})
    assert refused(state, "move Barque d4-d3") == "ship-move"
    assert refused(state, "move Barque d4-c5") == "ship-move"


def test_move_never_ends_on_a_friendly_ship():
    state = layout({"d4": "blue Junk", "d5": "blue Dhow", "b8": BYSTANDER})
    assert "d5" not in targets(state, "Junk")
    assert refused(state, "move Junk d4-d5") == "friendly-square"


def test_frigate_reaches_a_square_either_way_round_a_small_torus():
    """Decision: on 8x8, 4 east and 4 west meet; the move is legal when either way is clear."""
    state = layout({"a1": "blue Frigate", "c1": "blue Dhow", "b8": BYSTANDER})
    assert moves_to(state, "Frigate", "e1") == ["move Frigate a1-e1"]  # only westwards: h1, g1, f1, e1
    state = layout({"a1": "blue Frigate", "b8": BYSTANDER})
    assert moves_to(state, "Frigate", "e1") == ["move Frigate a1-e1"]  # both ways clear: listed once


def moves_to(state, ship, square):
    texts = [state.action_to_text(a) for a in state.legal_actions(piece=ship)]
    return [t for t in texts if t.startswith("move") and t.split()[2][-len(square) :] == square]


def test_wrong_origin_is_refused():
    state = layout({"d4": "blue Dhow", "b8": BYSTANDER})
    assert refused(state, "move Dhow c4-c5") == "wrong-origin"
