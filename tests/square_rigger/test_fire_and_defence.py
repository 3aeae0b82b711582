"""Fire chart, distance, line of fire, defence and hits (seed 000: "Firepower", "Distance Fire
Chart", defence paragraph, "true diagonals"; decisions: fire chart, line of fire, resolution)."""

from __future__ import annotations

import itertools

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.events import Fired, Hit, Struck
from quarterdeck.games.square_rigger.actions import BEARINGS, AssignDefence, AssignFire
from quarterdeck.games.square_rigger.evaluate import optimal_defence
from quarterdeck.games.square_rigger.turn import DEFENCE, FIRE

from .helpers import play, position


def bearing(name: str) -> int:
    return BEARINGS.index(name)


def to_fire(state):
    """End blue's movement; the fire phase follows when something can fire (else it is skipped)."""
    play(state, "end-move")
    return state


def test_fire_chart_second_rater_caps_4_abeam_3_bows_and_quarters_2_fore_and_aft():
    state = position([("Mars", "blue", "second", "e5", "N"), ("Foe", "red", "frigate", "a1", "N")])
    caps = {b: state.cap("Mars", i) for i, b in enumerate(BEARINGS)}
    assert caps == {"fore": 2, "stbd-bow": 3, "stbd-beam": 4, "stbd-quarter": 3,
                    "aft": 2, "port-quarter": 3, "port-beam": 4, "port-bow": 3}


def test_fire_chart_split_two_fore_and_two_off_the_starboard_bow():
    # The book: a 2nd Rater "could simultaneously fire 2 units of its firepower fore and the other
    # two off the starboard bow".
    state = to_fire(position([
        ("Mars", "blue", "second", "e5", "N"),
        ("Ahead", "red", "third", "e6", "N"),
        ("OnBow", "red", "third", "g7", "N"),
        ("Abeam", "red", "third", "g4", "N"),
    ]))
    play(state, "fire Mars fore 2", "fire Mars stbd-bow 2")
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars port-beam 1")
    assert error.value.rule in ("firepower-total", "line-of-fire")
    assert state.fire_used("Mars") == 4


def test_fire_chart_caps_are_enforced_per_bearing():
    state = to_fire(position([("Mars", "blue", "second", "e5", "N"), ("Ahead", "red", "third", "e6", "N")]))
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars fore 3")
    assert error.value.rule == "fire-chart"
    assert state.fire == []


def test_fire_chart_full_broadside_one_side_only():
    state = to_fire(position([
        ("Mars", "blue", "second", "e5", "N"),
        ("East", "red", "third", "f5", "N"),
        ("West", "red", "third", "d5", "N"),
    ]))
    play(state, "fire Mars stbd-beam 4")
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars port-beam 1")
    assert error.value.rule == "firepower-total"


def test_frigates_have_no_fire_fore_and_aft():
    state = position([("Naiad", "blue", "frigate", "e5", "N"), ("Foe", "red", "third", "e6", "S")])
    assert state.cap("Naiad", bearing("fore")) == 0
    assert state.cap("Naiad", bearing("aft")) == 0
    to_fire(state)
    assert state.phase != FIRE  # nothing to fire with: the phase is skipped
    assert state.side_name == "red"


def test_frigates_have_no_defence_fore_and_aft_and_negative_caps_count_as_zero():
    # Red fires 3 into the frigate's bow: she cannot defend there, and takes exactly 3 hits, not more.
    state = position([("Naiad", "red", "frigate", "e6", "S"), ("Orion", "blue", "third", "e4", "E")],
                     wind="E")
    to_fire(state)
    play(state, "fire Orion port-beam 3")
    play(state, "end-fire")
    assert state.phase == DEFENCE
    assert state.legal_actions() == [state.parse_action("end-defence")]
    events = play(state, "end-defence")
    hits = [e for e in events if isinstance(e, Hit)]
    assert hits[0].hits == 2  # effect 3 - (2 - 1) = 2 at distance 2, undefended
    assert state.factors("Naiad") == (1, 2, 2)  # T3 goes first, then F on the F/S/T tie


