"""Seed 003, rules 5 (masts), 6 (drifting, collisions, shore, heave to), 7 and 8 (in irons)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import DieRolled, Drifted, Escaped, Marked, MastLost, Turned, Wrecked

from .helpers import distant_enemy, due, play, position, roll, ship, start_move, to_movement


def end_of_move(state, *dice):
    """Skip the fire steps and throw the end-of-move dice given."""
    for value in dice:
        roll(state, value)


def revenge_marked(marker: str, heading: int):
    """Revenge alone with a marker on her (`adrift`: rule 6, `irons`: rule 7), her move's throws due."""
    state = position([ship("Revenge", "english", 10, 10, heading), distant_enemy()])
    setattr(state.ships["Revenge"], marker, True)
    start_move(state)
    return state


class TestRule5Masts:
    def test_quarter_damaged_throws_for_a_mast_at_the_end_of_the_move(self):
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = to_movement(position(ships))
        state.ships["Revenge"].flotation = 17  # 6 of 23 lost: a quarter
        play(state, "move Revenge turn 0 run 8.00 turn 0")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert due(state) == ("roll", "mast")
        events = roll(state, 3)
        assert events[:2] == [DieRolled("Revenge's masts (rule 5)", 3), MastLost("Revenge", 1)]
        assert state.ships["Revenge"].masts_lost == 1
        assert state.ships["Revenge"].marks == 1

    def test_a_ship_lost_earlier_does_not_stop_the_mast_checks_of_the_others(self):
        """Rule 5: every ship that first becomes quarter damaged throws, whatever came before her in the list."""
        ships = [
            ship("Hope", "english", 30, 10, 90, type="Hope"),
            ship("Revenge", "english", 10, 10, 90),
            distant_enemy(),
        ]
        state = to_movement(position(ships))
        state.ships["Hope"].status = "sunk"
        state.ships["Revenge"].flotation = 17  # 6 of 23 lost: a quarter
        play(state, "move Revenge turn 0 run 8.00 turn 0")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert due(state) == ("roll", "mast") and state.agenda[0][2] == "Revenge"

    def test_a_dismasted_ship_has_no_third_mast_to_lose(self):
        """Rules 2 and 5: two masts lost is dismasted; reaching three quarters then takes nothing more."""
        state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])
        revenge = state.ships["Revenge"]
        revenge.flotation, revenge.marks, revenge.masts_lost = 5, 2, 2
        to_movement(state)  # she drifts; the Spaniard moves
        events = play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert revenge.masts_lost == 2 and revenge.marks == 3
        assert not any(isinstance(e, MastLost) for e in events)

    def test_three_quarters_loses_a_mast_without_a_throw_and_two_masts_drift(self):
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = to_movement(position(ships))
        revenge = state.ships["Revenge"]
        revenge.flotation, revenge.marks, revenge.masts_lost = 5, 2, 1
        play(state, "move Revenge turn 0 run 4.00 turn 0")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert revenge.masts_lost == 2
        to_movement(state)
        assert revenge.x == 1400 and revenge.y == 900  # dismasted: drifted 1" downwind, no move of her own
        assert state.current_player() == 1


def dismasted_upwind_of_san_martin(revenge_y: float):
    """Revenge, dismasted, lies beam to beam upwind (north) of San Martin, her mainmast at `revenge_y`;
    Hope is far off. The first move's dice are due."""
    ships = [
        ship("Revenge", "english", 10, revenge_y, 90),
        ship("San Martin", "spanish", 10, 10, 90, type="San Martin"),
        ship("Hope", "english", 40, 30, 90, type="Hope"),
    ]
    state = position(ships)
    state.ships["Revenge"].masts_lost = 2
    return state


