"""Seed 003, rule 4 on a continuous table: the moves offered for a ship (sampling.py) hold the ones a
captain would look for: the half turns of a handy ship, the runs that bring the nearest enemy just
inside a range band (rule 9), the end turns that lay a broadside on her (rule 10), and the endings
in contact: boarding (rule 12), securing a prize (optional rule 6), taking a friend in tow
(optional rule 3)."""

from __future__ import annotations

import pytest

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Marked
from quarterdeck.games.naval_warfare.actions import Move

from .helpers import GAME, distant_enemy, position, ship, to_movement


def offered(state, name="Revenge"):
    return [a for a in state.legal_actions() if isinstance(a, Move) and a.ship == name]


def test_a_handy_ship_is_offered_her_half_turns():
    # Revenge turns 90 degrees: 45 either way at the start is offered as well as the limits
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        )
    )
    first = {m.turn1 for m in offered(state)}
    assert {-45, 45, 90} <= first


@pytest.mark.parametrize("felipe_first", [False, True])
def test_the_run_that_brings_the_nearest_enemy_just_inside_long_range(felipe_first):
    # San Martin 20" dead ahead is the nearest enemy (San Felipe, to the west and north, is farther,
    # whichever the scenario lists first): a run of 4.05" leaves her just inside 16"
    enemies = [
        ship("San Martin", "spanish", 30, 10, 270, type="San Martin"),
        ship("San Felipe", "spanish", 5, 35, 270, type="San Martin"),
    ]
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), *enemies[:: -1 if felipe_first else 1]]))
    assert Move("Revenge", 0, 405, 0) in offered(state)


def test_the_end_turns_at_each_limit_are_offered():
    """Rule 4: a turn at the end of the move, up to the turn angle either way (Revenge: 90)."""
    far_off = ship("San Martin", "spanish", 60, 30, 180, type="San Martin")
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), far_off], wind="W"))
    assert {m.turn2 for m in offered(state) if (m.turn1, m.run, m.extra) == (0, 800, "")} == {-90, 0, 90}


def broadside_turn(state, run_end, enemy, side):
    b = plane.bearing(run_end, state.ships[enemy].point)
    return round(plane.signed_turn(90, b + (90 if side == "port" else -90)))


def test_an_end_turn_lays_the_port_broadside_on_an_enemy_to_the_north_east():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 30, 16, 270, type="San Martin")]
        )
    )
    turn = broadside_turn(state, (1800, 1000), "San Martin", "port")
    assert 0 < turn < 90  # not one of the limits: offered because it lays the broadside
    assert Move("Revenge", 0, 800, turn) in offered(state)


def test_an_end_turn_lays_the_starboard_broadside_on_an_enemy_to_the_south_east():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 30, 4, 270, type="San Martin")],
            wind="S",
        )
    )
    turn = broadside_turn(state, (1800, 1000), "San Martin", "starboard")
    assert -90 < turn < 0
    assert Move("Revenge", 0, 800, turn) in offered(state)


def alongside(other, options=None):
    """Revenge heading east with `other` 1" ahead and 0.3" to port: a 1" run ends in contact."""
    return to_movement(
        position(
            [
                ship("Revenge", "english", 10, 10, 90),
                other,
                ship("San Felipe", "spanish", 60, 30, 270, type="San Martin"),
            ],
            options=options,
        )
    )


@pytest.mark.parametrize(("off", "contact"), [(0.3, True), (0.35, True), (0.36, False)])
def test_a_run_ending_alongside_an_enemy_offers_boarding(off, contact):
    """Rule 12 (rulings: in contact = hulls within 0.1"): 0.05", exactly 0.1" or 0.11" apart, beam to beam."""
    state = alongside(ship("San Martin", "spanish", 11, 10 + off, 90, type="San Martin"))
    assert (Move("Revenge", 0, 100, 0, "board", "San Martin") in offered(state)) == contact


