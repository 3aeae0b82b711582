"""The harbour upgrade: join a ship anchored in the harbour, becoming a Frigate or a Pirate."""

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Anchored, Moved, Placed, Upgraded
from quarterdeck.games.pirate_chess.actions import Move

from .helpers import layout, legal, new_game, play, refused, square_of

# Blue's Junk has lain at anchor in the harbour (d4 on 8x8) since an earlier turn.
HARBOUR = {"d4": "blue Junk anchored", "d2": "blue Dhow", "b3": "blue Pirate", "h8": "red Dhow"}


def test_harbour_upgrade_by_move_into_a_frigate_anchored():
    state = layout(HARBOUR)
    assert {"move Dhow d2-d3", "move Dhow d2-d1"} <= legal(state)
    events = play(state, "move Pirate b3-d4 upgrade Frigate")
    assert events == [
        Moved("blue Pirate", "b3", "d4"),
        Upgraded(("blue Junk", "blue Pirate"), "d4", "blue Frigate2"),
        Anchored("blue Frigate2", "d4", True),
    ]
    frigate = state.ships[0]["Frigate2"]  # the layout's original Frigate has left the game
    assert state.square_name(frigate.square) == "d4" and frigate.anchored
    assert {"Junk", "Pirate"} <= set(state.lost[0])
    assert state.upgrades[0] == {"Frigate": 1, "Pirate": 0}


def test_harbour_upgrade_into_a_pirate_not_anchored():
    state = layout(HARBOUR)
    play(state, "move Pirate b3-d4 upgrade Pirate")
    pirate = state.ships[0]["Pirate2"]
    assert state.square_name(pirate.square) == "d4" and not pirate.anchored
    assert square_of(state, "blue", "Junk") is None


def test_harbour_upgrade_by_placement_from_the_reserve():
    state = layout(HARBOUR, reserves={"blue": ["Caravel"]})
    events = play(state, "place Caravel d4 upgrade Frigate")
    assert events[:2] == [Placed("blue Caravel", "d4"), Upgraded(("blue Junk", "blue Caravel"), "d4", "blue Frigate2")]
    assert state.reserve(0) == []


def test_harbour_upgrade_offers_both_choices_as_distinct_actions():
    state = layout(HARBOUR)
    joins = {t for t in legal(state, "Pirate") if t.startswith("move Pirate b3-d4")}
    assert joins == {"move Pirate b3-d4 upgrade Frigate", "move Pirate b3-d4 upgrade Pirate"}


def test_harbour_upgrade_only_in_the_harbour():
    state = layout({"a1": "blue Junk anchored", "c2": "blue Pirate", "h8": "red Dhow"})
    assert not any("upgrade" in t for t in legal(state))
    assert refused(state, "move Pirate c2-a1 upgrade Frigate") == "harbour-upgrade"


def test_harbour_upgrade_needs_the_first_ship_at_anchor():
    state = layout({"d4": "blue Junk", "b3": "blue Pirate", "h8": "red Dhow"})
    assert refused(state, "move Pirate b3-d4 upgrade Frigate") == "harbour-upgrade"
    assert refused(state, "move Pirate b3-d4") == "friendly-square"


def test_harbour_upgrade_only_in_a_later_turn_than_the_anchoring():
    state = layout({"d4": "blue Junk", "b3": "blue Pirate", "h8": "red Dhow"})
    play(state, "anchor Junk")
    assert not any("upgrade" in t for t in legal(state))
    assert refused(state, "move Pirate b3-d4 upgrade Frigate") == "harbour-upgrade"
    play(state, "move Pirate b3-a5")
    play(state, "move Dhow h8-h7", "end")
    play(state, "move Pirate a5-b3", "end")
    play(state, "move Dhow h7-h8", "end")
    play(state, "move Pirate b3-d4 upgrade Frigate")
    assert set(state.ships[0]) == {"Frigate2"}


def test_harbour_upgrade_anchored_in_the_opening_counts():
    state = new_game()
    play(state, "place Junk d4", "place Junk a8", "place Pirate b3", "place Dhow h1", "place Dhow g6", "place Brig f1")
    assert "move Pirate b3-d4 upgrade Frigate" in legal(state)


def test_upgrade_limit_two_frigates_and_two_pirates_per_player():
    state = layout(HARBOUR, upgrades_used={"blue": {"Frigate": 2}})
    joins = {t for t in legal(state, "Pirate") if "upgrade" in t}
    assert joins == {"move Pirate b3-d4 upgrade Pirate"}
    assert refused(state, "move Pirate b3-d4 upgrade Frigate") == "upgrade-limit"
    state = layout(HARBOUR, upgrades_used={"blue": {"Frigate": 2, "Pirate": 2}})
    assert not any("upgrade" in t for t in legal(state))
    assert refused(state, "move Pirate b3-d4 upgrade Pirate") == "upgrade-limit"


def test_upgrade_limit_counts_each_player_separately():
    state = layout(HARBOUR, upgrades_used={"red": {"Frigate": 2, "Pirate": 2}})
    assert "move Pirate b3-d4 upgrade Frigate" in legal(state)


def test_upgrade_limit_reached_by_play():
    state = layout(
        {
            "d4": "blue Junk anchored",
            "e4": "blue Dhow anchored",
            "b3": "blue Pirate",
            "e2": "blue Barque",
            "h8": "red Dhow",
        },
        upgrades_used={"blue": {"Frigate": 1}},
    )
    play(state, "move Pirate b3-d4 upgrade Frigate", "end")
    assert state.upgrades_left(0) == {"Frigate": 0, "Pirate": 2}
    play(state, "move Dhow h8-h7", "end")
    assert refused(state, "move Barque e2-e4 upgrade Frigate") == "upgrade-limit"
    play(state, "move Barque e2-e4 upgrade Pirate")
    assert state.upgrades_left(0) == {"Frigate": 0, "Pirate": 1}


def test_harbour_upgrade_only_joins_an_own_ship_anchored_there_and_makes_a_frigate_or_a_pirate():
    state = layout({**HARBOUR, "c5": "red Barque"})
    assert refused(state, "move Dhow d2-d3 upgrade Frigate") == "harbour-upgrade"  # d3 is open water
    assert refused(state, "move Pirate b3xc5 sink upgrade Pirate") == "harbour-upgrade"  # an enemy is no base
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(Move("Pirate", state.geometry.index["b3"], state.geometry.index["d4"], "", "Barque"))
    assert error.value.rule == "harbour-upgrade" and "Frigate or a Pirate" in error.value.message
    assert state.to_json() == before
