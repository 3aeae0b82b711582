"""Damage, striking, batteries, merchants, exits, squadrons and the end of the game
(seed 000: "Damage Chart", "Shore Batteries", "Transports and Merchant Ships", scenarios note;
decisions: damage, ships, victory)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Escaped, GameOver, Hit, Silenced, Struck
from quarterdeck.core.protocol import Resign
from quarterdeck.games.square_rigger.damage import damage_track

from .helpers import play, position

PUBLISHED_TRACKS = {
    "first": [(5, 1, 1), (4, 1, 1), (3, 1, 1), (2, 1, 1), (1, 1, 1), (0, 1, 1), (0, 0, 1), (0, 0, 0)],
    "second": [(4, 1, 2), (3, 1, 2), (2, 1, 2), (1, 1, 2), (1, 1, 1), (0, 1, 1), (0, 0, 1), (0, 0, 0)],
    "third": [(3, 2, 2), (2, 2, 2), (1, 2, 2), (1, 1, 2), (1, 1, 1), (0, 1, 1), (0, 0, 1), (0, 0, 0)],
    "frigate": [(2, 2, 3), (2, 2, 2), (1, 2, 2), (1, 1, 2), (1, 1, 1), (0, 1, 1), (0, 0, 1), (0, 0, 0)],
}


@pytest.mark.parametrize("ship_class", PUBLISHED_TRACKS)
def test_damage_chart_each_hit_lowers_the_largest_factor_f_then_s_then_t(ship_class):
    start = PUBLISHED_TRACKS[ship_class][0]
    assert list(damage_track(start)) == PUBLISHED_TRACKS[ship_class]


@pytest.mark.parametrize("ship_class", PUBLISHED_TRACKS)
def test_damage_chart_every_warship_strikes_on_its_seventh_hit(ship_class):
    state = position([("Victory", "blue", "first", "d4", "N"), ("Target", "red", ship_class, "e4", "N")])
    for hits, factors in enumerate(PUBLISHED_TRACKS[ship_class]):
        state.hits["Target"] = hits
        assert state.factors("Target") == factors
        assert state.is_struck("Target") == (hits == 7)
    # Through play: with six hits she still fights (F0 S0 T1, nothing to defend with); one more
    # hit off Victory's starboard beam strikes her colours.
    state.hits["Target"] = 6
    events = play(state, "end-move", "fire Victory stbd-beam 1 at Target", "end-fire", "end-defence")
    assert [(e.piece, e.hits) for e in events if isinstance(e, Hit)] == [("Target", 1)]
    assert Struck("Target", "e4") in events and state.is_struck("Target")


def test_a_scenario_may_give_a_class_its_own_damage_track():
    custom = [[3, 2, 2], [3, 1, 2], [3, 1, 1], [2, 1, 1], [1, 1, 1], [0, 1, 1], [0, 0, 1], [0, 0, 0]]
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")],
                     tracks={"third": custom})
    state.hits["Bellona"] = 1
    assert state.factors("Bellona") == (3, 1, 2)


def test_struck_ship_cannot_fire_or_defend():
    state = position([("Hulk", "blue", "third", "e5", "N"), ("Mars", "blue", "second", "a1", "N"),
                      ("Foe", "red", "third", "f5", "N")])
    state.hits["Hulk"] = 7
    play(state, "end-move")
    assert state.legal_actions(piece="Hulk") == []
    assert not state.is_active("Hulk")


def test_shore_batteries_fire_only_along_their_field_of_fire():
    board = "\n".join([".........."] * 9 + ["####......"])
    battery = {"name": "Fort", "side": "blue", "at": "b1", "F": 4, "field": ["N"]}
    state = position([("Foe", "red", "third", "b4", "E"), ("Other", "red", "third", "e4", "E"),
                      ("Frig", "blue", "frigate", "h8", "N")], board=board, batteries=[battery])
    play(state, "end-move")
    fire = [state.action_to_text(a) for a in state.legal_actions(piece="Fort")]
    assert fire and all(text.startswith("fire Fort N ") for text in fire)
    assert "fire Fort N 4 at Foe" in fire  # 3 squares: 4 has effect 2
    assert state.cap("Fort", 1) == 0  # NE is outside the field


def test_shore_batteries_defend_only_along_their_field_of_fire():
    # Fire arrives at the fort from the north-east, outside its field (N): it cannot defend.
    board = "\n".join([".........."] * 9 + ["####......"])
    battery = {"name": "Fort", "side": "red", "at": "b1", "F": 2, "field": ["N"]}
    state = position([("Victory", "blue", "first", "c2", "N"), ("Foe", "red", "frigate", "j10", "S")],
                     board=board, batteries=[battery])
    play(state, "end-move", "fire Victory port-quarter 4 at Fort", "end-fire")
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["end-defence"]
    events = play(state, "end-defence")
    assert any(isinstance(e, Silenced) for e in events)


def test_shore_battery_takes_hits_on_f_and_is_silenced():
    board = "\n".join([".........."] * 9 + ["####......"])
    battery = {"name": "Fort", "side": "red", "at": "b1", "F": 2, "field": ["N"]}
    state = position([("Victory", "blue", "first", "b2", "E"), ("Foe", "red", "frigate", "j10", "S")],
                     board=board, batteries=[battery])
    play(state, "end-move", "fire Victory stbd-beam 5 at Fort", "end-fire")
    play(state, "defend Fort N 2")
    events = play(state, "end-defence")
    # 5 - 2 = 3 hits arrive; the two that bring F2 to 0 count, the third is void.
    assert [e.hits for e in events if isinstance(e, Hit)] == [2]
    assert any(isinstance(e, Silenced) for e in events)
    assert state.factors("Fort") == (0, 0, 0) and not state.is_active("Fort")


def test_merchant_ships_have_defensive_firepower_only():
    state = position([("Trader", "blue", "third", "e5", "N", {"role": "merchant"}),
                      ("Foe", "red", "third", "f5", "N")])
    play(state, "end-move")
    assert state.side_name == "red"  # the merchant had nothing she could fire with
    with pytest.raises(IllegalAction):
        play(state, "fire Trader stbd-beam 3")
    play(state, "end-move", "fire Foe port-beam 3", "end-fire")
    assert [state.action_to_text(a) for a in state.legal_actions()][:3] == [
        "defend Trader stbd-beam 1", "defend Trader stbd-beam 2", "defend Trader stbd-beam 3"]


def test_exit_edges_a_ship_escapes_only_where_the_scenario_allows():
    state = position([("Runner", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Stay", "blue", "frigate", "a5", "W"), ("Foe", "red", "third", "a10", "S")], wind="W")
    assert [state.action_to_text(a) for a in state.legal_actions(piece="Runner") if "escape" in str(a).lower()
            or state.action_to_text(a).startswith("escape")] == ["escape Runner E"]
    assert not any(state.action_to_text(a).startswith("escape") for a in state.legal_actions(piece="Stay"))
    with pytest.raises(IllegalAction) as error:
        play(state, "escape Stay W")
    assert error.value.rule == "exit-edges"
    events = play(state, "escape Runner E")
    assert isinstance(events[0], Escaped) and "Runner" in state.escaped
    assert (9, 4) not in state.occupant
    assert state.to_json()["moved"] == ["Runner"]  # leaving was her move of the turn


@pytest.mark.parametrize(("at", "heading", "wind", "edge"), [
    ("j5", "E", "W", "E"),  # out by the east edge halfway up: not over the north or south edge
    ("a1", "W", "SW", "W"),  # out by the west edge on the first rank (the corner is into the wind)
    ("e1", "S", "N", "S"),  # out by the south edge, whichever way she turns first
])
def test_exit_edges_a_ship_is_offered_only_the_edge_she_crosses(at, heading, wind, edge):
    exits = {"exits": ["N", "E", "S", "W"]}
    state = position([("Runner", "blue", "first", at, heading, exits), ("Foe", "red", "third", "e5", "S")],
                     wind=wind)
    escapes = [state.action_to_text(a) for a in state.legal_actions(piece="Runner")
               if state.action_to_text(a).startswith("escape")]
    assert escapes == [f"escape Runner {edge}"]
    assert play(state, f"escape Runner {edge}")[0] == Escaped("Runner", at, edge)


def test_exit_edges_a_ship_leaving_by_a_corner_may_name_either_edge_it_crosses():
    # A first rate (S1 T1) at j10 heading NE, close-hauled in a northerly: she crosses the north and
    # the east edge at once, and both are exits. Heading N she makes no way and NW is two turns off,
    # so only the corner takes her out to the north.
    state = position([("Runner", "blue", "first", "j10", "NE", {"exits": ["N", "E"]}),
                      ("Foe", "red", "third", "a1", "S")], wind="N")
    escapes = [state.action_to_text(a) for a in state.legal_actions(piece="Runner")
               if state.action_to_text(a).startswith("escape")]
    assert escapes == ["escape Runner E", "escape Runner N"]
    offered = state.legal_actions()
    assert len(set(offered)) == len(offered)  # each edge offered once, though many courses reach it
    events = play(state, "escape Runner N")
    assert events[0] == Escaped("Runner", "j10", "N") and "Runner" in state.escaped


def test_exit_edges_a_corner_crossing_counts_only_the_edges_that_are_exits():
    state = position([("Runner", "blue", "first", "j10", "NE", {"exits": ["N"]}),
                      ("Foe", "red", "third", "a1", "S")], wind="N")
    assert [state.action_to_text(a) for a in state.legal_actions(piece="Runner")
            if state.action_to_text(a).startswith("escape")] == ["escape Runner N"]
    with pytest.raises(IllegalAction) as error:
        play(state, "escape Runner E")
    assert error.value.rule == "exit-edges"


def test_escapes_count_for_victory():
    # Her escort has no exit of her own: the condition counts the ships that may leave.
    state = position([("Runner", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Escort", "blue", "third", "a1", "N"), ("Foe", "red", "third", "a10", "S")], wind="W",
                     victory=[{"type": "escape", "side": "blue", "count": 1},
                              {"type": "annihilation", "side": "red"}])
    play(state, "escape Runner E", "end-move")
    assert state.outcome is not None and state.outcome.result == "blue"


def test_escape_conditions_count_only_the_ships_they_name():
    # Blue must get a merchantman away; her escorting frigate leaving does not count.
    state = position([("Escort", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Trader", "blue", "third", "a1", "E", {"role": "merchant", "exits": ["E"]}),
                      ("Foe", "red", "third", "a10", "S")], wind="W",
                     victory=[{"type": "escape", "side": "blue", "count": 1, "roles": ["merchant"]},
                              {"type": "annihilation", "side": "red"}])
    play(state, "escape Escort E", "end-move")
    assert state.outcome is None


@pytest.mark.parametrize(("struck", "other", "result"), [("frigate", "second", None), ("second", "frigate", "blue")])
def test_strike_conditions_count_only_the_classes_they_name(struck, other, result):
    # Blue must strike a second rater: striking red's frigate does not win, striking the second rater does.
    state = position([("Victory", "blue", "first", "e5", "N"), ("Target", "red", struck, "f5", "N"),
                      ("Other", "red", other, "a10", "S")],
                     victory=[{"type": "strike", "side": "blue", "count": 1, "classes": ["second"]},
                              {"type": "annihilation", "side": "red"}])
    state.hits["Target"] = 6
    play(state, "end-move", "fire Victory stbd-beam 1 at Target", "end-fire", "end-defence")
    assert state.is_struck("Target")
    assert (state.outcome.result if state.outcome else None) == result


def test_both_sides_meeting_their_conditions_together_is_a_draw():
    # Red has already struck blue's Lost (red needs one); blue now strikes red's last warship.
    state = position([("Victory", "blue", "first", "e5", "N"), ("Lost", "blue", "frigate", "a1", "N"),
                      ("Naiad", "red", "frigate", "f5", "N")],
                     victory=[{"type": "annihilation", "side": "blue"},
                              {"type": "strike", "side": "red", "count": 1}])
    state.hits["Lost"] = 7
    state.hits["Naiad"] = 6
    play(state, "end-move", "fire Victory stbd-beam 1 at Naiad", "end-fire", "end-defence")
    assert (state.outcome.result, state.outcome.reason) == ("draw", "both sides met their victory conditions together")
    assert state.returns() == [0.0, 0.0]


def test_squadrons_each_commander_moves_and_fires_in_turn_and_spacing_holds_for_the_side():
    state = position([("Van1", "blue", "third", "c3", "N", {"squadron": "van"}),
                      ("Rear1", "blue", "third", "g3", "N", {"squadron": "rear"}),
                      ("Foe", "red", "third", "j10", "S")], wind="S",
                     squadrons=[{"side": "blue", "name": "van"}, {"side": "blue", "name": "rear"}])
    assert state.players == ("blue.van", "blue.rear", "red")
    assert state.players[state.current_player()] == "blue.van"
    with pytest.raises(IllegalAction) as error:
        play(state, "move Rear1 g4 N")
    assert error.value.rule == "squadron-command"
    play(state, "move Van1 d4 NE", "end-move")
    assert state.players[state.current_player()] == "blue.rear"
    with pytest.raises(IllegalAction) as error:
        play(state, "move Rear1 e5 NW")  # would touch Van1, which has committed
    assert error.value.rule == "non-adjacency"
    play(state, "end-move")
    assert state.players[state.current_player()] == "red"


def test_fleet_victory_all_enemy_warships_struck():
    state = position([("Victory", "blue", "first", "e5", "N"), ("Naiad", "red", "frigate", "f5", "N")])
    state.hits["Naiad"] = 6
    play(state, "end-move", "fire Victory stbd-beam 5", "end-fire")
    play(state, "end-defence")
    assert state.outcome.result == "blue" and state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == [] and state.legal_actions(piece="Victory") == []  # nothing left to decide


def test_turn_limit_decides_on_points_of_struck_enemies():
    state = position([("Victory", "blue", "first", "b2", "N"), ("Naiad", "red", "frigate", "f5", "N"),
                      ("Phoebe", "red", "frigate", "j10", "S")], turn_limit=1)
    state.hits["Naiad"] = 7
    play(state, "end-move", "end-move")
    assert state.outcome.result == "blue" and "points" in state.outcome.reason


def test_resignation_ends_the_game():
    state = position([("Victory", "blue", "first", "b2", "N"), ("Naiad", "red", "frigate", "f5", "N")])
    state.apply(Resign(0))
    assert state.outcome.result == "red" and "resigned" in state.outcome.reason
    with pytest.raises(IllegalAction) as error:
        play(state, "end-move")
    assert error.value.rule == "game-over"


def test_threefold_repetition_is_a_draw():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")])
    for _ in range(2):
        play(state, "end-move", "end-move")
    assert state.outcome.result == "draw" and "three times" in state.outcome.reason


def test_threefold_repetition_can_be_switched_off():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")],
                     options={"repetition_draw": False})
    for _ in range(4):
        play(state, "end-move", "end-move")
    assert state.outcome is None


def test_annihilation_every_armed_enemy_struck_wins_though_unarmed_ones_remain():
    # Red's warship strikes; her merchantman sails on, but a merchant does not keep a side in it.
    state = position([("Victory", "blue", "first", "e5", "N"), ("Naiad", "red", "frigate", "f5", "N"),
                      ("Trader", "red", "third", "j10", "S", {"role": "merchant"})])
    state.hits["Naiad"] = 6
    play(state, "end-move", "fire Victory stbd-beam 1 at Naiad", "end-fire", "end-defence")
    assert state.is_active("Trader")
    assert (state.outcome.result, state.outcome.reason) == ("blue", "blue has met its victory condition")


def test_annihilation_needs_an_armed_enemy_a_side_of_merchants_is_beaten_by_being_alone():
    # Red has only a merchantman: no annihilation to meet, but once she strikes blue is the only
    # side left in the fight, and wins for that.
    state = position([("Victory", "blue", "first", "e5", "N"),
                      ("Trader", "red", "third", "f5", "N", {"role": "merchant"})])
    state.hits["Trader"] = 6
    play(state, "end-move", "fire Victory stbd-beam 1 at Trader", "end-fire", "end-defence")
    assert (state.outcome.result, state.outcome.reason) == ("blue", "blue is the only side left in the fight")
    assert state.returns() == [1.0, -1.0]


def no_side_left(at_limit: str):
    """Blue's last ship sails off while every other piece has struck, and no condition is met."""
    state = position([("Runner", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Sunk", "blue", "frigate", "a1", "N", {"exits": ["W"], "value": 4}),
                      ("Hulk", "red", "third", "e10", "S", {"value": 10})], wind="W", at_limit=at_limit,
                     victory=[{"type": "escape", "side": "blue", "count": 2}])
    state.hits["Sunk"] = state.hits["Hulk"] = 7
    play(state, "escape Runner E", "end-move")
    return state


def test_no_side_left_in_the_fight_ends_the_game_as_at_the_turn_limit():
    state = no_side_left("draw")
    assert (state.outcome.result, state.outcome.reason) == ("draw", "no side has a ship or battery left in the fight")
    state = no_side_left("points")
    assert state.outcome.result == "blue"
    assert state.outcome.reason == "no side has a ship or battery left in the fight; on points (blue 10, red 4)"
    state = no_side_left("red")
    assert state.outcome.result == "red" and state.outcome.reason.endswith("the scenario awards it to red")


def test_turn_limit_points_add_up_every_struck_enemy_at_its_value():
    # Blue struck two red ships worth 5 and 3; red struck one blue ship worth 7: blue wins 8 to 7.
    ships = [("Victory", "blue", "first", "a1", "N"), ("Lost", "blue", "frigate", "c1", "N", {"value": 7}),
             ("Naiad", "red", "frigate", "j10", "S", {"value": 5}),
             ("Phoebe", "red", "frigate", "h10", "S", {"value": 3}), ("Mars", "red", "second", "e10", "S")]
    state = position(ships, turn_limit=1)
    state.hits["Naiad"] = state.hits["Phoebe"] = state.hits["Lost"] = 7
    play(state, "end-move", "end-move")
    assert state.outcome.result == "blue"
    assert state.outcome.reason == "the turn limit (1) is reached; on points (blue 8, red 7)"
    # A ship's value defaults to F + S + T: the second rater counts 4 + 1 + 2.
    state = position(ships, turn_limit=1)
    state.hits["Mars"] = state.hits["Lost"] = 7
    play(state, "end-move", "end-move")
    assert state.outcome.result == "draw"
    assert state.outcome.reason == "the turn limit (1) is reached; points level (blue 7, red 7)"


def test_turn_limit_points_count_a_silenced_battery_at_its_f():
    # Red's fort (F4) is silenced, blue's frigate (F2 S2 T3: 7) struck: red wins 7 to 4; a fort of
    # F8 would have turned it.
    board = "\n".join([".........."] * 9 + ["####......"])
    for fort, result, reason in ((4, "red", "on points (blue 4, red 7)"), (8, "blue", "on points (blue 8, red 7)")):
        battery = {"name": "Fort", "side": "red", "at": "b1", "F": fort, "field": ["N"]}
        state = position([("Lost", "blue", "frigate", "c2", "N"), ("Victory", "blue", "first", "j2", "N"),
                          ("Foe", "red", "frigate", "j10", "S")], board=board, batteries=[battery], turn_limit=1)
        state.hits["Fort"], state.hits["Lost"] = fort, 7
        play(state, "end-move", "end-move")
        assert (state.outcome.result, state.outcome.reason) == (result, f"the turn limit (1) is reached; {reason}")


def test_exit_edges_crossing_the_north_edge_on_the_a_file_is_not_leaving_by_the_west():
    # A first rate (T1) on a10 heading N in a north-westerly: N and NE take her over the north edge
    # only, and NW is into the wind's eye. Her only exit is west, so she cannot leave this turn.
    state = position([("Runner", "blue", "first", "a10", "N", {"exits": ["W"]}),
                      ("Foe", "red", "third", "j1", "S")], wind="NW")
    assert not [a for a in state.legal_actions(piece="Runner") if state.action_to_text(a).startswith("escape")]
    with pytest.raises(IllegalAction) as error:
        play(state, "escape Runner W")
    assert error.value.rule == "movement"


def test_exit_edges_a_ship_may_leave_by_the_west_edge():
    state = position([("Runner", "blue", "frigate", "a5", "W", {"exits": ["W"]}),
                      ("Foe", "red", "third", "j10", "S")], wind="E")
    assert "escape Runner W" in [state.action_to_text(a) for a in state.legal_actions(piece="Runner")]
    events = play(state, "escape Runner W")
    assert events[0] == Escaped("Runner", "a5", "W")
    assert (0, 4) not in state.occupant and "Runner" in state.escaped and not state.is_active("Runner")


def test_squadrons_only_the_squadron_fired_on_defends():
    state = position([("Victory", "blue", "first", "e5", "N"),
                      ("Target", "red", "third", "f5", "N", {"squadron": "van"}),
                      ("Rear1", "red", "third", "a10", "S", {"squadron": "rear"})],
                     squadrons=[{"side": "red", "name": "van"}, {"side": "red", "name": "rear"}])
    play(state, "end-move", "fire Victory stbd-beam 3 at Target", "end-fire")
    assert (state.phase, state.players[state.current_player()]) == ("defence", "red.van")
    play(state, "end-defence")
    assert (state.phase, state.side_name, state.players[state.current_player()]) == ("move", "red", "red.van")


def test_squadrons_each_squadron_fired_on_defends_in_turn():
    state = position([("Victory", "blue", "first", "e5", "N"),
                      ("Target", "red", "third", "f5", "N", {"squadron": "van"}),
                      ("Rear1", "red", "third", "d5", "N", {"squadron": "rear"})],
                     squadrons=[{"side": "red", "name": "van"}, {"side": "red", "name": "rear"}])
    play(state, "end-move", "fire Victory stbd-beam 3 at Target", "fire Victory port-beam 2 at Rear1", "end-fire")
    assert (state.phase, state.players[state.current_player()]) == ("defence", "red.van")
    assert [state.action_to_text(a) for a in state.legal_actions()][-1] == "end-defence"
    assert {a.piece for a in state.legal_actions() if hasattr(a, "piece")} == {"Target"}
    play(state, "end-defence")
    assert (state.phase, state.players[state.current_player()]) == ("defence", "red.rear")
    assert {a.piece for a in state.legal_actions() if hasattr(a, "piece")} == {"Rear1"}
    events = play(state, "end-defence")
    assert sorted((e.piece, e.hits) for e in events if isinstance(e, Hit)) == [("Rear1", 2), ("Target", 3)]
    assert (state.phase, state.side_name) == ("move", "red")


def test_the_game_ends_when_no_side_has_anything_left_that_can_move_or_fire():
    # Blue's last ship afloat sails off; only the two forts remain, with nothing in their fields of
    # fire, and neither side has met its conditions: red cannot move or fire, nor can blue after.
    board = "\n".join([".........."] * 9 + ["####....##"])
    forts = [{"name": "Fort", "side": "red", "at": "b1", "F": 3, "field": ["N"]},
             {"name": "Fort2", "side": "blue", "at": "j1", "F": 3, "field": ["N"]}]
    state = position([("Runner", "blue", "frigate", "a5", "E", {"exits": ["E"]}),
                      ("Other", "blue", "frigate", "j5", "E", {"exits": ["E"]})],
                     board=board, wind="W", at_limit="draw", batteries=forts,
                     victory=[{"type": "escape", "side": "blue", "count": 2},
                              {"type": "strike", "side": "red", "count": 2}])
    state.hits["Runner"] = 7
    events = play(state, "escape Other E", "end-move")
    assert events[-1] == GameOver("draw", "no side has anything left that can move or fire")
    assert state.returns() == [0.0, 0.0]