def test_a_run_ending_alongside_a_surrendered_enemy_offers_securing_her():
    state = alongside(ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"), {"prizes": True})
    state.ships["San Martin"].status = "surrendered"
    moves = offered(state)
    assert Move("Revenge", 0, 100, 0, "secure", "San Martin") in moves
    assert not any(m.extra == "board" for m in moves)


def test_towing_is_offered_alongside_a_friend_only_with_the_towing_rule():
    # Hope lies on Revenge's port quarter: a 1" run ends at her bow, in contact
    friend = ship("Hope", "english", 10.3, 10.3, 90, type="Hope")
    assert Move("Revenge", 0, 100, 0, "tow", "Hope") in offered(alongside(friend, {"towing": True}))
    assert not any(m.extra in ("tow", "board") for m in offered(alongside(friend)))


def test_an_end_turn_lays_the_bow_guns_on_the_enemy():
    """San Martin's odd long battery points ahead (rulings, "Disposition"): the end turn that lays
    her keel line on the enemy to the north-east is offered (rule 10's fore and aft fire)."""
    state = to_movement(
        position(
            [ship("San Martin", "english", 10, 10, 90, type="San Martin"), ship("Revenge", "spanish", 30, 16, 270)]
        )
    )
    bearing = plane.bearing((1600, 1000), state.ships["Revenge"].point)
    turn = round(plane.signed_turn(90, bearing))
    assert -45 < turn < 0  # not a limit: offered because it lays the bow guns
    assert Move("San Martin", 0, 600, turn) in offered(state, "San Martin")


def test_an_end_turn_lays_the_stern_guns_on_an_enemy_astern():
    """A battery pointing astern (rulings, "Disposition") bears along the keel line astern (rule 10):
    after her run, the end turn that lays San Martin's stern on Revenge, to the west-south-west, is
    offered."""
    state = to_movement(
        position(
            [
                ship("San Martin", "english", 10, 10, 90, type="San Martin", astern={"long": 1}),
                ship("Revenge", "spanish", 2, 4, 270),
            ]
        )
    )
    bearing = plane.bearing((1600, 1000), state.ships["Revenge"].point)
    turn = round(plane.signed_turn(90, bearing + 180))
    assert -45 < turn < 0  # not a limit: offered because it lays the stern guns
    assert Move("San Martin", 0, 600, turn) in offered(state, "San Martin")


def test_an_end_turn_lays_the_broadside_after_a_start_turn_through_north():
    """Revenge heading 330 turns 45 degrees to run north-north-east (15 degrees): the end turn that
    lays her port broadside on San Martin is measured from that run."""
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 330), ship("San Martin", "spanish", 2, 20, 270, type="San Martin")],
            wind="S",
        )
    )
    end = plane.advance((1000, 1000), 15, 800)
    turn = round(plane.signed_turn(15, plane.bearing(end, state.ships["San Martin"].point) + 90))
    assert 0 < abs(turn) < 45
    assert Move("Revenge", 45, 800, turn) in offered(state)


def in_a_calm(options=None):
    """Revenge in the second move of a calm, the enemy far off."""
    state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], strength="calm", options=options)
    state.calm_moves = 1
    return to_movement(state)


def test_in_a_calm_the_half_turns_are_offered_as_well_as_the_limits():
    """Rule 2: in a calm a ship may make one 45-degree turn: 22 and 23 degrees are offered too."""
    assert {m.turn1 for m in offered(in_a_calm())} == {-45, -23, 0, 22, 45}


def test_boats_are_offered_ahead_and_at_each_turn_limit_and_to_lie_still():
    """Optional rule 1: after the first move of a calm her boats may tow her one drift move."""
    boats = [m for m in offered(in_a_calm({"boats": True})) if m.extra == "boats"]
    assert boats == [
        Move("Revenge", 0, 100, 0, "boats"),
        Move("Revenge", -90, 100, 0, "boats"),
        Move("Revenge", 90, 100, 0, "boats"),
        Move("Revenge", 0, 0, 0, "boats"),
    ]


def test_heaving_to_is_offered_under_sail():
    """Rule 6: a ship may heave to, announced with her move."""
    moves = offered(to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])))
    heave = [m for m in moves if m.extra == "heave-to"]
    assert len(heave) == 1 and Move("Revenge", heave[0].turn1, heave[0].run, heave[0].turn2) in moves


def test_in_light_airs_lying_still_is_offered():
    """Rule 2: light airs carry no must-move: she may stay where she is, and no part run is offered."""
    moves = offered(
        to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], strength="light airs"))
    )
    assert Move("Revenge", 0, 0, 0) in moves
    assert {m.run for m in moves} == {0, 50, 100}


def test_the_full_the_least_and_the_half_way_run_are_offered():
    """Rule 2 in medium winds: Revenge runs 1 to 8 inches; 4.50 is half way."""
    runs = {m.run for m in offered(to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])))}
    assert {100, 450, 800} <= runs


def test_a_start_turn_that_points_at_the_nearest_enemy_is_offered():
    # San Martin bears 63 degrees from Revenge (heading 90): a start turn of -27 points at her
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 20, 15, 180, type="San Martin")]
        )
    )
    turn = round(plane.signed_turn(90, plane.bearing((1000, 1000), (2000, 1500))))
    assert turn == -27 and turn in {m.turn1 for m in offered(state)}


