"""Movement, wind and non-adjacency (seed 000: "Speed and Turn", the 3rd Rater chart, "Wind Chart",
"The Non-Adjacency Rule"; decisions: movement, wind, non-adjacency)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.geometry import Compass
from quarterdeck.games.square_rigger.actions import MoveShip
from quarterdeck.games.square_rigger.turn import MOVE

from .helpers import ends, play, position


def brute_force_ends(start: tuple[int, int], heading: int, speed: int, turning: int, turns=(1, -1)):
    """Every end position from every order of up to `speed` steps and `turning` turns (open sea)."""
    results = set()

    def walk(square, facing, s, t):
        results.add((square, facing))
        if s:
            dx, dy = Compass(facing).delta
            walk((square[0] + dx, square[1] + dy), facing, s - 1, t)
        if t:
            for turn in turns:
                walk(square, (facing + turn) % 8, s, t - 1)

    walk(start, heading, speed, turning)
    return results


def test_ship_classes_have_the_books_factors():
    state = position([
        ("One", "blue", "first", "b2", "N"), ("Two", "blue", "second", "d2", "N"),
        ("Three", "blue", "third", "f2", "N"), ("Frig", "blue", "frigate", "h2", "N"),
        ("Foe", "red", "third", "e9", "S"),
    ])
    assert [state.factors(n) for n in ("One", "Two", "Three", "Frig")] == [(5, 1, 1), (4, 1, 2), (3, 2, 2), (2, 2, 3)]


def test_third_rater_s2_t2_manoeuvres_with_starboard_turns_cover_the_books_nine_squares():
    # The book's chart: from square 1 heading up, a 3rd Rater using S2 T2 with starboard turns ends
    # on the 3 x 3 block of squares ahead and to starboard.
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    starboard = brute_force_ends((3, 3), 0, 2, 2, turns=(1,))
    assert {sq for sq, _ in starboard} == {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)}
    reach, _ = state.reachable("Bellona")
    assert {(sq, int(h)) for sq, h in reach} >= starboard


def test_third_rater_s2_t2_manoeuvres_match_brute_force_in_both_directions():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    reach, _ = state.reachable("Bellona")
    assert {(sq, int(h)) for sq, h in reach} == brute_force_ends((3, 3), 0, 2, 2)
    assert ("e5", "NE") in ends(state, "Bellona")  # turn, then one point along the new heading
    assert ("d6", "N") in ends(state, "Bellona")
    assert ("f4", "E") in ends(state, "Bellona")  # two turns first, then two points


def test_move_and_turn_points_may_be_spent_in_any_order():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    # move, turn, move: d5 then e6 heading NE, reachable only by interleaving.
    assert ("e6", "NE") in ends(state, "Bellona")


def test_a_ship_may_stay_where_it_is_and_unused_points_are_lost():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    play(state, "end-move")
    assert state.square["Bellona"] == (3, 3)
    assert state.side_name == "red"


def test_blocked_squares_land_and_ships_of_either_side_cannot_be_entered_or_passed():
    board = "\n".join([".........."] * 5 + ["...#......"] + [".........."] * 4)
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "e5", "S")],
                     board=board, wind="S")  # land on d5 (row 6 from top is rank 5)
    assert state.setup.terrain_at((3, 4)) == "#"
    squares = {sq for sq, _ in ends(state, "Bellona")}
    assert "d5" not in squares and "d6" not in squares  # land ahead blocks the way on
    assert "e5" not in squares  # a ship, enemy or not, blocks its square


def test_a_diagonal_step_between_two_occupied_squares_is_allowed():
    state = position([
        ("Bellona", "blue", "third", "d4", "NE"),
        ("Foe1", "red", "third", "e4", "S"),
        ("Foe2", "red", "third", "d6", "S"),
    ], wind="S")
    assert ("e5", "NE") in ends(state, "Bellona")


def test_moderate_wind_no_move_point_spent_heading_into_the_wind():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="N")
    squares = {sq for sq, h in ends(state, "Bellona")}
    assert "d5" not in squares and "d6" not in squares
    # She may turn through the wind and make way close-hauled: tacking.
    assert ("e5", "NE") in ends(state, "Bellona") and ("c5", "NW") in ends(state, "Bellona")


def test_strong_wind_twice_as_far_dead_downwind():
    state = position([("Bellona", "blue", "third", "d2", "N"), ("Foe", "red", "third", "j10", "S")],
                     wind="S", strength="strong")
    assert ("d6", "N") in ends(state, "Bellona")
    assert ("d5", "N") not in ends(state, "Bellona")  # a point carries her two squares, not one
    assert state.squares_per_point(Compass.NE) == 1


def test_strong_wind_both_squares_must_be_free():
    state = position([("Bellona", "blue", "third", "d2", "N"), ("Foe", "red", "third", "d4", "S")],
                     wind="S", strength="strong")
    assert not any(sq in ("d3", "d4", "d5", "d6") for sq, _ in ends(state, "Bellona"))


def test_strong_wind_from_a_diagonal_direction():
    state = position([("Bellona", "blue", "third", "b2", "NE"), ("Foe", "red", "third", "j10", "S")],
                     wind="SW", strength="strong")
    assert ("f6", "NE") in ends(state, "Bellona")


def test_wind_table_is_data_a_scenario_may_change_it():
    state = position([("Bellona", "blue", "third", "b2", "NE"), ("Foe", "red", "third", "j10", "S")],
                     wind="S", strength="strong")
    assert state.squares_per_point(Compass.NE) == 1
    fast = position([("Bellona", "blue", "third", "b2", "NE"), ("Foe", "red", "third", "j10", "S")],
                    wind={"from": "S", "strength": "strong", "table": {"strong": [0, 1, 1, 2, 2]}})
    assert fast.squares_per_point(Compass.NE) == 2


def test_calm_option_allows_turns_only():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")],
                     options={"calm": True})
    assert {sq for sq, _ in ends(state, "Bellona")} == {"d4"}
    assert {h for _, h in ends(state, "Bellona")} == {"N", "NE", "E", "W", "NW"}


def test_wind_changes_are_scheduled_by_the_scenario():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")],
                     wind={"from": "N", "strength": "moderate",
                           "changes": [{"turn": 2, "from": "E", "strength": "strong"}]})
    events = play(state, "end-move", "end-move")
    assert state.turn == 2 and state.wind_from == Compass.E and state.wind_strength == "strong"
    assert any(e.kind == "wind-changed" for e in events)


def test_non_adjacency_rejects_a_commit_naming_the_two_ships():
    state = position([
        ("Bellona", "blue", "third", "d4", "E"), ("Vanguard", "blue", "third", "f6", "S"),
        ("Orion", "blue", "third", "a1", "N"), ("Foe", "red", "third", "j10", "S"),
    ], wind="N")
    # Ending next to a ship that has not moved yet is allowed for now (she may still sail away)...
    play(state, "move Bellona e5 NE")
    # ...but if she stays, the side cannot commit its movement.
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        play(state, "end-move")
    assert error.value.rule == "non-adjacency"
    assert error.value.message == "Bellona (e5) and Vanguard (f6) would end the move on touching squares"
    assert state.to_json() == before


def test_non_adjacency_a_ship_may_not_end_next_to_one_that_has_moved():
    # Orion, listed between them, has not moved yet; Bellona has, to e4, so Vanguard may not end on
    # f4 beside her, whether chosen from Vanguard's own list or typed.
    state = position([
        ("Vanguard", "blue", "third", "g4", "W"), ("Orion", "blue", "third", "a1", "N"),
        ("Bellona", "blue", "third", "d4", "E"), ("Foe", "red", "third", "j10", "S"),
    ], wind="N")
    play(state, "move Bellona e4 E")
    assert ("f4", "W") in ends(state, "Vanguard")  # she could sail there, were Bellona not beside it
    assert "move Vanguard f4 W" not in [state.action_to_text(a) for a in state.legal_actions(piece="Vanguard")]
    with pytest.raises(IllegalAction) as error:
        play(state, "move Vanguard f4 W")
    assert error.value.rule == "non-adjacency" and "Bellona" in error.value.message


def test_non_adjacency_listed_moves_keep_every_ship_apart():
    state = position([
        ("Bellona", "blue", "third", "d4", "E"), ("Vanguard", "blue", "third", "g4", "W"),
        ("Foe", "red", "third", "j10", "S"),
    ], wind="N")
    for action in state.legal_actions():
        if isinstance(action, MoveShip):
            other = "Vanguard" if action.ship == "Bellona" else "Bellona"
            sq = state.square[other]
            assert max(abs(sq[0] - action.square[0]), abs(sq[1] - action.square[1])) > 1


def test_non_adjacency_a_vacated_square_may_be_entered_by_a_later_ship():
    state = position([
        ("Bellona", "blue", "third", "d4", "E"), ("Vanguard", "blue", "third", "b4", "E"),
        ("Foe", "red", "third", "j10", "S"),
    ], wind="N")
    play(state, "move Bellona f4 E", "move Vanguard d4 E", "end-move")
    assert state.square["Vanguard"] == (3, 3)


def test_non_adjacency_does_not_apply_inside_harbours():
    board = "\n".join([".........."] * 7 + ["HHH......"+"."] + [".........."] * 2)
    state = position([
        ("Bellona", "blue", "third", "a3", "N"), ("Vanguard", "blue", "third", "b3", "N"),
        ("Foe", "red", "third", "j10", "S"),
    ], board=board, wind="S")
    play(state, "end-move")
    assert state.side_name == "red"


def test_non_adjacency_ships_may_lie_next_to_struck_friends_and_enemies():
    state = position([
        ("Bellona", "blue", "third", "d4", "E"), ("Hulk", "blue", "third", "f5", "E"),
        ("Foe", "red", "third", "e6", "S"),
    ], wind="N")
    state.hits["Hulk"] = 7
    # Listed too, in the full list that keeps every active friend apart at every step.
    assert "move Bellona e5 NE" in [state.action_to_text(a) for a in state.legal_actions()]
    play(state, "move Bellona e5 NE", "end-move")  # touching the struck Hulk and the enemy Foe
    assert state.phase == "fire" and state.side_name == "blue"


def test_struck_ships_may_no_longer_move():
    state = position([("Hulk", "blue", "third", "d4", "E"), ("Frig", "blue", "frigate", "a1", "N"),
                      ("Foe", "red", "third", "j10", "S")], wind="S")
    state.hits["Hulk"] = 7
    assert state.legal_actions(piece="Hulk") == []
    with pytest.raises(IllegalAction) as error:
        play(state, "move Hulk e4 E")
    assert error.value.rule == "struck-inert"


def test_each_ship_moves_once_per_turn():
    state = position([("Bellona", "blue", "third", "d4", "E"), ("Foe", "red", "third", "j10", "S")], wind="N")
    play(state, "move Bellona e4 E")
    with pytest.raises(IllegalAction) as error:
        play(state, "move Bellona f4 E")
    assert error.value.rule == "one-move-per-turn"
    assert state.phase == MOVE


def test_unreachable_end_positions_are_refused_with_the_reason():
    state = position([("Bellona", "blue", "third", "d4", "E"), ("Foe", "red", "third", "j10", "S")], wind="N")
    with pytest.raises(IllegalAction) as error:
        play(state, "move Bellona h4 E")
    assert error.value.rule == "movement" and "cannot reach h4" in str(error.value)


def test_strong_wind_the_middle_square_of_a_two_square_point_must_be_free_too():
    # Dead downwind in a strong wind one point carries Bellona d2 -> d4 over d3: an enemy ship or
    # land on d3 stops the run although d4 itself is open water.
    state = position([("Bellona", "blue", "third", "d2", "N"), ("Foe", "red", "third", "d3", "S")],
                     wind="S", strength="strong")
    assert not {("d4", "N"), ("d6", "N")} & ends(state, "Bellona")
    land = "\n".join([".........."] * 7 + ["...#......"] + [".........."] * 2)
    state = position([("Bellona", "blue", "third", "d2", "N"), ("Foe", "red", "third", "j10", "S")],
                     board=land, wind="S", strength="strong")
    assert not {("d4", "N"), ("d6", "N")} & ends(state, "Bellona")
    with pytest.raises(IllegalAction) as error:
        play(state, "move Bellona d4 N")
    assert error.value.rule == "movement"


def test_strong_wind_a_broad_reach_on_either_tack_is_one_square_a_point():
    # Wind from the north: south is dead downwind (two squares a point), south-east and south-west
    # are broad reaches (one), east and west beam reaches (one), north-east and north-west close-hauled.
    state = position([("Bellona", "blue", "third", "e5", "SW"), ("Foe", "red", "third", "j10", "S")],
                     wind="N", strength="strong")
    points = {h.name: state.squares_per_point(h) for h in Compass}
    assert points == {"N": 0, "NE": 1, "E": 1, "SE": 1, "S": 2, "SW": 1, "W": 1, "NW": 1}
    assert ("d4", "SW") in ends(state, "Bellona") and ("c3", "SW") in ends(state, "Bellona")
    # The same round the compass from a westerly: the wind's bearing is counted both ways round.
    state = position([("Bellona", "blue", "third", "e5", "NE"), ("Foe", "red", "third", "j10", "S")],
                     wind="W", strength="strong")
    points = {h.name: state.squares_per_point(h) for h in Compass}
    assert points == {"N": 1, "NE": 1, "E": 2, "SE": 1, "S": 1, "SW": 1, "W": 0, "NW": 1}


def test_non_adjacency_the_harbour_exception_needs_both_squares_in_harbour():
    # Bellona lies in harbour on b3; c4 is open sea beside it, so Vanguard may not end there.
    board = "\n".join([".........."] * 7 + ["HHH......."] + [".........."] * 2)
    state = position([("Bellona", "blue", "third", "b3", "N"), ("Vanguard", "blue", "third", "d5", "SW"),
                      ("Foe", "red", "third", "j10", "S")], board=board, wind="N")
    assert "move Vanguard c4 SW" not in [state.action_to_text(a) for a in state.legal_actions()]
    play(state, "move Vanguard c4 SW")  # Bellona has not moved yet and might still sail off
    with pytest.raises(IllegalAction) as error:
        play(state, "end-move")
    assert error.value.rule == "non-adjacency" and "Bellona" in error.value.message


def test_squadrons_ending_one_squadrons_move_leaves_the_others_free_to_move():
    state = position([("Van1", "blue", "third", "c3", "N", {"squadron": "van"}),
                      ("Rear1", "blue", "third", "f3", "N", {"squadron": "rear"}),
                      ("Rear2", "blue", "third", "h3", "N", {"squadron": "rear"}),
                      ("Foe", "red", "third", "a10", "S")], wind="S",
                     squadrons=[{"side": "blue", "name": "van"}, {"side": "blue", "name": "rear"}])
    play(state, "end-move")  # the van stays where it is
    assert state.players[state.current_player()] == "blue.rear"
    assert state.legal_actions(piece="Rear1") and state.legal_actions(piece="Rear2")
    # Rear2 has not moved: Rear1 may end beside her for now, and Rear2 then sails clear.
    play(state, "move Rear1 g4 NE", "move Rear2 j5 NE", "end-move")
    assert state.square["Rear1"] == (6, 3) and state.square["Rear2"] == (9, 4)
    assert state.side_name == "red"
