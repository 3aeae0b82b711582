"""The opening: three placements each, anchored unless a Pirate; no attack before they are made."""

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Anchored, PhaseChanged, Placed
from quarterdeck.games.pirate_chess.actions import Move

from .helpers import OPENING, after_opening, layout, legal, new_game, play, refused, to_move


def test_opening_placement_anchors_the_ship_and_passes_the_turn():
    """Decision: the opening's anchoring goes with the placement; no separate anchor action is asked."""
    state = new_game()
    events = play(state, "place Frigate d4")
    assert events == [
        Placed("blue Frigate", "d4"),
        Anchored("blue Frigate", "d4", True),
        PhaseChanged("red", "play", 2),
    ]
    assert state.ships[0]["Frigate"].anchored
    assert to_move(state) == "red"


def test_opening_pirate_placement_ends_the_turn_at_once_unanchored():
    state = new_game()
    events = play(state, "place Pirate d4")
    assert events == [Placed("blue Pirate", "d4"), PhaseChanged("red", "play", 2)]
    assert not state.ships[0]["Pirate"].anchored
    assert to_move(state) == "red"


def test_opening_placement_on_any_empty_square():
    state = new_game()
    assert len(legal(state)) == 8 * 64
    play(state, "place Dhow a1")
    assert len(legal(state)) == 8 * 63
    assert refused(state, "place Dhow a1") == "occupied"


def test_opening_placement_is_required_in_each_of_the_first_three_turns():
    state = new_game()
    play(state, *OPENING[:4])  # two placements each; Blue's Frigate on a1 anchored, Junk on d4
    assert all(text.startswith("place") for text in legal(state))
    assert refused(state, "weigh Junk") == "opening-placement"
    assert refused(state, "move Junk d4-d5") == "opening-placement"
    assert refused(state, "end") == "opening-placement"
    assert refused(state, "move Junk d4-a1") == "opening-placement"  # onto her own Frigate: no attack at all
    # A move value no notation writes, to the square past h8, is refused the same way.
    with pytest.raises(IllegalAction) as error:
        state.apply(Move("Junk", state.geometry.index["d4"], 64))
    assert error.value.rule == "opening-placement"


def test_opening_lasts_three_turns_each_then_ships_move():
    state = after_opening()
    assert to_move(state) == "blue"
    assert {"move Pirate c2-d4", "weigh Junk", "weigh Frigate"} & legal(state) == {"weigh Junk", "weigh Frigate"}
    assert "move Pirate c2-b4" in legal(state)
    assert any(text.startswith("place") for text in legal(state))


def test_no_attack_in_opening():
    state = new_game()
    play(state, "place Pirate c2", "place Dhow d4")
    # Blue's Pirate could leap onto the red Dhow, but the opening still requires placements.
    assert not any(text.startswith("move") for text in legal(state))
    assert refused(state, "move Pirate c2xd4 sink") == "no-attack-in-opening"
    # The first square of the board is no different: an attack on a1 is refused for the same reason.
    play(state, "place Junk e5", "place Barque a1")
    assert refused(state, "move Pirate c2xa1 sink") == "no-attack-in-opening"
    assert refused(state, "move Pirate c2-b4") == "opening-placement"


def test_no_attack_until_both_players_made_three_placements():
    state = new_game()
    play(state, "place Pirate c2", "place Dhow d4", "place Junk a1", "place Junk h8", "place Barque b8")
    assert to_move(state) == "red" and state.turns_played == (3, 2)
    assert refused(state, "move Dhow d4xc2 capture") == "no-attack-in-opening"
    play(state, "place Brig f7")
    assert "move Pirate c2xd4 sink" in legal(state)


def test_no_harbour_upgrade_in_the_opening():
    """Decision: the opening places ships on empty squares; an upgrade placement waits until after it."""
    state = new_game()
    play(state, "place Junk d4", "place Junk a8")
    assert refused(state, "place Dhow d4 upgrade Frigate") == "opening-placement"


def test_opening_counts_turns_per_player():
    state = new_game()
    assert state.in_opening(0) and state.in_opening(1)
    play(state, *OPENING)
    assert not state.in_opening(0) and not state.in_opening(1)
    assert state.turns_played == (3, 3)


def test_layout_positions_start_after_the_opening():
    state = layout({"a1": "blue Dhow", "h8": "red Dhow"})
    assert state.opening_over()
