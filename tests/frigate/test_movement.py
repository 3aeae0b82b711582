"""Seed 001, MOVEMENT 1-5, 7-8 and the Quarterly Movement Chart: momentum, the wind's maximum,
turning (costs, into the wind, three hexsides, borrowed points, dead to windward), no wind, mast
damage per segment, fighting sail, drifting and sagging."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Escaped, Marked, Moved, PhaseChanged, Turned
from quarterdeck.core.hexes import HexDir
from quarterdeck.games.frigate import movement
from quarterdeck.games.frigate.actions import Declare, Move, Order, Roll, Stand, Turn

from .helpers import battle, declare, hold_windows, near, quiet_turn, ship, to_movement

FAR = ship("Distant", "red", 20, "3401", "S")  # an enemy far out of range, so no fire windows intrude


class TestQuarterlyMovementChart:
    def test_the_chart_as_printed(self):
        tables = battle(ship("A", "blue", 44, "0510", "N"), FAR).tables
        assert tables.points(1) == (0, 0, 1, 0)
        assert tables.points(5) == (1, 1, 2, 1)
        assert tables.points(14) == (3, 4, 4, 3)
        assert tables.points(20) == (5, 5, 5, 5)
        assert tables.points(0) == (0, 0, 0, 0)
        assert all(sum(tables.points(ma)) == ma for ma in range(1, 21))

    def test_each_segment_spends_its_quarter(self):
        state = battle(ship("Swift", "blue", 44, "0510", "SE", 5, **{"class": "frigate"}), FAR, wind=(1, "moderate"))
        to_movement(state, Swift=5, Distant=0)
        assert state.segment == 1 and state.ships["Swift"].left == 1
        state.apply(Move("Swift"), 0)
        hold_windows(state)
        assert state.segment == 2 and state.ships["Swift"].left == 1
        state.apply(Move("Swift"), 0)
        hold_windows(state)
        assert state.segment == 3 and state.ships["Swift"].left == 2


class TestMomentum:
    def test_at_most_two_up_and_four_down(self):
        # A 44 frigate with the wind on her side-rear in a Moderate breeze: schedule maximum 10.
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 6, **{"class": "frigate"}), FAR)
        assert movement.declaration_range(state, state.ships["Essex"])[:2] == (2, 8)
        for too_much in (9, 1):
            with pytest.raises(IllegalAction) as error:
                state.apply(Declare("Essex", too_much), 0)
            assert error.value.rule == "momentum"
        assert not state.ships["Essex"].declared  # nothing changed
        state.apply(Declare("Essex", 8), 0)
        assert state.ships["Essex"].ma == 8

    def test_the_wind_caps_the_allowance(self):
        # The same frigate close-hauled (wind on her side-front): maximum 7, so last 6 + 2 gives only 7.
        state = battle(ship("Essex", "blue", 44, "0510", "NE", 6, **{"class": "frigate"}), FAR)
        assert movement.declaration_range(state, state.ships["Essex"])[:2] == (2, 7)

    def test_a_ship_carries_way_when_the_maximum_falls_below_momentum(self):
        # A 74 turned into the wind (front: maximum 0) after sailing at 7 carries way at exactly 3.
        state = battle(ship("Bellona", "blue", 74, "0510", "N", 7), FAR)
        assert movement.declaration_range(state, state.ships["Bellona"])[:2] == (3, 3)
        assert state.ships["Bellona"].declared and state.ships["Bellona"].ma == 3  # the only choice


class TestDeclaration:
    def test_at_rest_with_the_wind_on_her_quarter_she_may_gather_way_to_two(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 0, **{"class": "frigate"}), FAR)
        assert [a for a in state.legal_actions(0) if a.ship == "Essex"] == [Declare("Essex", m) for m in (0, 1, 2)]

    def test_momentum_is_last_turns_allowance_whatever_ship_was_lost_before_her(self):
        state = battle(ship("Lost", "blue", 20, "2020", "N", 0),
                       ship("Essex", "blue", 44, "0510", "SE", 0, **{"class": "frigate"}), FAR)
        state.ships["Lost"].status = "sunk"
        to_movement(state, Essex=2, Distant=0)
        quiet_turn(state)
        assert state.ships["Essex"].last_ma == 2 and state.to_json()["ships"][1]["allowed"][:2] == [0, 4]

    def test_a_maximum_equal_to_the_momentum_floor_is_no_carrying_way(self):
        # In a calm a frigate with the wind on her side-rear may sail 2: last turn's 6 less 4 is 2 too.
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 6, **{"class": "frigate"}), FAR, wind=(1, "calm"))
        low, high, why = movement.declaration_range(state, state.ships["Essex"])
        assert (low, high) == (2, 2) and "carrying way" not in why


class TestWindOnTheShip:
    def test_the_schedules_maximum_by_the_hexside_the_wind_enters(self):
        """Seed, Movement 2: the maximum depends on the ship's facing relative to the wind. A frigate in
        a moderate north wind: front 0, side-front 7, side-rear 10, rear 9 (tables.toml)."""
        state = battle(ship("Essex", "blue", 44, "0510", "N", 0, **{"class": "frigate"}), FAR)
        essex = state.ships["Essex"]
        maxima = {}
        for facing in HexDir:
            essex.facing = facing
            maxima[facing.name] = essex.max_ma(state.tables, "moderate", HexDir.N)
        assert maxima == {"N": 0, "NE": 7, "SE": 10, "S": 9, "SW": 10, "NW": 7}


class TestTurning:
    def test_turning_costs_and_the_extra_point_into_the_wind(self):
        # A 74 (turning cost 2) with a north wind on her side-rear (facing SE).
        state = battle(ship("Bellona", "blue", 74, "0510", "SE", 8), FAR)
        bellona = state.ships["Bellona"]
        assert movement.turn_cost(state, bellona, -1) == 3  # to NE: side-rear -> side-front, into the wind
        assert movement.turn_cost(state, bellona, +1) == 2  # to S: side-rear -> rear
        bellona.facing = HexDir.NE
        assert movement.turn_cost(state, bellona, -1) == 3  # to N: side-front -> front
        bellona.facing = HexDir.S
        assert movement.turn_cost(state, bellona, -1) == 2  # rear -> side-rear is not into the wind

    def test_three_hexsides_when_tacking(self):
        # A frigate close-hauled on the port tack (wind on her port bow) tacks through the wind.
        state = battle(ship("Essex", "blue", 44, "0510", "NE", 14, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)
        essex = state.ships["Essex"]
        essex.left = 4  # as if she had the points of MA 16 (beyond any schedule row in this wind)
        state.apply(Turn("Essex", "port"), 0)  # NE -> N, into the wind: 2 points
        state.apply(Turn("Essex", "port"), 0)  # N -> NW: 1 point
        state.apply(Turn("Essex", "port"), 0)  # NW -> SW: the third hexside, allowed when tacking
        assert essex.facing == HexDir.SW and essex.turned_here == 3

    @pytest.mark.parametrize(("facing", "way", "after"), [("NW", "starboard", "SE"), ("SW", "starboard", "NE"),
                                                           ("SE", "port", "NW")])
    def test_tacking_with_the_wind_on_either_bow_or_quarter(self, facing, way, after):
        """Seed, Turning: a third hexside when the wind enters a side-front or side-rear hexside and she
        turns into the wind (north wind: on her starboard bow facing NW, starboard quarter facing SW,
        port quarter facing SE)."""
        state = battle(ship("Essex", "blue", 44, "0510", facing, 14, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)
        essex = state.ships["Essex"]
        essex.left = 6  # as if she had the points (two turns into the wind cost 2 each)
        for _ in range(3):
            state.apply(Turn("Essex", way), 0)
        assert essex.facing == HexDir[after] and essex.turned_here == 3

    def test_wearing_needs_more_than_one_hex(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 14, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)
        state.ships["Essex"].left = 4
        state.apply(Turn("Essex", "starboard"), 0)  # SE -> S, away from the wind
        state.apply(Turn("Essex", "starboard"), 0)  # S -> SW
        with pytest.raises(IllegalAction) as error:
            state.apply(Turn("Essex", "starboard"), 0)  # SW -> NW would be wearing in one hex
        assert error.value.rule == "three-hexsides"
        assert state.ships["Essex"].facing == HexDir.SW

    def test_falling_off_from_dead_into_the_wind(self):
        # Carrying way dead into the wind (MA 10 from last turn's 14), she falls off three hexsides.
        state = battle(ship("Essex", "blue", 44, "0510", "N", 14, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)
        essex = state.ships["Essex"]
        assert essex.ma == 10 and essex.segment_k == 0
        essex.left = 3
        for _ in range(3):
            state.apply(Turn("Essex", "starboard"), 0)
        assert essex.facing == HexDir.S  # dead before the wind, three hexsides in one hex

    def test_falling_off_across_segments_is_judged_where_the_turning_began(self):
        """Decision: the tacking or falling-off condition is read at the start of the segment in which
        turning in that hex began: dead into the wind in segment 1, so the third hexside in segment 3
        is allowed although the wind then came over her quarter."""
        state = battle(ship("Essex", "blue", 44, "0510", "N", 8, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)  # carrying way at 4: a point in each segment
        for segment in (1, 2, 3):
            assert state.segment == segment
            state.apply(Turn("Essex", "starboard"), 0)
        essex = state.ships["Essex"]
        assert essex.facing == HexDir.S and essex.turned_here == 3 and state.grid.name(essex.hex) == "0510"

    def test_a_fourth_hexside_in_one_hex_never(self):
        state = battle(ship("Essex", "blue", 44, "0510", "N", 14, **{"class": "frigate"}), FAR)
        to_movement(state, Distant=0)
        state.ships["Essex"].left = 4
        for _ in range(3):
            state.apply(Turn("Essex", "starboard"), 0)
        with pytest.raises(IllegalAction) as error:
            state.apply(Turn("Essex", "starboard"), 0)
        assert error.value.rule == "three-hexsides" and "a fourth never" in error.value.message

    def test_p_ships_never_turn_three_hexsides(self):
        state = battle(ship("Victory", "blue", 100, "0510", "NE", 8), FAR)
        to_movement(state, Victory=6, Distant=0)
        victory = state.ships["Victory"]
        victory.left = 9  # points enough for any turn: only the P mark forbids the third hexside
        state.apply(Turn("Victory", "port"), 0)
        state.apply(Turn("Victory", "port"), 0)
        with pytest.raises(IllegalAction) as error:
            state.apply(Turn("Victory", "port"), 0)
        assert error.value.rule == "three-hexsides" and "P" in error.value.message

    def test_a_turn_may_borrow_points_from_later_segments(self):
        # A 74 at MA 5 has 1 point in segment 1; a turn costing 2 takes 1 from segment 2.
        state = battle(ship("Bellona", "blue", 74, "0510", "S", 5), FAR)
        to_movement(state, Bellona=5, Distant=0)
        bellona = state.ships["Bellona"]
        assert state.segment == 1 and bellona.left == 1
        state.apply(Turn("Bellona", "starboard"), 0)  # S -> SW, rear -> side-rear: cost 2
        # Segment 2's single point went to pay for the turn, so play runs on to segment 3.
        assert bellona.facing == HexDir.SW and bellona.debt == 0
        assert state.segment == 3 and bellona.left == 2

    def test_in_the_third_segment_a_turn_may_borrow_the_fourth_segments_point(self):
        state = battle(ship("Bellona", "blue", 74, "0510", "S", 4), FAR)
        to_movement(state, Bellona=4, Distant=0)
        state.apply(Move("Bellona"), 0)
        state.apply(Move("Bellona"), 0)
        assert state.segment == 3
        state.apply(Turn("Bellona", "starboard"), 0)  # rear -> side-rear: 2 points, segment 4's included
        bellona = state.ships["Bellona"]
        assert bellona.facing == HexDir.SW and state.turn == 2  # nothing left for segment 4

    def test_no_turn_beyond_the_points_of_the_whole_turn(self):
        state = battle(ship("Bellona", "blue", 74, "0510", "S", 1), FAR)
        to_movement(state, Bellona=1, Distant=0)
        assert state.segment == 3  # MA 1 spends its point in the third segment
        bellona = state.ships["Bellona"]
        assert movement.turn_problem(state, bellona, 1)[0] == "turning-cost"
        assert state.legal_actions(0) == [Move("Bellona")]


class TestDeadToWindward:
    def test_only_one_free_hexside_away_from_the_wind(self):
        state = battle(ship("Bellona", "blue", 74, "0510", "N", 3), FAR)
        assert set(state.legal_actions(0)) == {Declare("Bellona", 0), Declare("Bellona", 0, "port"),
                                               Declare("Bellona", 0, "starboard")}
        state.apply(Declare("Bellona", 0, "port"), 0)
        declare(state, Distant=0)
        state.apply(Roll((6, 1)))
        events = state.apply(Order((0, 0, 0, 0)), 0)  # no way on and no target: the whole turn is played
        # The free hexside is taken once, as the first segment begins (and she drifts with no way on).
        assert events[:2] == [Turned("Bellona", "0510", "NW"), PhaseChanged("blue", "move first in segment 1", 1)]
        assert [event for event in events if isinstance(event, Turned)] == events[:1]
        assert state.ships["Bellona"].facing == HexDir.NW and state.ships["Bellona"].left == 0


class TestNoWind:
    def test_no_wind_means_no_allowance_subject_to_momentum(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 6, **{"class": "frigate"}), FAR,
                       options={"no_wind": True})
        state.velocity = "no wind"
        assert movement.declaration_range(state, state.ships["Essex"])[:2] == (2, 2)

    def test_in_no_wind_a_ship_facing_where_it_blew_from_gets_no_free_hexside(self):
        """Seed, Movement 2: in no wind "A ship with no Movement Points remaining cannot even change
        direction": the dead-to-windward hexside away from the wind needs a wind."""
        state = battle(ship("Essex", "blue", 44, "0510", "N", 4, **{"class": "frigate"}), FAR,
                       options={"no_wind": True})
        state.velocity = "no wind"
        assert state.declare_options(state.ships["Essex"]) == [Declare("Essex", 0)]

    def test_a_ship_without_points_cannot_even_turn(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 0, **{"class": "frigate"}), FAR)
        essex = state.ships["Essex"]
        essex.left = 0
        assert movement.turn_problem(state, essex, 1)[0] == "movement-points"


