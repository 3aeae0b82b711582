"""Attacks: sink, or capture a ship that outranks the attacker."""

import pytest

from quarterdeck.core.events import Captured, Eliminated, Moved, Sunk
from quarterdeck.games.pirate_chess.actions import CAPTURE, SINK, Move
from quarterdeck.games.pirate_chess.movement import Recommissioned
from quarterdeck.games.pirate_chess.scenario import RANK

from .helpers import layout, legal, play, refused, square_of, to_move


def test_ranks_from_the_decisions():
    assert RANK == {
        "Frigate": 4,
        "Pirate": 3,
        "Barque": 2,
        "Schooner": 2,
        "Brig": 2,
        "Caravel": 2,
        "Junk": 1,
        "Dhow": 0,
    }


def test_attack_by_landing_on_an_enemy_sinks_it():
    state = layout({"a1": "blue Barque", "a3": "red Junk", "h8": "red Dhow"})
    events = play(state, "move Barque a1xa3 sink")
    assert events[:2] == [Moved("blue Barque", "a1", "a3"), Sunk("red Junk", "a3", "blue Barque")]
    assert square_of(state, "blue", "Barque") == "a3"
    assert "Junk" in state.lost[1] and "Junk" not in state.ships[1]


def test_no_capture_when_the_enemy_does_not_outrank_the_attacker():
    for attacker, defender in (("Barque", "Junk"), ("Barque", "Brig"), ("Frigate", "Pirate")):
        state = layout({"a1": f"blue {attacker}", "b2": f"red {defender}", "h8": "red Dhow"})
        options = {t for t in legal(state, attacker) if "xb2" in t}
        assert options == {f"move {attacker} a1xb2 sink"}
        assert refused(state, f"move {attacker} a1xb2 capture") == "capture-rank"


@pytest.mark.parametrize(
    ("attacker", "defender"), [("Dhow", "Junk"), ("Junk", "Brig"), ("Caravel", "Pirate"), ("Pirate", "Frigate")]
)
def test_capture_or_sink_when_the_enemy_outranks_the_attacker(attacker, defender):
    origin = "a1"
    target = "b3" if attacker == "Pirate" else "a2"
    state = layout({origin: f"blue {attacker}", target: f"red {defender}", "h8": "red Dhow"})
    options = {a for a in state.legal_actions(piece=attacker) if isinstance(a, Move) and a.attack}
    assert {a.attack for a in options} == {SINK, CAPTURE}


def test_capture_the_prize_changes_sides_unanchored_and_the_attacker_leaves():
    state = layout({"a1": "blue Dhow", "a2": "red Frigate", "h8": "red Dhow", "c3": "blue Junk"})
    events = play(state, "move Dhow a1xa2 capture")
    assert events[:4] == [
        Moved("blue Dhow", "a1", "a2"),
        Captured("red Frigate", "a2", "blue Dhow"),
        Eliminated("blue Dhow", "a2"),
        Recommissioned("red Frigate", "a2", "blue Frigate2"),
    ]
    prize = state.ships[0]["Frigate2"]
    assert state.square_name(prize.square) == "a2" and prize.kind == "Frigate" and not prize.anchored
    assert "Dhow" in state.lost[0] and "Frigate" in state.lost[1]
    assert to_move(state) == "blue"  # the anchor action is still open
    play(state, "anchor Frigate2")
    assert state.ships[0]["Frigate2"].anchored


def test_capture_gives_the_prize_a_new_unique_id():
    """Decision: a ship new to a fleet is its type plus the next unused number (Frigate2, Frigate3)."""
    state = layout(
        {"a1": "blue Dhow", "a2": "red Frigate", "c1": "blue Junk", "c2": "red Frigate", "h8": "red Dhow"},
    )
    assert set(state.ships[1]) == {"Frigate", "Frigate2", "Dhow"}
    play(state, "move Dhow a1xa2 capture", "end")
    play(state, "move Dhow h8-h7", "end")
    play(state, "move Junk c1xc2 capture")
    assert {"Frigate2", "Frigate3"} <= set(state.ships[0])


def test_capture_a_lost_prizes_name_is_never_given_again():
    # Blue's prize Frigate2 is sunk; the next Frigate blue takes is Frigate3, not a second Frigate2.
    state = layout({"a1": "blue Dhow", "a2": "red Frigate", "e1": "blue Junk", "e2": "red Frigate",
                    "a8": "red Barque"})
    play(state, "move Dhow a1xa2 capture", "end")
    assert "Frigate2" in state.ships[0]
    play(state, "move Barque a8xa2 sink", "end")
    assert "Frigate2" not in state.ships[0] and "Frigate2" in state.lost[0]
    events = play(state, "move Junk e1xe2 capture")
    assert Recommissioned("red Frigate2", "e2", "blue Frigate3") in events
    assert {"Frigate3"} == {s for s in state.ships[0] if s.startswith("Frigate")}


def test_attack_must_say_sink_or_capture():
    state = layout({"a1": "blue Barque", "a3": "red Junk", "h8": "red Dhow"})
    assert refused(state, "move Barque a1-a3") == "attack-choice"
    assert refused(state, "move Barque a1xa2 sink") == "attack-choice"


def test_placement_never_attacks():
    state = layout({"a1": "blue Barque", "a3": "red Junk", "h8": "red Dhow"}, reserves={"blue": ["Dhow"]})
    assert refused(state, "place Dhow a3") == "occupied"