def test_no_move_offered_ends_closer_to_the_wind_than_permitted_while_others_do_not():
    """Rule 7: a ship that ends her move closer to the wind than permitted is in irons; while she has
    other moves the sample never offers such an end (here nothing ends within 45 degrees of north)."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    finals = {(90 + m.turn1 + m.turn2) % 360 for m in offered(state) if not m.extra}
    assert finals and all(plane.angle_off(h, 0) >= 45 for h in finals)


@pytest.mark.parametrize(
    ("heading", "wind", "martin_at", "run"),
    [(0, "E", (10, 30), 405), (90, "N", (30, 15), 485)],
)
def test_the_run_that_brings_an_enemy_just_inside_long_range_on_any_course(heading, wind, martin_at, run):
    """Rule 9's 16-inch band: sailing north with San Martin 20" ahead, or east with her 20" on and 5"
    off the track, the run that leaves her just inside 16" is offered."""
    ships = [
        ship("Revenge", "english", 10, 10, heading),
        ship("San Martin", "spanish", *martin_at, 180, type="San Martin"),
    ]
    state = to_movement(position(ships, wind=wind))
    assert Move("Revenge", 0, run, 0) in offered(state)


def test_the_first_turn_and_the_runs_aim_at_the_enemy_nearest_by_distance():
    """Rule 4 with rule 9's bands: San Martin, 11.2" to the north-east, is nearer than San Felipe, 35"
    off low on the table: the start turn that heads for her (-27) and the run that leaves her just
    inside 8" (3.81") are offered, and no start turn heads for San Felipe."""
    state = to_movement(
        position(
            [
                ship("Revenge", "english", 10, 20, 90),
                ship("San Martin", "spanish", 20, 25, 270, type="San Martin"),
                ship("San Felipe", "spanish", 40, 2, 270, type="San Martin"),
            ]
        )
    )
    moves = offered(state)
    # the limits and half turns of a handy ship, and the turn for San Martin; 90 to port is into the wind
    assert {m.turn1 for m in moves} == {-45, -27, 0, 45, 90}
    assert Move("Revenge", 0, 381, 0) in moves


def test_the_end_turn_lays_the_broadside_on_the_enemy_nearest_where_the_run_ends():
    """Rule 10: after a full run east San Felipe lies 4.5" off to the south-east and San Martin, nearer
    where Revenge started, 10.8" astern to port: the end turn offered lays the starboard broadside on
    San Felipe (-27), beside the limits (+90 would point her into the south wind)."""
    state = to_movement(
        position(
            [
                ship("Revenge", "english", 10, 10, 90),
                ship("San Martin", "spanish", 8, 14, 270, type="San Martin"),
                ship("San Felipe", "spanish", 20, 6, 270, type="San Martin"),
            ],
            wind="S",
        )
    )
    assert broadside_turn(state, (1800, 1000), "San Felipe", "starboard") == -27
    assert {m.turn2 for m in offered(state) if (m.turn1, m.run, m.extra) == (0, 800, "")} == {-90, -27, 0}