class TestRule6Drifting:
    def test_drifting_ship_strikes_another_which_drifts_until_4_to_6(self):
        state = dismasted_upwind_of_san_martin(10.8)
        to_movement(state)
        revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
        assert revenge.y == 1025 and martin.adrift  # stopped at contact, beam to beam
        assert state.current_player() == 0  # Hope moves; San Martin drifts next move
        play(state, "move Hope turn 0 run 5.00 turn 0")
        assert state.current_player() != 1 or not any(a.ship == "San Martin" for a in state.legal_actions())

    def test_drifting_onto_the_shore_wrecks(self):
        land = [{"name": "Lizard", "kind": "land", "points": [[0, 0], [30, 0], [30, 9.2], [0, 9.2]]}]
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = position(ships, land=land)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        assert state.ships["Revenge"].status == "wrecked" and Wrecked("Revenge", "Lizard") in events

    def test_drifting_onto_two_shores_at_once_wrecks_her_once_on_the_first(self):
        land = [
            {"name": "Lizard", "kind": "land", "points": [[0, 0], [10, 0], [10, 9.2], [0, 9.2]]},
            {"name": "Rame Head", "kind": "land", "points": [[10, 0], [30, 0], [30, 9.2], [10, 9.2]]},
        ]
        state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], land=land)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        assert [e for e in events if isinstance(e, Wrecked)] == [Wrecked("Revenge", "Lizard")]

    def test_drifting_off_the_table_disengages_her(self):
        """Rulings: a ship carried off the table has left the battle (disengaged), not been lost."""
        ships = [ship("Revenge", "english", 10, 0.8, 90), distant_enemy()]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        assert state.ships["Revenge"].status == "disengaged"
        assert [e for e in events if isinstance(e, Escaped)] == [Escaped("Revenge", "(10.00, -0.20)", "table")]

    @pytest.mark.parametrize(
        ("y", "land", "status"),
        [
            (0.8, [], "disengaged"),
            (10, [{"name": "Lizard", "kind": "land", "points": [[0, 0], [30, 0], [30, 9.2], [0, 9.2]]}], "wrecked"),
        ],
    )
    def test_a_burning_ship_that_drifts_out_of_the_battle_burns_no_more(self, y, land, status):
        """A ship carried off the table or onto the shore has left the battle: her fire is no longer
        checked (Nelson rule 2) and cannot spread to the ships still fighting."""
        state = position([ship("Revenge", "english", 10, y, 90), distant_enemy()], land=land)
        revenge = state.ships["Revenge"]
        revenge.masts_lost, revenge.on_fire = 2, 2
        start_move(state)
        assert due(state) == ("roll", "fire")
        roll(state, 1)  # the fire still burns when she drifts
        assert revenge.status == status and revenge.on_fire == 0

    def test_heave_to_announced_then_drifts_and_throws_4_to_6_to_sail(self):
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = to_movement(position(ships))
        play(state, "move Revenge turn 0 run 2.00 turn 0 heave-to")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        to_movement(state)
        revenge = state.ships["Revenge"]
        assert revenge.adrift and revenge.y == 900 and revenge.x == 1200
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        start_move(state)
        assert due(state) == ("roll", "resume")
        roll(state, 4)
        assert not revenge.adrift and state.current_player() == 0

    @pytest.mark.parametrize(("revenge_y", "struck"), [(11.25, True), (11.35, True), (11.36, False)])
    def test_a_full_drift_that_ends_in_contact_sets_her_drifting(self, revenge_y, struck):
        """Rule 6 ("If, in doing so, they collide with another ship, that ship starts drifting too") and the
        rulings (hulls within 0.1" are in contact): Revenge drifts her full inch south and ends touching San
        Martin's side, or 0.1" off it: she has come up against her. 0.11" off, she has not."""
        state = dismasted_upwind_of_san_martin(revenge_y)
        to_movement(state)
        assert state.ships["Revenge"].y == round(revenge_y * 100) - 100  # not stopped short
        assert state.ships["San Martin"].adrift == struck

    def test_a_drift_along_a_ships_side_does_not_collide_with_her(self):
        """Rule 6: the dismasted Revenge (heading N) drifts her inch south along San Martin's side, 0.05" off
        it all the way: she never comes up against her, and San Martin sails on."""
        ships = [
            ship("Revenge", "english", 10, 10, 0),
            ship("San Martin", "spanish", 10.3, 9.5, 180, type="San Martin"),
        ]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        to_movement(state)
        assert state.ships["Revenge"].point == (1000, 900) and not state.ships["San Martin"].adrift

    def test_a_ship_already_against_another_downwind_cannot_drift_and_sets_her_drifting(self):
        """Rule 6: Revenge lies against San Martin's side, upwind of her: she does not move at all, and
        San Martin, struck, drifts too."""
        state = dismasted_upwind_of_san_martin(10.25)
        events = start_move(state)
        assert state.ships["Revenge"].point == (1000, 1025) and state.ships["San Martin"].adrift
        assert not any(isinstance(e, Drifted) for e in events)

    @pytest.mark.parametrize(("wind", "end"), [("SW", "(10.71, 10.71)"), ("W", "(11.00, 10.00)")])
    def test_a_dismasted_ship_drifts_straight_downwind(self, wind, end):
        """Rule 2: a dismasted ship drifts one drift move downwind: from the south-west to the north-east."""
        ships = [
            ship("Revenge", "english", 10, 10, 0),
            ship("Hope", "english", 10, 12, 0, type="Hope"),
            ship("San Martin", "spanish", 60, 30, 180, type="San Martin"),
        ]
        state = position(ships, wind=wind)
        state.ships["Revenge"].masts_lost = state.ships["Hope"].masts_lost = 2
        events = start_move(state)
        assert Drifted("Revenge", "(10.00, 10.00)", end, "is dismasted and drifts (rule 2)") in events

    def test_in_a_westerly_the_most_easterly_ship_drifts_first(self):
        """Rule 6 in a wind from the west: Hope, 0.8" east of Revenge and a little south, drifts first,
        so both drift their full inch."""
        ships = [
            ship("Revenge", "english", 10, 10, 0),
            ship("Hope", "english", 10.8, 9.7, 0, type="Hope"),
            ship("San Martin", "spanish", 60, 30, 180, type="San Martin"),
        ]
        state = position(ships, wind="W")
        state.ships["Revenge"].masts_lost = state.ships["Hope"].masts_lost = 2
        events = start_move(state)
        assert [e for e in events if isinstance(e, Drifted)] == [
            Drifted("Hope", "(10.80, 9.70)", "(11.80, 9.70)", "is dismasted and drifts (rule 2)"),
            Drifted("Revenge", "(10.00, 10.00)", "(11.00, 10.00)", "is dismasted and drifts (rule 2)"),
        ]

    def test_the_most_downwind_ship_drifts_first_so_a_line_of_dismasted_ships_all_drift_clear(self):
        # Hope lies 0.8" downwind (south) of Revenge, a little west of her: Revenge, drifting first,
        # would stop against Hope; Hope going first leaves room for both to drift their full inch
        ships = [
            ship("Revenge", "english", 10.3, 10.8, 90),
            ship("Hope", "english", 10, 10, 90, type="Hope"),
            distant_enemy(),
        ]
        state = position(ships)
        state.ships["Revenge"].masts_lost = state.ships["Hope"].masts_lost = 2
        events = start_move(state)
        drifted = [e for e in events if isinstance(e, Drifted)]
        assert drifted == [
            Drifted("Hope", "(10.00, 10.00)", "(10.00, 9.00)", "is dismasted and drifts (rule 2)"),
            Drifted("Revenge", "(10.30, 10.80)", "(10.30, 9.80)", "is dismasted and drifts (rule 2)"),
        ]
        assert not state.ships["Hope"].adrift  # nobody struck her

    def test_a_grappled_pair_drifts_together_one_drift_move(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 10.3, 90, type="San Martin")]
        state = position(ships)
        state.ships["Revenge"].grappled, state.ships["San Martin"].grappled = "San Martin", "Revenge"
        events = start_move(state)
        assert [e for e in events if isinstance(e, Drifted)] == [
            Drifted("Revenge", "(10.00, 10.00)", "(10.00, 9.00)", "drifts grappled to San Martin (rule 12)"),
            Drifted("San Martin", "(10.00, 10.30)", "(10.00, 9.30)", "drifts grappled to Revenge (rule 12)"),
        ]
        assert (state.ships["San Martin"].x, state.ships["San Martin"].y) == (1000, 930)

    def test_a_dismasted_ship_upwind_of_a_grappled_pair_drifts_too(self):
        """Rule 6: every drifting ship drifts, the grappled pair as one group and the dismasted White
        Bear further upwind after them."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10, 10.3, 90, type="San Martin"),
            ship("White Bear", "english", 30, 20, 90, type="White Bear"),
        ]
        state = position(ships)
        state.ships["Revenge"].grappled, state.ships["San Martin"].grappled = "San Martin", "Revenge"
        state.ships["White Bear"].masts_lost = 2
        events = start_move(state)
        assert [e.piece for e in events if isinstance(e, Drifted)] == ["Revenge", "San Martin", "White Bear"]
        assert (state.ships["White Bear"].x, state.ships["White Bear"].y) == (3000, 1900)

    def test_a_drift_that_clips_a_hull_with_its_corner_stops_at_contact(self):
        # Strong wind: the dismasted Revenge (heading N) drifts 2" south; Hope's stern lies across the
        # last quarter inch of her path, off to the east, so only the corners meet
        ships = [
            ship("Revenge", "english", 10, 10, 0),
            ship("Hope", "english", 10.6, 7.4, 90, type="Hope"),
            distant_enemy(),
        ]
        state = position(ships, strength="strong")
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        revenge = state.ships["Revenge"]
        assert 800 < revenge.y < 805 and revenge.x == 1000  # stopped in contact, not through her
        assert state.ships["Hope"].adrift
        assert Marked("Hope", "is struck by drifting Revenge and drifts", "rule 6") in events

    def test_a_ship_struck_by_a_drifting_ship_is_told_that_she_drifts(self):
        ships = [ship("Revenge", "english", 10, 10.8, 90), ship("San Martin", "spanish", 10, 10, 90, type="San Martin")]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        assert Drifted("Revenge", "(10.00, 10.80)", "(10.00, 10.25)", "is dismasted and drifts (rule 2)") in events
        assert Marked("San Martin", "is struck by drifting Revenge and drifts", "rule 6") in events

    def test_a_grappled_pair_drifting_its_full_inch_strikes_a_ship_below_each(self):
        """Rule 6: the pair drifts its full inch and each ends in contact (0.05" off) with a ship of her
        own below her: both are struck, each told by the ship that came up against her."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 13, 10, 90, type="San Martin"),
                 ship("Hope", "english", 10, 8.7, 90, type="Hope"),
                 ship("Swallow", "english", 13, 8.7, 90, type="Hope")]
        state = position(ships)
        state.ships["Revenge"].grappled, state.ships["San Martin"].grappled = "San Martin", "Revenge"
        events = start_move(state)
        assert [e.describe() for e in events if isinstance(e, Marked)] == [
            "Hope is struck by drifting Revenge and drifts (rule 6)",
            "Swallow is struck by drifting San Martin and drifts (rule 6)",
        ]
        assert state.ships["San Martin"].point == (1300, 900)

    @pytest.mark.parametrize("revenge_y", [10.8, 10.51])
    def test_a_drift_stops_in_contact_to_the_hundredth_anywhere_on_the_table(self, revenge_y):
        """Rule 6: away from the table's diagonal (x 30, y 10) the drift stops where the hulls touch,
        exactly (10.25, a hundredth short or over would part them or cross), from a full inch above
        or from 0.26" beyond it, and San Martin is struck."""
        ships = [ship("Revenge", "english", 30, revenge_y, 90),
                 ship("San Martin", "spanish", 30, 10, 90, type="San Martin")]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        (drift,) = [e for e in events if isinstance(e, Drifted)]
        assert drift.destination == "(30.00, 10.25)" and state.ships["San Martin"].adrift

    @pytest.mark.parametrize("swallow_y", [10, 9.9])
    def test_a_drift_that_comes_up_against_two_ships_sets_both_drifting(self, swallow_y):
        """Rule 6 and the rulings ("in contact" = hulls within 0.1"): Revenge (1" long, heading E)
        drifts south onto Hope and Swallow lying end to end below her, Swallow level with Hope or 0.1"
        lower, in contact with her where she stops: both are set drifting."""
        ships = [
            ship("Revenge", "english", 10, 10.8, 90),
            ship("Hope", "english", 9.5, 10, 90, type="Hope"),
            ship("Swallow", "english", 10.5, swallow_y, 90, type="Hope"),
            distant_enemy(),
        ]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        events = start_move(state)
        assert Drifted("Revenge", "(10.00, 10.80)", "(10.00, 10.25)", "is dismasted and drifts (rule 2)") in events
        for struck in ("Hope", "Swallow"):
            assert state.ships[struck].adrift
            assert Marked(struck, "is struck by drifting Revenge and drifts", "rule 6") in events

    def test_in_a_calm_a_drifting_ship_lies_still_even_with_the_shore_against_her(self):
        """Rule 6 and the rulings (a drift move is 0 in a calm: "ships themselves do not drift in a
        calm"): in light airs Revenge runs south until her bow touches the Lizard and heaves to; the wind
        falls calm, and drifting, she lies where she is, not wrecked."""
        shore = [{"name": "Lizard", "kind": "land", "points": [[0, 0], [30, 0], [30, 10], [0, 10]]}]
        ships = [ship("Revenge", "english", 10, 11, 180), distant_enemy()]
        state = to_movement(position(ships, strength="light airs", land=shore))
        play(state, "move Revenge turn 0 run 0.50 turn 0 heave-to")
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        assert due(state) == ("roll", "wind")
        events = roll(state, 2, 6) + roll(state, 1)  # the wind falls calm
        assert state.to_json()["wind"]["strength_name"] == "calm"
        events += roll(state, 9, 4)
        revenge = state.ships["Revenge"]
        assert revenge.adrift and revenge.status == "afloat" and revenge.point == (1000, 1050)
        assert not any(isinstance(e, (Drifted, Wrecked)) for e in events)

    def test_a_grappled_pair_drifting_onto_a_ship_stops_together_and_strikes_only_her(self):
        """Rule 6: a grappled pair drifts as one: Revenge, the more downwind, comes up against Hope a
        quarter inch below her and San Martin stops with her, still alongside; Hope is struck and
        drifts, and neither of the pair is set drifting by the other."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10, 10.3, 90, type="San Martin"),
            ship("Hope", "english", 10, 9.5, 90, type="Hope"),
        ]
        state = position(ships)
        state.ships["Revenge"].grappled, state.ships["San Martin"].grappled = "San Martin", "Revenge"
        events = start_move(state)
        assert [e for e in events if isinstance(e, Drifted)] == [
            Drifted("Revenge", "(10.00, 10.00)", "(10.00, 9.75)", "drifts grappled to San Martin (rule 12)"),
            Drifted("San Martin", "(10.00, 10.30)", "(10.00, 10.05)", "drifts grappled to Revenge (rule 12)"),
        ]
        assert [e for e in events if isinstance(e, Marked)] == [
            Marked("Hope", "is struck by drifting Revenge and drifts", "rule 6")
        ]
        assert state.ships["Hope"].adrift
        assert not state.ships["Revenge"].adrift and not state.ships["San Martin"].adrift

    def test_a_drift_onto_a_surrendered_ship_does_not_set_her_drifting(self):
        """Rule 6 with optional rule 6: San Juan has surrendered; she lies where she is, a hull in the
        way. Revenge, dismasted, drifts onto her and stops, but only a fighting ship is set drifting
        (San Martin fights on far off)."""
        ships = [
            ship("Revenge", "english", 10, 10.8, 90),
            ship("San Juan", "spanish", 10, 10, 90, type="San Cristobal"),
            distant_enemy(),
        ]
        state = position(ships, options={"prizes": True})
        state.ships["Revenge"].masts_lost = 2
        san_juan = state.ships["San Juan"]
        san_juan.status, san_juan.captor = "surrendered", 0
        events = start_move(state)
        assert Drifted("Revenge", "(10.00, 10.80)", "(10.00, 10.25)", "is dismasted and drifts (rule 2)") in events
        assert not san_juan.adrift and san_juan.point == (1000, 1000)
        assert not any(isinstance(e, Marked) for e in events)

    def test_a_drifting_ship_throwing_3_drifts_on(self):
        state = revenge_marked("adrift", 90)
        assert due(state) == ("roll", "resume")
        events = roll(state, 3)
        assert events[0] == DieRolled("Revenge to sail again (rule 6)", 3)
        drifting = Drifted("Revenge", "(10.00, 10.00)", "(10.00, 9.00)", "is drifting until it throws 4-6 (rule 6)")
        assert state.ships["Revenge"].adrift and drifting in events
        assert not any(isinstance(e, Marked) and e.piece == "Revenge" for e in events)

    def test_a_drifting_ship_throwing_4_is_shown_sailing_again(self):
        state = revenge_marked("adrift", 90)
        events = roll(state, 4)
        assert events[:2] == [
            DieRolled("Revenge to sail again (rule 6)", 4),
            Marked("Revenge", "sails again", "rule 6"),
        ]
        assert not any(isinstance(e, Drifted) for e in events)


class TestRules7And8Irons:
    def test_ending_closer_than_permitted_puts_a_ship_in_irons(self):
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = to_movement(position(ships))
        events = play(state, "move Revenge turn -45 run 4.00 turn -30")  # ends heading 15, wind from the north
        assert state.ships["Revenge"].irons and Marked("Revenge", "in irons", "rule 7") in events

    def test_in_irons_throws_5_or_6_for_one_turn_which_frees_her_if_permitted(self):
        state = revenge_marked("irons", 15)
        assert due(state) == ("roll", "irons")
        roll(state, 5)
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 30 run 1.00 turn 0")
        play(state, "move Revenge turn 60 run 0.00 turn 0")
        assert not state.ships["Revenge"].irons and state.ships["Revenge"].heading == 75

    def test_in_irons_a_5_allows_one_turn_and_no_second(self):
        """Rule 7: "a 5 or 6 allows one turn": Revenge may not turn twice, even without running."""
        state = revenge_marked("irons", 15)
        roll(state, 5)
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 30 run 0.00 turn 30")
        assert error.value.rule == "rule 7" and "may only turn this move" in error.value.message
        assert state.ships["Revenge"].heading == 15 and not state.ships["Revenge"].moved

    def test_in_irons_a_turn_that_stays_too_close_to_the_wind_leaves_her_in_irons(self):
        """Rule 7: her one turn frees her only if it brings her 45 degrees off the wind; a 22 degree turn
        from 15 leaves her 37 off: still in irons."""
        state = revenge_marked("irons", 15)
        roll(state, 5)
        events = play(state, "move Revenge turn 22 run 0.00 turn 0")
        assert state.ships["Revenge"].heading == 37 and state.ships["Revenge"].irons
        assert Marked("Revenge", "out of irons", "rule 7") not in events

    def test_in_irons_a_turn_to_exactly_45_degrees_off_the_wind_frees_her_and_spends_the_turn(self):
        """Rules 2 and 7: 45 degrees off the wind is as close as she may sail in a medium wind, so her one
        turn (30 degrees, from 15 to 45) frees her; the turn the 5 allowed is spent with her move."""
        state = revenge_marked("irons", 15)
        roll(state, 5)
        events = play(state, "move Revenge turn 30 run 0.00 turn 0")
        revenge = state.ships["Revenge"]
        assert Marked("Revenge", "out of irons", "rule 7") in events
        assert revenge.heading == 45 and not revenge.irons and not revenge.irons_turn

    def test_in_irons_the_turns_to_either_permitted_limit_are_offered(self):
        """Rule 7: the one turn out of irons; the moves offered include the turns that bring her to 45
        degrees off the wind on either tack (heading 15: 30 to starboard, 60 to port)."""
        state = revenge_marked("irons", 15)
        roll(state, 5)
        turns = {m.turn1 for m in state.legal_actions() if m.ship == "Revenge"}
        assert {30, -60} <= turns and turns <= {-90, -60, -45, -23, 0, 22, 30, 45, 90}

    def test_in_a_calm_the_turn_out_of_irons_seeks_no_wind_limit(self):
        """Rule 7 in a calm, which sets no wind limit (rulings: no wind limit and no irons in a calm): any
        one turn frees her; her turn limits and half turns are offered, and no turn toward a limit that
        is not there (such as the one that would lay her head to wind)."""
        state = position([ship("Revenge", "english", 10, 10, 15), distant_enemy()], strength="calm")
        state.ships["Revenge"].irons = True
        start_move(state)
        roll(state, 5)
        assert {m.turn1 for m in state.legal_actions() if m.ship == "Revenge"} == {-90, -45, 0, 45, 90}

    def test_wind_shift_rule_8_one_or_two_irons_else_turn_away_on_the_same_tack(self):
        ships = [ship("Revenge", "english", 10, 10, 60), distant_enemy()]
        state = position(ships)
        roll(state, 6, 2)
        roll(state, 3)  # the wind veers to the north-east: Revenge, heading 60, is 15 off
        roll(state, 9, 4)
        assert due(state) == ("roll", "rule8")
        roll(state, 4)
        assert state.ships["Revenge"].heading == 90 and not state.ships["Revenge"].irons
        state = position(ships)
        roll(state, 6, 2)
        roll(state, 3)
        roll(state, 9, 4)
        roll(state, 2)
        assert state.ships["Revenge"].irons

    def test_in_irons_a_4_gives_no_turn_and_she_drifts(self):
        state = revenge_marked("irons", 15)
        events = roll(state, 4)
        assert events[0] == DieRolled("Revenge in irons (rule 7)", 4)
        assert Drifted("Revenge", "(10.00, 10.00)", "(10.00, 9.00)", "is in irons and drifts (rule 7)") in events
        assert not any(isinstance(e, Marked) and e.piece == "Revenge" for e in events)
        assert not any(a.ship == "Revenge" for a in state.legal_actions())
        # and the table says why she lies still, as the prompt does when she is named in her side's move
        assert state.to_json()["ships"][0]["limits"]["why"] == "is in irons and drifts (rule 7)"

    def test_in_irons_named_in_her_sides_move_she_is_told_why_she_waits(self):
        state = position([ship("Revenge", "english", 10, 10, 15), ship("Hope", "english", 10, 20, 90),
                          distant_enemy()])
        state.ships["Revenge"].irons = True
        start_move(state)
        roll(state, 4)  # no turn allowed: she drifts, and Hope sails
        assert due(state) == ("decide", "move") and state.current_player() == 0
        waits = state.idle_reason("revenge", 0)
        assert (waits.rule, waits.message) == ("rule 7", "Revenge is in irons and drifts")
        assert state.idle_reason("Hope", 0) is None

    def test_in_irons_a_5_is_shown_as_one_turn_allowed(self):
        state = revenge_marked("irons", 15)
        events = roll(state, 5)
        assert events[:2] == [
            DieRolled("Revenge in irons (rule 7)", 5),
            Marked("Revenge", "may make one turn", "rule 7"),
        ]

    @staticmethod
    def caught_by_the_wind(heading, value, extra=()):
        """Wind from the north from the start: a ship heading within 45 degrees of it throws for rule 8."""
        ships = [ship("Revenge", "english", 10, 10, heading), *extra, distant_enemy()]
        state = position(ships)
        start_move(state)
        assert due(state) == ("roll", "rule8")
        return state, roll(state, value)

    def test_rule_8_a_3_pays_off_to_the_limit_and_shows_the_turn(self):
        state, events = self.caught_by_the_wind(20, 3)
        revenge = state.ships["Revenge"]
        assert revenge.heading == 45 and not revenge.irons
        assert events[:2] == [
            DieRolled("Revenge caught by the wind (rule 8)", 3),
            Turned("Revenge", "(10.00, 10.00)", "45"),
        ]

    def test_rule_8_a_2_is_shown_in_irons(self):
        state, events = self.caught_by_the_wind(20, 2)
        assert state.ships["Revenge"].irons and state.ships["Revenge"].heading == 20
        assert events[:2] == [
            DieRolled("Revenge caught by the wind (rule 8)", 2),
            Marked("Revenge", "in irons", "rule 8"),
        ]

    def test_rule_8_on_the_other_tack_pays_off_to_315(self):
        state, _ = self.caught_by_the_wind(340, 5)
        assert state.ships["Revenge"].heading == 315

    def test_rule_8_exactly_head_to_wind_pays_off_clockwise(self):
        state, _ = self.caught_by_the_wind(0, 6)  # a ruling: no tack to keep, so clockwise
        assert state.ships["Revenge"].heading == 45

    def test_rule_8_no_room_to_pay_off_leaves_her_in_irons(self):
        # Hope lies close on Revenge's starboard bow: swinging to 45 would put Revenge's bow into her
        hope = ship("Hope", "english", 10.5, 10.2, 180, type="Hope")
        state, events = self.caught_by_the_wind(10, 4, [hope])
        revenge = state.ships["Revenge"]
        assert revenge.irons and revenge.heading == 10
        assert Marked("Revenge", "in irons: no room to pay off", "rule 8") in events