class TestWithdrawal:
    """Preservation Level (standard): a force over its level withdraws toward its home edge."""

    @pytest.mark.parametrize(("hex_", "heading", "home", "allowed"), [
        ("0510", "N", "south", False), ("0510", "S", "south", True),
        ("0610", "NE", "south", True),  # from an even column NE keeps her row: no farther from the south edge
        ("0510", "SE", "east", True), ("0510", "SW", "east", False),
    ])
    def test_no_move_away_from_her_home_edge(self, hex_, heading, home, allowed):
        wind = HexDir[heading].opposite().number
        state = battle(ship("Essex", "blue", 44, hex_, heading, 4, **{"class": "frigate"}), FAR,
                       wind=(wind, "moderate"), home_edges=(home, "north"))
        state.force_state[0].withdrawing = True
        to_movement(state, Essex=4, Distant=0)
        assert (Move("Essex") in state.legal_actions(0)) is allowed
        if not allowed:
            with pytest.raises(IllegalAction) as refused:
                state.apply(Move("Essex"), 0)
            assert refused.value.rule == "preservation"


class TestLeavingTheMap:
    @pytest.mark.parametrize(("start", "heading", "edge"), [("3410", "NE", "east"), ("0101", "N", "north"),
                                                            ("1022", "S", "south"), ("0105", "SW", "west")])
    def test_a_ship_sailing_off_an_edge_escapes_by_that_edge(self, start, heading, edge):
        wind = HexDir[heading].opposite().number
        state = battle(ship("Essex", "blue", 44, start, heading, 4, **{"class": "frigate"}), FAR,
                       wind=(wind, "moderate"))
        to_movement(state, Essex=4, Distant=0)
        events = state.apply(Move("Essex"), 0)
        assert Escaped("Essex", start, edge) in events
        assert state.to_json()["ships"][0]["edge"] == edge and state.ships["Essex"].status == "escaped"
        assert state.outcome.reason.startswith("blue has no ship left in the fight: Essex escaped;")

    def test_a_ship_that_escaped_shows_no_points_left_while_her_consort_sails_on(self):
        state = battle(ship("Essex", "blue", 44, "3410", "NE", 8, **{"class": "frigate"}),
                       ship("Wasp", "blue", 20, "2010", "NE", 8), FAR, wind=(HexDir.SW.number, "moderate"))
        to_movement(state, Essex=8, Wasp=8, Distant=0)
        state.apply(Move("Essex"), 0)
        assert state.ships["Essex"].status == "escaped" and state.outcome is None
        essex = state.to_json()["ships"][0]
        assert (essex["left"], essex["max_ma"]) == (0, 0)  # gone: no points, no allowance to make
        assert {a.ship for a in state.legal_actions(0)} == {"Wasp"}