@pytest.mark.parametrize(
    ("martin_at", "turn", "sought"), [((13, 15), 31, True), ((18, 25), 28, True), ((18, 25.01), 28, False)]
)
def test_in_a_calm_the_turn_that_lays_a_broadside_on_a_near_enemy_is_offered(martin_at, turn, sought):
    """Rules 2 and 10: in a calm she may only turn (45 degrees); San Martin 5.8" to the north-east: the
    31-degree turn that lays the port broadside on her is offered beside the limits and half turns. It
    is sought for an enemy up to 17" off (the longest band, 16", and an inch), not 17.01"."""
    state = position(
        [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", *martin_at, 270, type="San Martin")],
        strength="calm",
    )
    state.calm_moves = 1
    to_movement(state)
    assert broadside_turn(state, (1000, 1000), "San Martin", "port") == turn
    assert {m.turn1 for m in offered(state)} == {-45, -23, 0, 22, 45} | ({turn} if sought else set())


def test_a_galley_head_to_wind_whose_every_move_ends_in_irons_is_offered_three_of_them():
    """Rules 2 and 7: a galley under sail (one turn only, 45 degrees) lying head to wind in light airs, as
    one may after cutting free of grapples (rule 8 is not thrown for a grappled ship), cannot end a move
    90 degrees off the wind: whatever she does leaves her in irons. Three such moves are offered, rather
    than none or every one."""
    state = to_movement(
        position([ship("Capitana", "english", 10, 10, 90, type="Galley"), distant_enemy()], strength="light airs")
    )
    state.ships["Capitana"].heading = 0
    state._cand = {}
    assert [m for m in offered(state, "Capitana") if not m.extra] == [
        Move("Capitana", -45, 0, 0),
        Move("Capitana", 0, 0, -45),
        Move("Capitana", 0, 0, 0),
    ]


ALONGSIDE = [
    ship("Revenge", "english", 10, 10, 0),
    ship("Hope", "english", 10.3, 10, 0, type="Hope"),
    ship("Swallow", "english", 10, 11, 0, type="Hope"),
    distant_enemy(),
]
ON_A_LEDGE = [
    ship("White Bear", "english", 20, 18, 20, type="White Bear"),
    ship("San Martin", "spanish", 3, 3, 90, type="San Martin"),
]
ROCK_AND_LEDGE = [
    {"name": "Rock", "kind": "land", "points": [[20.36, 18.14], [20.46, 18.14], [20.46, 18.24], [20.36, 18.24]]},
    {"name": "Ledge", "kind": "land", "points": [[19.68, 18.41], [19.32, 18.24], [19.28, 18.31]]},
]


@pytest.mark.parametrize(
    ("ships", "land", "strength", "move"),
    [
        (ALONGSIDE, [], "medium", Move("Revenge", 0, 0, 0)),
        (ALONGSIDE, [], "light airs", Move("Revenge", 0, 0, 0)),
        (ON_A_LEDGE, ROCK_AND_LEDGE, "medium", Move("White Bear", -45, 0, 0)),
    ],
    ids=["alongside", "alongside-in-light-airs", "ledge"],
)
def test_a_ship_headed_by_the_wind_with_no_room_is_offered_the_one_move_she_has(ships, land, strength, move):
    """Rules 2, 4 and 7 (rulings: no must-move when contact stops the run at once): a ship lying closer to
    the wind than she may sail (the wind has headed her, as it may a ship just cut free of grapples, for
    which rule 8 was not thrown) and with no room to bear away is still offered the one move she has,
    and it leaves her in irons. Revenge, Hope alongside to starboard and Swallow touching her bow, lies
    where she is; White Bear (turning 45 degrees), a rock on her starboard bow, turns to port, where a
    ledge lies just off her new bow. In light airs (no must-move) Revenge lies where she is all the same."""
    state = to_movement(position(ships, wind="S", strength=strength, land=land))
    state.wind = 0
    state._cand = {}
    assert offered(state, move.ship) == [move]
    assert Marked(move.ship, "in irons", "rule 7") in state.apply(move)


def test_in_light_airs_she_may_turn_toward_the_wind_where_she_lies_but_not_sail_there():
    """Rule 2: in light airs a ship "may not sail closer than 90 degrees to the wind" and need not move:
    heading east with the wind from the north, her start turns toward it are offered with no run (and
    an end turn that leaves her no closer than 90 degrees to it)."""
    moves = offered(
        to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], strength="light airs"))
    )
    assert {(m.turn1, m.run) for m in moves if m.turn1 < 0} == {(-90, 0), (-45, 0), (-22, 0)}
    assert {m.run for m in moves if m.turn1 >= 0} == {0, 50, 100}


@pytest.mark.parametrize(("heading", "turn"), [(315, 90), (45, -90)])
def test_the_end_turn_to_the_other_tack_is_offered_across_north(heading, turn):
    """Rules 2 and 4: in a medium wind from the north a ship sails no closer than 45 degrees to it;
    close-hauled on one tack (315 or 45) her end turn of 90 degrees through north brings her to the
    limit on the other (45 or 315), which she may hold."""
    moves = offered(to_movement(position([ship("Revenge", "english", 10, 10, heading), distant_enemy()])))
    assert Move("Revenge", 0, 800, turn) in moves


def test_boarding_is_offered_beside_an_enemy_when_another_lies_close_but_clear():
    """Rule 12: San Felipe, listed first, lies 1.2" off the end of Revenge's 1" run, not in contact;
    San Martin lies alongside it: boarding her is offered."""
    state = to_movement(
        position(
            [
                ship("Revenge", "english", 10, 10, 90),
                ship("San Felipe", "spanish", 11.5, 8.9, 90, type="San Martin"),
                ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
            ]
        )
    )
    moves = offered(state)
    assert Move("Revenge", 0, 100, 0, "board", "San Martin") in moves
    assert Move("Revenge", 0, 100, 0, "board", "San Felipe") not in moves