def test_distance_fire_chart_f4_broadside_is_worth_3_at_second_square_and_2_at_third():
    for target_square, effect in (("f5", 4), ("g5", 3), ("h5", 2), ("i5", 1)):
        state = to_fire(position([("Mars", "blue", "second", "e5", "N"), ("Foe", "red", "third", target_square, "N")]))
        events = play(state, "fire Mars stbd-beam 4")
        assert [e.effect for e in events if isinstance(e, Fired)] == [effect]


def test_distance_fire_chart_an_assignment_without_effect_is_illegal():
    state = to_fire(position([("Mars", "blue", "second", "e5", "N"), ("Foe", "red", "third", "h5", "N")]))
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars stbd-beam 2")  # 3 squares off: 2 - 2 = 0
    assert error.value.rule == "distance-fire"
    play(state, "fire Mars stbd-beam 3")  # 3 - 2 = 1 reaches
    # Five squares off, even a full broadside of 4 has no effect: there is nothing to fire at.
    state = position([("Mars", "blue", "second", "e5", "N"), ("Foe", "red", "third", "j5", "N")])
    assert state.fire_target("Mars", bearing("stbd-beam")) == ("Foe", 5)
    to_fire(state)
    assert state.phase != FIRE


def test_defence_does_not_fall_off_with_distance():
    state = to_fire(position([("Mars", "blue", "second", "a5", "N"), ("Foe", "red", "third", "d5", "N")]))
    play(state, "fire Mars stbd-beam 4", "end-fire")  # effect 2 at distance 3, arriving on Foe's port beam
    play(state, "defend Foe port-beam 2")
    events = play(state, "end-defence")
    assert not any(isinstance(e, Hit) for e in events)
    assert state.factors("Foe") == (3, 2, 2)


def test_line_of_fire_only_the_first_ship_on_a_line_may_be_targeted():
    state = to_fire(position([
        ("Mars", "blue", "second", "b5", "N"),
        ("Near", "red", "frigate", "d5", "N"),
        ("Far", "red", "first", "f5", "N"),
    ]))
    targets = {state.fire_target("Mars", bearing("stbd-beam"))[0]}
    assert targets == {"Near"}
    with pytest.raises(NotationError) as error:
        play(state, "fire Mars stbd-beam 4 at Far")
    assert error.value.field == "target"


def test_line_of_fire_own_ships_shelter_what_lies_behind_them():
    state = to_fire(position([
        ("Mars", "blue", "second", "b5", "N"),
        ("Friend", "blue", "frigate", "d5", "N"),
        ("Foe", "red", "third", "f5", "N"),
    ]))
    assert state.fire_target("Mars", bearing("stbd-beam")) == (None, 0)
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars stbd-beam 4")
    assert error.value.rule == "line-of-fire"


def test_line_of_fire_land_stops_fire():
    board = "\n".join(["..........", "..........", "..........", "..........", "..........",
                       "...#......", "..........", "..........", "..........", ".........."])
    state = to_fire(position([("Mars", "blue", "second", "b5", "N"), ("Foe", "red", "third", "f5", "N")],
                             board=board))
    assert state.setup.terrain_at((3, 4)) == "#"
    assert state.fire_target("Mars", bearing("stbd-beam")) == (None, 0)


def test_one_target_per_bearing():
    state = to_fire(position([("Mars", "blue", "second", "e5", "N"), ("Foe", "red", "third", "f5", "N")]))
    play(state, "fire Mars stbd-beam 2")
    with pytest.raises(IllegalAction) as error:
        play(state, "fire Mars stbd-beam 2")
    assert error.value.rule == "one-target-per-bearing"


def test_true_diagonals_of_a_diagonal_ship_bows_and_quarters_are_orthogonal():
    state = position([("Mars", "blue", "second", "e5", "NE"), ("Foe", "red", "third", "a1", "N")])
    lines = {name: state.direction_of("Mars", i).name for i, name in enumerate(BEARINGS)}
    assert lines == {"fore": "NE", "stbd-bow": "E", "stbd-beam": "SE", "stbd-quarter": "S",
                     "aft": "SW", "port-quarter": "W", "port-beam": "NW", "port-bow": "N"}