class TestMastDamage:
    def test_one_point_less_in_each_later_segment(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **{"class": "frigate"}), FAR)
        to_movement(state, Essex=8, Distant=0)
        state.pending.append(("Essex", "mast", "Distant"))
        state.apply(Move("Essex"), 0)
        state.apply(Move("Essex"), 0)
        hold_windows(state)
        essex = state.ships["Essex"]
        assert essex.masts == 1 and state.segment == 2 and essex.left == 1  # 2 - 1

    def test_a_dismasted_ship_declares_nothing_but_zero(self):
        """Decision: a dismasted ship's allowance is 0, whatever her way last turn."""
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 6, **{"class": "frigate"}), FAR)
        state.ships["Essex"].masts = 3
        events = quiet_turn(state)
        essex = state.ships["Essex"]
        assert state.turn == 2 and essex.declared and essex.ma == 0  # her one choice, made at once
        # and her captain is told so, with the reason, since nobody asked him
        told = [e.describe() for e in events if isinstance(e, Marked) and e.marker.startswith("declares")]
        assert told == ["Essex declares MA 0, the only allowance open to her: dismasted: no Movement Allowance "
                        "(momentum)"]
        assert state.to_json()["ships"][0]["allowed"][:2] == [0, 0]

    @pytest.mark.parametrize(("fighting", "maxima"), [((), (10, 6, 3, 0)), (("Essex",), (5, 5, 5, 0))])
    def test_mast_hits_cut_the_maximum_except_under_fighting_sail(self, fighting, maxima):
        """Full sail: 2/3 and 1/3 after one and two mast hits. Fighting sail (seed, Movement 5): half,
        "no further reduction in Movement Allowance due to 1 or 2 mast hits". Three dismast."""
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 4, **{"class": "frigate"}), FAR, fighting=fighting)
        essex = state.ships["Essex"]
        assert essex.fighting_sail == bool(fighting)
        for masts, expected in enumerate(maxima):
            essex.masts = masts
            assert essex.max_ma(state.tables, "moderate", HexDir.N) == expected


