"""Seed 003, rules 1 (wind each move), 2 (wind strength), 3 (sequence), 4 (turns and run)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import DieRolled, Escaped, Moved, Passed, PhaseChanged, Turned, WindChanged
from quarterdeck.core.protocol import CHANCE, Resign
from quarterdeck.games.naval_warfare.actions import Move, Roll

from .helpers import due, play, position, roll, ship, start_move, to_movement


def pair(**kw):
    return [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]


class TestRule1Wind:
    def test_no_six_no_change_and_both_dice_are_one_chance_outcome(self):
        state = position(pair())
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 36 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        roll(state, 3, 5)
        assert (state.wind, state.strength) == (0, 2)

    @pytest.mark.parametrize(("again", "expected"), [(1, 315), (2, 315), (3, 45), (4, 45), (5, 0), (6, 0)])
    def test_red_six_rethrown_at_the_prevailing_wind(self, again, expected):
        state = position(pair())
        roll(state, 6, 2)
        assert due(state) == ("roll", "wind-red")
        roll(state, again)
        assert state.wind == expected  # 1-2 counter-clockwise, 3-4 clockwise, 5-6 no change

    @pytest.mark.parametrize(("again", "expected"), [(1, 45), (2, 45), (3, 135), (4, 135), (5, 90), (6, 90)])
    def test_red_six_rethrown_with_no_prevailing_wind(self, again, expected):
        """With no prevailing wind (the setup's option) the wind still turns on 1-4, counter-clockwise
        on 1-2 and clockwise on 3-4, and holds on 5-6 (rulings on the lost ranges)."""
        state = position(pair(), wind="E")
        state.prevailing = None
        roll(state, 6, 2)
        roll(state, again)
        assert state.wind == expected

    @pytest.mark.parametrize(("again", "expected"), [(1, 90), (3, 0), (5, 90), (6, 0)])
    def test_red_six_away_and_toward_the_prevailing_wind(self, again, expected):
        state = position(pair(), wind="NE", prevailing="N")
        roll(state, 6, 2)
        roll(state, again)
        assert state.wind == expected

    def test_opposite_the_prevailing_wind_toward_turns_clockwise_and_away_leaves_it(self):
        state = position(pair(), wind="S", prevailing="N")
        roll(state, 6, 2)
        roll(state, 3)
        assert state.wind == 225
        state = position(pair(), wind="S", prevailing="N")
        roll(state, 6, 2)
        roll(state, 1)
        assert state.wind == 180

    def test_a_veer_past_north_reads_north_not_360_degrees(self):
        """Rule 1: from the north-west, a re-thrown 3 turns the wind 45 degrees toward a northerly
        prevailing wind, or clockwise with none: it then blows from the north, 0 degrees."""
        for prevailing in ("N", None):
            state = position(pair(), wind="NW", prevailing="N")
            state.prevailing = None if prevailing is None else 0
            roll(state, 6, 2)
            events = roll(state, 3)
            assert state.wind == 0 and state.to_json()["wind"]["from"] == 0
            assert WindChanged("N", "medium") in events

    @pytest.mark.parametrize(("again", "strength"), [(3, 1), (4, 3)])
    def test_black_six_rethrown_one_to_three_calmer_four_to_six_stronger(self, again, strength):
        state = position(pair())
        roll(state, 2, 6)
        roll(state, again)
        assert state.strength == strength

    def test_every_wind_and_initiative_die_is_shown_to_the_players(self):
        state = position(pair())
        thrown = roll(state, 6, 6) + roll(state, 3) + roll(state, 4) + roll(state, 9, 4)
        assert [e for e in thrown if isinstance(e, DieRolled)] == [
            DieRolled("wind direction (red)", 6),
            DieRolled("wind strength (black)", 6),
            DieRolled("wind direction again (red)", 3),
            DieRolled("wind strength again (black)", 4),
            DieRolled("initiative (english)", 9),
            DieRolled("initiative (spanish)", 4),
        ]
        assert WindChanged("NE", "strong") in thrown and state.to_json()["wind"]["was_calm"] is False

    def test_exactly_opposite_the_prevailing_wind_toward_turns_clockwise_past_north(self):
        state = position(pair(), wind="NW", prevailing="SE")
        roll(state, 6, 2)
        roll(state, 3)
        assert state.wind == 0 and state.to_json()["wind"]["from"] == 0

    def test_when_the_wind_falls_calm_after_light_airs_nobody_moves_in_its_first_move(self):
        """Rule 2: "Ships cannot move in the first move of a calm", whatever blew before it."""
        state = to_movement(position(pair(), strength="light airs"))
        play(state, "move Revenge hold")
        play(state, "move San Martin hold")
        roll(state, 2, 6)
        roll(state, 1)  # the black die again: calmer, a calm
        events = roll(state, 9, 4)
        assert state.strength == 0 and state.to_json()["wind"]["calm_moves"] == 1
        assert state.phase not in ("move-first", "move-second") and state.current_player() == CHANCE
        assert state.to_json()["wind"]["was_calm"] is False
        # each side is told why its movement passed without a word from it
        told = [e.describe() for e in events if isinstance(e, Passed)]
        assert told[:2] == ["english moves no ship this move: Revenge cannot move in the first move of a calm (rule 2)",
                            "spanish moves no ship this move: San Martin cannot move in the first move of a calm "
                            "(rule 2)"]

    def test_a_side_whose_ships_all_lie_still_hears_them_named_once_for_each_reason(self):
        state = position([*pair(), ship("Hope", "english", 10, 20, 90), ship("Bull", "english", 10, 30, 90)],
                         strength="calm")
        state.ships["Bull"].irons = True
        events = roll(state, 2, 2) + roll(state, 9, 4) + roll(state, 4)  # Bull's throw in irons: no turn
        told = [e for e in events if isinstance(e, Passed) and e.player == "english" and "moves" in e.reason]
        assert [(e.reason, e.rule) for e in told] == [(
            "moves no ship this move: Revenge, Hope each cannot move in the first move of a calm; Bull is in irons "
            "and drifts", "rules 2 and 7")]

    def test_a_side_that_moved_a_ship_is_not_told_it_moved_none(self):
        # Bull in irons cannot move: once Revenge has sailed, english movement is over
        state = position([*pair(), ship("Bull", "english", 10, 30, 90)])
        state.ships["Bull"].irons = True
        start_move(state)
        roll(state, 4)  # Bull's throw in irons: no turn, she drifts
        assert due(state) == ("decide", "move") and state.current_player() == 0
        events = play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert state.current_player() == 1  # spanish movement now
        assert not any(isinstance(e, Passed) and "moves no ship" in e.reason for e in events)

    def test_black_six_rethrown_changes_strength_once(self):
        state = position(pair())
        roll(state, 2, 6)
        roll(state, 6)  # a second 6 reads as 6: stronger, no third throw
        assert state.strength == 3 and state.current_player() == CHANCE and due(state)[1] == "initiative"
        state = position(pair(), strength="strong")
        roll(state, 2, 6)
        roll(state, 5)
        assert state.strength == 3  # no step beyond Strong

    def test_in_a_calm_a_first_throw_of_four_raises_the_wind(self):
        state = position(pair(), strength="calm")
        roll(state, 2, 4)
        assert state.strength == 1 and due(state)[1] == "initiative"

    def test_boats_wait_for_the_second_move_of_a_battle_that_opens_in_light_airs(self):
        state = to_movement(position(pair(), strength="light airs", options={"boats": True}))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn -90 run 1.00 turn 0 boats")
        assert error.value.rule == "optional rule 1"

    def test_boats_wait_for_the_second_move_of_light_airs_after_a_medium_wind(self):
        """Optional rule 1: boats may tow "after the first move of the calm or light airs"; a move of
        medium wind before it does not count towards the light airs."""
        state = to_movement(position(pair(), options={"boats": True}))
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        roll(state, 2, 6)
        roll(state, 1)  # the black die thrown again: calmer, light airs
        roll(state, 9, 4)
        assert state.to_json()["wind"]["light_moves"] == 1
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn -90 run 1.00 turn 0 boats")
        assert error.value.rule == "optional rule 1"
        play(state, "move Revenge hold")
        play(state, "move San Martin hold")
        start_move(state)
        play(state, "move Revenge turn -90 run 1.00 turn 0 boats")  # upwind, the second move of light airs
        assert state.ships["Revenge"].point == (1100, 1100)


class TestRule3Sequence:
    def test_the_initiative_throw_is_two_dice_a_side_as_one_chance_outcome(self):
        """Rule 3: "each side throws two dice": every pair of totals 2-12, 7 six times as likely as 2 or 12."""
        state = position(pair())
        roll(state, 2, 2)
        outcomes = dict(state.chance_outcomes())
        assert len(outcomes) == 121 and abs(sum(outcomes.values()) - 1) < 1e-9
        assert outcomes[Roll((7, 2))] == pytest.approx(6 / 36 * 1 / 36)
        assert outcomes[Roll((12, 7))] == pytest.approx(1 / 36 * 6 / 36)

    def test_initiative_high_total_moves_first_ties_throw_again(self):
        state = position(pair())
        roll(state, 2, 2)
        roll(state, 7, 7)
        assert due(state) == ("roll", "initiative")
        events = roll(state, 5, 9)
        assert state.first == 1 and state.current_player() == 1 and state.phase == "move-first"
        assert PhaseChanged("spanish", "move", 1) in events

    def test_when_the_spaniards_win_the_initiative_the_english_move_second(self):
        state = to_movement(position(pair()), first=1)
        assert state.current_player() == 1
        events = play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert state.current_player() == 0 and state.phase == "move-second"
        assert PhaseChanged("english", "move", 1) in events
        play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert state.phase not in ("move-first", "move-second")

    def test_a_single_die_is_one_of_six_equally_likely_throws(self):
        state = to_movement(
            position(
                [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
            )
        )
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        assert due(state) == ("roll", "grapple")
        assert state.chance_outcomes() == [(Roll((v,)), pytest.approx(1 / 6)) for v in range(1, 7)]

    def test_first_player_moves_then_second_then_fire(self):
        state = to_movement(position(pair()))
        play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert state.current_player() == 1
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert state.phase not in ("move-first", "move-second")


class TestRules2And4Movement:
    def test_run_up_to_speed_and_turns_up_to_the_turn_angle(self):
        state = to_movement(position(pair()))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 8.50 turn 0")
        assert "at most 8.00" in str(error.value)
        with pytest.raises(IllegalAction) as error:  # a run astern is no run at all, not one too long
            play(state, "move Revenge turn 0 run -1.00 turn 0")
        assert error.value.rule == "rule 4" and "does not sail astern" in error.value.message
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 95 run 8.00 turn 0")
        assert error.value.rule == "rule 4"
        events = play(state, "move Revenge turn -45 run 8.00 turn 90")
        revenge = state.ships["Revenge"]
        assert (revenge.x, revenge.y, revenge.heading) == (1566, 1566, 135)
        assert Moved("Revenge", "(10.00, 10.00)", "(15.66, 15.66)", "135") in events

    def test_once_the_battle_is_over_no_ship_is_given_a_move(self):
        """English resigns before a ship has moved: the table no longer shows any ship the moves she
        would have had (the browser draws each ship's reach from these limits)."""
        def modes():
            return {entry["name"]: entry["limits"]["mode"] for entry in state.to_json()["ships"]}

        state = to_movement(position(pair()))
        assert modes() == {"Revenge": "sail", "San Martin": "sail"}
        state.apply(Resign(0), 0)
        assert state.is_terminal() and modes() == {"Revenge": "none", "San Martin": "none"}

    def test_not_closer_than_45_degrees_to_the_wind_in_medium(self):
        state = to_movement(position(pair()))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn -60 run 4.00 turn 0")  # heading 30, wind from the north
        assert (error.value.rule, error.value.message) == ("rule 2", "Revenge may not sail closer than 45 degrees to "
                                                             "the wind: a run on heading 30 lies 30 degrees off "
                                                             "the wind from the N")
        play(state, "move Revenge turn -45 run 4.00 turn 0")

    def test_every_ship_must_move_a_drift_move_in_medium(self):
        state = to_movement(position(pair()))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 0.50 turn 0")
        assert error.value.rule == "rule 2"
        play(state, "move Revenge turn 0 run 1.00 turn 0")

    def test_a_ship_whose_bow_touches_a_hull_is_stopped_by_contact_without_moving(self):
        """Rule 2: every ship moves at least a drift move "unless stopped by contact": Revenge's bow lies
        half a hundredth of an inch from San Martin's side, so she may stay where she is, and may not
        run on into her."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10.63, 10, 180, type="San Martin"),
        ]
        state = to_movement(position(ships))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 0.50 turn 0")
        assert error.value.message == "the run crosses San Martin's hull"
        play(state, "move Revenge turn 0 run 0.00 turn 0")
        assert state.ships["Revenge"].point == (1000, 1000) and state.ships["Revenge"].moved

    def test_strong_winds_double_distances(self):
        state = to_movement(position(pair(), strength="strong"))
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 0 run 1.50 turn 0")  # the drift move is 2" too
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 16.50 turn 0")
        assert "at most 16.00 inches" in error.value.message
        play(state, "move Revenge turn 0 run 16.00 turn 0")

    def test_light_airs_with_a_mast_lost_one_45_degree_turn_and_no_run(self):
        state = position(pair(), strength="light airs")
        state.ships["Revenge"].masts_lost = 1
        to_movement(state)
        for move in ("move Revenge turn 46 run 0.00 turn 0", "move Revenge turn 0 run 1.00 turn 0"):
            with pytest.raises(IllegalAction):
                play(state, move)
        events = play(state, "move Revenge turn 45 run 0.00 turn 0")
        assert state.ships["Revenge"].heading == 135 and Turned("Revenge", "(10.00, 10.00)", "135") in events

    def test_in_a_calm_a_dismasted_ship_lies_still(self):
        state = position(pair(), strength="calm")
        state.calm_moves = 1
        state.ships["Revenge"].masts_lost = 2
        to_movement(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "none" and state.current_player() == 1

    def test_in_light_airs_a_ship_too_close_to_the_wind_throws_for_rule_8(self):
        """Rule 2: in light airs a ship may not sail closer than 90 degrees to the wind; one heading 60
        degrees off it when the move begins throws for rule 8."""
        state = position(
            [ship("Revenge", "english", 10, 10, 60), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")],
            strength="light airs",
        )
        start_move(state)
        assert due(state) == ("roll", "rule8")

    def test_one_mast_lost_half_speed_and_90_degrees(self):
        state = position(pair())
        state.ships["Revenge"].masts_lost = 1
        to_movement(state)
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 0 run 4.50 turn 0")
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn -45 run 4.00 turn 0")
        assert "90 degrees" in error.value.message
        play(state, "move Revenge turn 0 run 4.00 turn 0")

    def test_light_airs_one_drift_move_and_not_closer_than_90(self):
        state = to_movement(position(pair(), strength="light airs"))
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 0 run 1.50 turn 0")
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn -10 run 1.00 turn 0")
        play(state, "move Revenge hold")  # no must-move in light airs

    def test_calm_no_move_in_the_first_move_then_a_45_degree_turn(self):
        state = to_movement(position(pair(), strength="calm"))
        assert state.phase not in ("move-first", "move-second")  # nobody can move
        state = position(pair(), strength="calm")
        state.calm_moves = 1
        to_movement(state)
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move Revenge turn 45 run 0.00 turn 0")
        assert state.ships["Revenge"].heading == 135

    def test_run_may_not_cross_another_hull_but_may_end_in_contact(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 15, 10, 0, type="San Martin")]
        state = to_movement(position(ships, wind="W"))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert error.value.message == "the run crosses San Martin's hull"
        legal = [a for a in state.legal_actions(piece="Revenge") if a.extra == "board"]
        assert legal and legal[0].run < 500

    def test_a_long_run_may_not_pass_through_a_ship_just_ahead(self):
        """Rulings, "Movement": a run may not cross a hull. In strong winds Revenge may run 16 inches,
        but not through San Cristobal lying across her track 1.5 inches ahead."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Cristobal", "spanish", 11.5, 10, 180),
            ship("San Martin", "spanish", 60, 30, 270, type="San Martin"),
        ]
        state = to_movement(position(ships, strength="strong"))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 16.00 turn 0")
        assert error.value.message == "the run crosses San Cristobal's hull"
        assert state.ships["Revenge"].point == (1000, 1000)

    @pytest.mark.parametrize(("heading", "wind", "across"), [(90, "N", (24.5, 10, 180)), (0, "W", (10, 24.5, 90))])
    def test_a_long_run_may_not_pass_through_a_ship_near_its_end(self, heading, wind, across):
        """Rulings: a run may not cross a hull; San Cristobal lies across Revenge's track 14.5 inches on,
        short of where a 16-inch run in strong winds would end."""
        ships = [
            ship("Revenge", "english", 10, 10, heading),
            ship("San Cristobal", "spanish", across[0], across[1], across[2]),
            ship("San Martin", "spanish", 60, 30, 180, type="San Martin"),
        ]
        state = to_movement(position(ships, strength="strong", wind=wind))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 16.00 turn 0")
        assert error.value.message == "the run crosses San Cristobal's hull"

    def test_a_run_may_not_pass_into_a_long_hull_whose_mainmast_lies_far_beyond_its_end(self):
        """Rulings: a run may not cross a hull, whatever the hulls' lengths (a scenario may give one):
        Revenge and San Martin with 6-inch hulls, San Martin's mainmast 13 inches ahead; an 8-inch run
        would carry Revenge's bow an inch into her stern."""
        ships = [
            ship("Revenge", "english", 10, 10, 90, length=6),
            ship("San Martin", "spanish", 23, 10, 90, type="San Martin", length=6),
        ]
        state = to_movement(position(ships))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert error.value.message == "the run crosses San Martin's hull"
        assert state.ships["Revenge"].point == (1000, 1000)

    @pytest.mark.parametrize(("hope_at", "overlaps"), [((10.24, 10.99), True), ((10.26, 11.01), False)])
    def test_a_turn_may_not_swing_a_hull_into_another_even_by_a_corner(self, hope_at, overlaps):
        """Rulings: hulls never overlap. Turning north in a calm, Revenge's starboard bow would
        overlap the larboard quarter of Hope, close off her bow, by a hundredth of an inch: refused;
        with Hope two hundredths farther off the same turn clears her."""
        ships = [
            ship("Revenge", "english", 10, 10, 45),
            ship("Hope", "english", *hope_at, 0),
            ship("San Martin", "spanish", 60, 30, 270, type="San Martin"),
        ]
        state = position(ships, strength="calm")
        state.calm_moves = 1
        to_movement(state)
        if overlaps:
            with pytest.raises(IllegalAction) as error:
                play(state, "move Revenge turn -45 run 0.00 turn 0")
            assert error.value.message == "the turn swings Revenge into Hope's hull"
        else:
            play(state, "move Revenge turn -45 run 0.00 turn 0")
            assert state.ships["Revenge"].heading == 0

    @pytest.mark.parametrize("ending", ["cut", "dishonour"])
    def test_a_ship_neither_grappled_nor_struck_may_not_cut_grapples_or_dishonour(self, ending):
        state = to_movement(position(pair()))
        with pytest.raises(IllegalAction) as error:
            play(state, f"move Revenge {ending}")
        verb = ending.split()[0]
        assert error.value.rule == ("optional rule 6" if verb == "dishonour" else "rule 12")
        assert error.value.message == f"Revenge is not grappled or surrendered; {verb} does not apply"

    def test_a_move_with_an_ending_the_rules_do_not_know_is_refused(self):
        """Rule 4's move ends only in the endings the rules give (board, tow, secure, heave to, ...): a move
        sent with any other, here ramming San Martin, is refused as bad notation and Revenge stays put."""
        state = to_movement(position(pair()))
        with pytest.raises(IllegalAction) as error:
            state.apply(Move("Revenge", 0, 100, 0, "ram", "San Martin"))
        assert (error.value.rule, error.value.message) == ("notation", "unknown move ending 'ram'")
        assert state.ships["Revenge"].point == (1000, 1000) and not state.ships["Revenge"].moved

    def test_a_move_by_end_point_and_heading_reads_as_turn_run_turn(self):
        state = to_movement(position(pair()))
        move = state.parse_action("move Revenge to 15.00 10.00 heading 120")
        assert (move.turn1, move.run, move.turn2) == (0, 500, 30)

    def test_running_off_the_table_disengages(self):
        state = to_movement(
            position(
                [ship("Revenge", "english", 70, 10, 90), ship("San Martin", "spanish", 30, 30, 270, type="San Martin")]
            )
        )
        events = play(state, "move Revenge turn 0 run 8.00 turn 0")
        assert state.ships["Revenge"].status == "disengaged"
        assert Escaped("Revenge", "(70.00, 10.00)", "table") in events  # named where she left from
        # her side has no ship left in the battle: it ends, saying what became of her, and the points decide
        assert state.outcome.reason == ("english has no ship left that can fight or move (Revenge sailed off); "
                                        "0 points each")