def test_hand_worked_multi_ship_fire_and_defence():
    # Achille (F3, heading N) on e5 is fired on by three ships:
    #   Mars (F4) from b5, starboard beam, 3 squares: 4 -> effect 2, arriving on Achille's port beam;
    #   Naiad (F2) from e3 heading W, starboard beam (north), 2 squares: 2 -> effect 1, on her aft;
    #   Orion (F3) from f6 heading N, port quarter (south-west), adjacent: 2 -> effect 2, on her starboard bow.
    # Incoming 2 + 1 + 2 = 5; Achille may cancel min(3, min(3,2) + min(1,1) + min(2,2)) = 3: 2 hits.
    state = to_fire(position([
        ("Achille", "red", "third", "e5", "N"),
        ("Mars", "blue", "second", "b5", "N"),
        ("Naiad", "blue", "frigate", "e3", "W"),
        ("Orion", "blue", "third", "f6", "N"),
    ]))
    play(state, "fire Mars stbd-beam 4", "fire Naiad stbd-beam 2", "fire Orion port-quarter 2", "end-fire")
    assert state.incoming("Achille") == {bearing("port-beam"): 2, bearing("aft"): 1, bearing("stbd-bow"): 2}
    plan = optimal_defence(state)
    assert sum(a.amount for a in plan) == 3
    for action in plan:
        state.apply(action)
    events = play(state, "end-defence")
    assert sum(e.hits for e in events if isinstance(e, Hit)) == 2  # one Hit event per bearing hit
    assert all(e.bearing in BEARINGS for e in events if isinstance(e, Hit))
    assert state.factors("Achille") == (1, 2, 2)


def test_hits_per_bearing_defence_on_one_bearing_does_not_cover_another():
    # 3 arrives on the aft bearing where a 3rd Rater may defend with only 1: 2 hits go through even
    # though she has F to spare.
    state = to_fire(position([("Achille", "red", "third", "e5", "N"), ("Mars", "blue", "second", "e4", "W")]))
    play(state, "fire Mars stbd-beam 3", "end-fire")
    with pytest.raises(IllegalAction) as error:
        play(state, "defend Achille aft 2")
    assert error.value.rule == "fire-chart"
    play(state, "defend Achille aft 1")
    events = play(state, "end-defence")
    assert [e.hits for e in events if isinstance(e, Hit)] == [2]


def test_hits_per_bearing_a_bearing_defended_with_all_that_arrives_takes_none():
    # 1 arrives off Target's starboard beam and 3 off her port beam; she meets the 1 in full and gives
    # the port beam 2: one hit, off the port beam only.
    state = to_fire(position([("Victory", "blue", "first", "d5", "N"), ("Ville", "blue", "first", "f5", "N"),
                              ("Target", "red", "third", "e5", "N")]))
    play(state, "fire Victory stbd-beam 3 at Target", "fire Ville port-beam 1 at Target", "end-fire")
    play(state, "defend Target stbd-beam 1", "defend Target port-beam 2")
    assert state.hits_on("Target") == {bearing("port-beam"): 1}
    events = play(state, "end-defence")
    assert [(e.bearing, e.hits) for e in events if isinstance(e, Hit)] == [("port-beam", 1)]
    assert state.factors("Target") == (2, 2, 2)


def test_optimal_defence_minimises_total_hits_against_brute_force():
    state = to_fire(position([
        ("Achille", "red", "second", "e5", "NE"),
        ("Mars", "blue", "second", "b5", "N"),
        ("Orion", "blue", "third", "e7", "E"),
        ("Naiad", "blue", "frigate", "h8", "E"),
    ]))
    for action in state.legal_actions():
        if isinstance(action, AssignFire) and action.piece != "Naiad":
            try:
                state.apply(action)
            except IllegalAction:
                pass
    play(state, "end-fire")
    incoming = state.incoming("Achille")
    assert incoming
    best = min(
        sum(max(0, incoming[b] - d) for b, d in zip(incoming, split, strict=True))
        for split in itertools.product(*(range(state.cap("Achille", b) + 1) for b in incoming))
        if sum(split) <= state.factors("Achille")[0]
    )
    for action in optimal_defence(state):
        state.apply(action)
    assert sum(state.hits_on("Achille").values()) == best


def test_defender_assigns_defence_after_seeing_the_fire():
    state = to_fire(position([("Achille", "red", "third", "e5", "N"), ("Mars", "blue", "second", "f5", "N")]))
    play(state, "fire Mars port-beam 4", "end-fire")
    assert state.phase == DEFENCE and state.players[state.current_player()] == "red"
    assert all(isinstance(a, AssignDefence) or state.action_to_text(a) == "end-defence" for a in state.legal_actions())
    assert state.to_json()["fire"][0]["target"] == "Achille"