@pytest.mark.parametrize(("enemy_y", "closest"), [(17.95, True), (17.96, False)])
def test_the_run_to_the_closest_approach_just_inside_a_band_is_offered(enemy_y, closest):
    """Rule 9's bands: San Martin lies 5" ahead and 7.95" abeam of Revenge's track: the run of 5" to
    the point of closest approach leaves her just inside 8" and is offered; 7.96" abeam, the track
    never comes that close and no such run is offered."""
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 15, enemy_y, 270, type="San Martin")]
        )
    )
    assert (Move("Revenge", 0, 500, 0) in offered(state)) == closest


def test_a_ship_headed_by_the_wind_with_a_mast_lost_turns_away_from_the_ledge_on_her_bow():
    """Rules 2, 4 and 7: White Bear, a mast lost (no closer than 90 degrees to the wind, turning 45), lies
    20 degrees off the wind with no rock to starboard: she may turn either way but sail on neither side
    (65 and 335 are both too close). Turned to port, the ledge just off her new bow stops her run at
    once (no must-move); turned to starboard she would have room to run and must, into the wind. So the
    one move she has is the turn to port, lying where she is, in irons."""
    state = to_movement(position(ON_A_LEDGE, wind="S", land=ROCK_AND_LEDGE[1:]))
    state.wind = 0
    state.ships["White Bear"].masts_lost = 1
    state._cand = {}
    assert offered(state, "White Bear") == [Move("White Bear", -45, 0, 0)]
    assert Marked("White Bear", "in irons", "rule 7") in state.apply(Move("White Bear", -45, 0, 0))


def test_the_runs_to_a_range_band_are_sought_for_the_nearest_enemy_only():
    """Rule 9's bands: San Martin, 12" off to the north, is the nearest enemy and no run east brings her
    just inside a band; San Felipe lies 20" dead ahead, farther off: the run that would leave her just
    inside 16" (4.05") is not among the runs offered, only the full, the least and the half way."""
    state = to_movement(
        position(
            [
                ship("Revenge", "english", 10, 10, 90),
                ship("San Martin", "spanish", 10, 22, 270, type="San Martin"),
                ship("San Felipe", "spanish", 30, 10, 270, type="San Martin"),
            ]
        )
    )
    assert {m.run for m in offered(state) if (m.turn1, m.turn2, m.extra) == (0, 0, "")} == {100, 450, 800}


def test_the_area_drawn_for_a_ship_holds_no_run_on_a_turn_that_swings_her_into_a_hull():
    # Hope lies 0.4" off Revenge's port side, both heading east in a westerly: turned 90 degrees to
    # port (or starboard), her hull would swing into Hope, so the browser's area gives no run there at all
    ships = [ship("Revenge", "english", 10, 10, 90), ship("Hope", "english", 10, 10.4, 90, type="Hope"),
             ship("San Martin", "spanish", 60, 30, 90, type="San Martin")]
    state = to_movement(position(ships, wind="W"))
    reach = dict(GAME.hook("board_notes")(state)["reach"]["Revenge"])
    assert reach[-90] == reach[90] == 0 and reach[0] == 8.0  # either way her ends sweep across Hope
    with pytest.raises(IllegalAction) as refused:
        state.apply(Move("Revenge", -90, 0, 0), 0)
    assert refused.value.rule == "hulls" and "Hope's hull" in refused.value.message


def test_a_ship_sails_into_a_bay_of_a_headland_that_is_not_a_convex_shape():
    # An L-shaped headland: its bay (east of x 22 and north of y 12) is open water; Revenge runs up it,
    # and the run is stopped only by the land itself
    headland = {"name": "Headland", "kind": "land", "points": [[20, 10], [30, 10], [30, 12], [22, 12], [22, 20],
                                                              [20, 20]]}
    state = to_movement(position([ship("Revenge", "english", 26, 15, 0), distant_enemy()], wind="E", land=[headland]))
    state.apply(Move("Revenge", 0, 300, 0), 0)
    assert state.ships["Revenge"].point == (2600, 1800)
    state = to_movement(position([ship("Revenge", "english", 26, 15, 270), distant_enemy()], wind="N", land=[headland]))
    with pytest.raises(IllegalAction) as refused:
        state.apply(Move("Revenge", 0, 400, 0), 0)  # west into the headland's upright
    assert refused.value.rule == "hulls" and "Headland" in refused.value.message