class TestDriftAndSag:
    def test_dismasted_ships_face_into_the_wind_and_drift(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 0, **{"class": "frigate"}), FAR)
        state.ships["Essex"].masts = 3
        declare(state, Essex=0, Distant=0)
        state.apply(Roll((6, 1)))
        events = state.apply(Order((0, 0, 0, 0)), 0)  # nothing more to decide: the turn runs to its end
        essex = state.ships["Essex"]
        assert essex.facing == HexDir.N and state.grid.name(essex.hex) == "0511"  # one hex downwind (south)
        assert Moved("Essex", "0510", "0511", "N") in events
        assert Marked("Essex", "drifts a hex downwind, dismasted in a moderate wind", "Movement 7") in events
        assert state.ships_at(essex.hex) == [essex]

    def test_a_drift_is_told_with_its_reason_and_not_told_when_a_ship_blocks_it(self):
        """Drift (reconstructed): the log says why a ship nobody moved has moved (at MA 0 in a Moderate
        wind), and says nothing of a drift that a ship downwind stops."""
        state = battle(ship("Hope", "blue", 14, "0510", "N", 0), ship("Fly", "blue", 20, "0511", "N", 4), FAR)
        declare(state, Hope=0, Fly=0, Distant=0)
        events = quiet_turn(state)
        told = [e for e in events if isinstance(e, Marked) and e.piece in ("Hope", "Fly")]
        assert told == [Marked("Fly", "drifts a hex downwind, at MA 0 in a moderate wind", "Movement 7")]
        assert state.grid.name(state.ships["Hope"].hex) == "0510"

    def test_a_ship_at_ma_0_drifts_whatever_is_listed_before_her(self):
        """Drift (reconstructed): every ship that declared MA 0 drifts, whatever the ships listed before
        her do: here an afoul pair, drifting as one, and a ship under way, not drifting at all."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **{"class": "frigate"}),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **{"class": "frigate"}),
                       ship("Wasp", "blue", 20, "2008", "N", 4), ship("Fly", "blue", 20, "2015", "N", 0),
                       wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0, Wasp=4, Fly=0)
        state.apply(Move("Essex"), 0)  # aboard her from astern
        pair_downwind, fly_downwind = near(state, "Guerriere", "NW"), near(state, "Fly", "NW")
        quiet_turn(state)
        assert state.ships["Essex"].afoul == "Guerriere"
        assert state.grid.name(state.ships["Guerriere"].hex) == pair_downwind
        assert state.grid.name(state.ships["Fly"].hex) == fly_downwind

    def test_a_ship_drifts_into_the_hex_one_drifting_off_the_map_has_left(self):
        """Drift (reconstructed): a ship drifting off the map leaves the battle, and her hex is open
        water at once for the ship drifting behind her."""
        state = battle(ship("Hope", "blue", 14, "0522", "N", 0), ship("Fly", "blue", 20, "0521", "N", 0), FAR)
        declare(state, Hope=0, Fly=0, Distant=0)
        events = quiet_turn(state)
        assert Escaped("Hope", "0522", "south") in events and state.ships["Hope"].status == "escaped"
        assert state.grid.name(state.ships["Fly"].hex) == "0522"

    def test_a_ship_drifted_into_a_new_hex_may_turn_two_hexsides_there(self):
        """Turning (reconstructed): at most two hexsides in one hex, counted since she last entered a
        hex; a drift takes her into a new one as a move does."""
        state = battle(ship("Essex", "blue", 44, "1010", "SE", 0, **{"class": "frigate"}), FAR)  # wind from N
        essex = state.ships["Essex"]

        def two_hexsides(way):  # MA 2: a point in segment 2 and one in segment 3, each a hexside off the wind
            to_movement(state, Essex=2, Distant=0)
            for _ in range(2):
                state.apply(Turn("Essex", way), 0)
                hold_windows(state)
            quiet_turn(state)

        two_hexsides("starboard")
        assert essex.facing == HexDir.SW and state.grid.name(essex.hex) == "1010"
        to_movement(state, Essex=0, Distant=0)
        quiet_turn(state)
        assert state.grid.name(essex.hex) == "1011"  # at MA 0 she drifted a hex south
        two_hexsides("port")
        assert essex.facing == HexDir.SE

    @pytest.mark.parametrize(("velocity", "options", "fly_ends"), [("fresh", {"sagging": True}, "0513"),
                                                                   ("fresh", {}, "0511"),
                                                                   ("moderate", {"sagging": True}, "0511")])
    def test_sagging_only_with_the_option_and_in_a_fresh_wind(self, velocity, options, fly_ends):
        """Seed, Movement 8 (optional): "only large enough to be felt in Fresh wind conditions", the
        Sag column's hexes downwind after all movement: with the option, and in a Fresh wind only."""
        state = battle(ship("Fly", "blue", 20, "0510", "SE", 0), ship("Bellona", "blue", 74, "1010", "SE", 0),
                       FAR, wind=(1, velocity), options=options)
        assert state.ships["Fly"].row.sag == 2 and state.ships["Bellona"].row.sag == 0
        state.ships["Fly"].masts = state.ships["Bellona"].masts = 3  # both dead in the water
        declare(state, Fly=0, Bellona=0, Distant=0)
        state.apply(Roll((6, 1)))
        events = state.apply(Order((0, 0, 0, 0)), 0)  # none can move: the turn may run to its end at once
        while state.turn == 1:
            events += hold_windows(state)
            if state.current_player() >= 0 and state.legal_actions():
                events += state.apply(state.legal_actions()[0])
        # Drift 1 for both, then any sag: 2 more for the 20-gun ship and none for the 74.
        assert state.grid.name(state.ships["Fly"].hex) == fly_ends
        sags = [e for e in events if isinstance(e, Marked) and e.piece != "Distant" and e.marker.startswith("sags")]
        assert sags == ([Marked("Fly", "sags downwind in a fresh wind (a Sag of 2 hexes)", "Movement 8")]
                        if fly_ends == "0513" else [])
        assert state.grid.name(state.ships["Bellona"].hex) == "1011"

    def test_an_afoul_pair_sags_once_together(self):
        """Seed, Movement 8: the pair moves by the smaller Sag (the frigate's 1, not the sloop's 2), after
        its drift; Fly, listed after the pair and dead in the water, drifts 1 and sags her own 2."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **{"class": "frigate"}),
                       ship("Hornet", "red", 20, "1009", "N", 0), ship("Fly", "blue", 20, "2010", "N", 0),
                       wind=(3, "fresh"), options={"sagging": True})
        assert (state.ships["Essex"].row.sag, state.ships["Hornet"].row.sag) == (1, 2)
        state.ships["Fly"].masts = 3
        to_movement(state, Essex=4, Hornet=0, Fly=0)
        state.apply(Move("Essex"), 0)  # aboard her from astern
        two_downwind = near(state, "Hornet", "NW", "NW")
        three_downwind = near(state, "Fly", "NW", "NW", "NW")
        quiet_turn(state)
        essex, hornet = state.ships["Essex"], state.ships["Hornet"]
        assert essex.afoul == "Hornet"
        assert state.grid.name(essex.hex) == state.grid.name(hornet.hex) == two_downwind
        assert state.grid.name(state.ships["Fly"].hex) == three_downwind

    def test_standing_only_when_nothing_else_is_legal(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **{"class": "frigate"}), FAR)
        to_movement(state, Essex=8, Distant=0)
        with pytest.raises(IllegalAction) as error:
            state.apply(Stand("Essex"), 0)
        assert error.value.rule == "stand"

    def test_a_ship_that_can_neither_move_nor_turn_stands_and_spends_her_point(self):
        # Wasp fills the hex ahead, and Essex has turned two hexsides in this one already
        state = battle(ship("Essex", "blue", 44, "0510", "S", 4, **{"class": "frigate"}),
                       ship("Wasp", "blue", 20, "0511", "S", 0), FAR)
        to_movement(state, Essex=4, Wasp=0, Distant=0)
        state.ships["Essex"].turned_here = 2
        assert state.legal_actions(0) == [Stand("Essex")]
        events = state.apply(Stand("Essex"), 0)
        assert events[0] == PhaseChanged("blue", "move first in segment 2", 1)  # her point spent, the segment over
        assert state.ships["Essex"].left == 1 and state.ships["Essex"].debt == 0  # nothing borrowed from segment 2
        assert state.segment == 2  # not skipped: segment 2 keeps its own point for her