def test_struck_ships_cannot_be_fired_on_and_shelter_what_is_behind():
    state = position([
        ("Mars", "blue", "second", "b5", "N"),
        ("Wreck", "red", "frigate", "d5", "N"),
        ("Foe", "red", "third", "f5", "N"),
    ])
    state.hits["Wreck"] = 7
    to_fire(state)
    assert state.is_struck("Wreck")
    assert state.fire_target("Mars", bearing("stbd-beam")) == (None, 0)


def test_all_fire_resolves_at_once_and_ships_strike_at_0_0_0():
    state = position([("Naiad", "red", "frigate", "e5", "N"), ("Victory", "blue", "first", "f5", "N")])
    track = state.setup.ships["Naiad"].track
    state.hits["Naiad"] = len(track) - 2  # one hit from striking
    to_fire(state)
    play(state, "fire Victory port-beam 5", "end-fire")
    events = play(state, "end-defence") if state.phase == DEFENCE else []
    assert any(isinstance(e, Struck) and e.piece == "Naiad" for e in events)
    assert state.factors("Naiad") == (0, 0, 0)
    assert state.hits["Naiad"] == len(track) - 1  # hits beyond striking are void


def test_defence_firepower_spent_on_one_bearing_is_gone_for_the_others():
    # Target (F3) is fired on from both beams. Two of her three points go to the starboard beam: only
    # one is left for the port beam, and after that nothing.
    state = to_fire(position([("Victory", "blue", "first", "d5", "N"), ("Ville", "blue", "first", "f5", "N"),
                              ("Target", "red", "third", "e5", "N")]))
    play(state, "fire Victory stbd-beam 3 at Target", "fire Ville port-beam 3 at Target", "end-fire")
    assert state.phase == DEFENCE
    options = [state.action_to_text(a) for a in state.legal_actions(piece="Target")]
    assert options == [f"defend Target {b} {n}" for b in ("stbd-beam", "port-beam") for n in (1, 2, 3)]
    play(state, "defend Target stbd-beam 2")
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["defend Target port-beam 1", "end-defence"]
    with pytest.raises(IllegalAction) as error:
        play(state, "defend Target port-beam 2")
    assert error.value.rule == "firepower-total" and "only 1 firepower left" in error.value.message
    play(state, "defend Target port-beam 1")
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["end-defence"]
    events = play(state, "end-defence")
    assert sorted((e.bearing, e.hits) for e in events if isinstance(e, Hit)) == [("port-beam", 2), ("stbd-beam", 1)]
    assert not any(isinstance(e, Struck) for e in events) and state.is_active("Target")


def test_fire_assigned_off_one_bearing_leaves_the_others_open():
    # Victory has the frigate Naiad ahead and the third rater Foe abeam; firing fore first still
    # leaves her starboard broadside to give.
    state = to_fire(position([("Victory", "blue", "first", "e5", "N"), ("Naiad", "red", "frigate", "e7", "S"),
                              ("Foe", "red", "third", "f5", "N")]))
    play(state, "fire Victory fore 2 at Naiad")
    options = [state.action_to_text(a) for a in state.legal_actions(piece="Victory")]
    assert options == ["fire Victory stbd-beam 1 at Foe", "fire Victory stbd-beam 2 at Foe",
                       "fire Victory stbd-beam 3 at Foe"]


def test_hits_beyond_0_0_0_are_void_a_ship_struck_by_one_bearing_takes_nothing_from_the_next():
    # Target has taken six hits: the port-beam fire strikes her, the starboard-beam fire is void.
    state = to_fire(position([("Victory", "blue", "first", "d5", "N"), ("Ville", "blue", "first", "f5", "N"),
                              ("Target", "red", "third", "e5", "N")]))
    state.hits["Target"] = 6
    play(state, "fire Victory stbd-beam 2 at Target", "fire Ville port-beam 3 at Target", "end-fire")
    events = play(state, "end-defence")
    assert [(e.piece, e.hits, e.bearing) for e in events if isinstance(e, Hit)] == [("Target", 1, "stbd-beam")]
    assert [e for e in events if isinstance(e, Struck)] == [Struck("Target", "e5")]
