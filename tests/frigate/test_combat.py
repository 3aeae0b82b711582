"""Seed 001, COMBAT 1, 3 and 4 and Multi-ship combat: voluntary attacks, one attack per side, two-sided
fire, fields and lines of fire, raking, chase guns, two targets, the nearest-target option, crew
damage; with the reconstructed odds, CRT and hit kinds."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.events import Captured, Crippled, DieRolled, Dismasted, Fired, Hit, Sunk
from quarterdeck.games.frigate import combat
from quarterdeck.games.frigate.actions import Fire, Hold, Move, Pass, Roll
from quarterdeck.games.frigate.scenario import parse_tables, standard_tables_data

from .helpers import battle, hold_to_segment_end, hold_windows, near, quiet_turn, ship, to_movement, to_windows

FRIGATE = {"class": "frigate"}


def close_action(**kw):
    """Essex (44, GS 6) facing north at 1010; Guerriere (38, GS = DS = 5) on her starboard beam."""
    return battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                  ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE), **kw)


class TestConditionsOfCombat:
    def test_attacking_is_voluntary(self):
        state = to_windows(close_action(), Essex=0, Guerriere=0)
        assert state.windows == ["Essex", "Guerriere"]
        assert Fire("Essex", "starboard", "Guerriere", "hull") in state.legal_actions(0)
        state.apply(Hold("Essex"), 0)
        state.apply(Pass("Guerriere"), 1)
        assert not state.pending and not state.ships["Essex"].fired

    def test_a_first_rate_reaches_ten_hexes(self):
        state = battle(ship("Victory", "blue", 120, "0510", "N", 0), ship("Sloop", "red", 20, "1510", "N", 0))
        assert [f.target for f in combat.fire_options(state, state.ships["Victory"]) if f.aim == "hull"] == ["Sloop"]

    def test_with_crew_hits_her_first_broadside_of_the_turn_is_at_full_strength(self):
        """Seed, Combat 1c: with crew hits she fires one side only, but that side at full strength."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1310", "N", 0, **FRIGATE))
        essex = state.ships["Essex"]
        essex.crew = 1  # 6 halved for range is 3, two thirds of it 2: the 1-3 column against 5
        assert {f.target for f in combat.fire_options(state, essex)} == {"Guerriere"}

    def test_an_enemy_far_off_takes_nothing_from_one_in_reach(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE), ship("Distant", "red", 20, "3401", "S"))
        assert {f.target for f in combat.fire_options(state, state.ships["Essex"])} == {"Guerriere"}

    def test_one_attack_from_each_side_a_turn(self):
        state = to_windows(close_action(), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((1,)))  # a miss
        assert state.windows[0] == "Guerriere"  # Essex has nothing left to fire at: her window closed
        state.apply(Hold("Guerriere"), 1)
        state.windows.insert(0, "Essex")  # even with a window open for her
        with pytest.raises(IllegalAction) as error:
            state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        assert error.value.rule == "one-attack-per-side"
        assert state.ships["Essex"].fired == {"starboard"}

    def test_both_sides_full_only_in_the_first_turn_of_firing(self):
        state = close_action()
        essex = state.ships["Essex"]
        state.turn = 3
        essex.fired = frozenset({"port"})
        essex.first_fire_turn = 3
        assert combat.second_side_half(state, essex) is False  # the turn she first fired
        essex.first_fire_turn = 2
        assert combat.second_side_half(state, essex) is True  # later turns: the second side at half
        attack = combat.describe_attack(state, essex, "starboard", state.ships["Guerriere"])
        assert attack.half and attack.gunnery == 3  # 6 // 2

    def test_after_the_turn_she_first_fires_her_second_side_is_at_half_strength(self):
        """Seed, Combat 1c, played out: "each side may fire at full strength during one Game-Turn if
        neither side has yet fired"; in the next turn one side full, the other at half (6 -> 3)."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("East", "red", 38, "1209", "N", 0), ship("West", "red", 38, "0809", "N", 0))
        gunnery = []
        for _ in range(2):
            to_windows(state, Essex=0, East=0, West=0)
            for battery, target in (("starboard", "East"), ("port", "West")):
                state.apply(Fire("Essex", battery, target, "hull"), 0)
                gunnery.append(state.to_json()["attack"]["gunnery"])
                state.apply(Roll((1,)))  # a miss
            quiet_turn(state)
        assert gunnery == [6, 6, 6, 3]

    def test_a_crew_hit_leaves_one_side_only(self):
        state = close_action()
        essex = state.ships["Essex"]
        essex.crew, essex.fired = 1, frozenset({"port"})
        assert combat.battery_problem(state, essex, "starboard")[0] == "crew-hits"
        essex.crew = 0  # all crew hits repaired: two-sided fire restored
        assert combat.battery_problem(state, essex, "starboard") is None


class TestFireTypedWithoutItsBattery:
    """Notation: `fire <ship> [at] <target> [hull|rigging]` is the one attack on that target open to her
    now; where her broadside needs an aim, or no attack is open, she is told so and nothing fires."""

    def alongside(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Bellona", "red", 74, "1310", "N", 0))
        return to_windows(state, Essex=0, Bellona=0)

    @pytest.mark.parametrize("text", ["fire Essex at Bellona hull", "fire Essex bellona HULL"])
    def test_the_broadside_that_bears_is_found(self, text):
        assert self.alongside().parse_action(text) == Fire("Essex", "starboard", "Bellona", "hull")

    @pytest.mark.parametrize("text", ["fire Essex at Bellona", "fire Essex Bellona"])
    def test_a_broadside_without_its_aim_is_asked_for_one(self, text):
        with pytest.raises(NotationError) as error:
            self.alongside().parse_action(text)
        assert error.value.field == "aim"
        assert error.value.message == "aim at the hull or the rigging: fire Essex at Bellona hull|rigging"

    def test_the_chasers_need_no_aim(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        assert state.parse_action("fire Essex at Ahead") == Fire("Essex", "bow", "Ahead")

    def test_a_ship_with_no_attack_open_is_told_and_nothing_fires(self):
        state = self.alongside()
        with pytest.raises(NotationError) as error:
            state.parse_action("fire Bellona at Essex hull")  # blue's window: red's turn to fire is not yet
        assert error.value.field == "battery" and error.value.message.endswith("of her batteries none may fire "
                                                                               "at Essex now")
        assert not state.ships["Bellona"].fired
        with pytest.raises(NotationError) as error:
            state.parse_action("fire Essex at Bellona hull now")
        assert error.value.field == "arguments"


class TestFieldsAndLinesOfFire:
    def test_broadsides_bear_abeam_chasers_ahead_and_astern(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Ahead", "red", 38, "1007", "S", 0), ship("Abeam", "red", 38, "1209", "N", 0))
        essex, ahead, abeam = (state.ships[n] for n in ("Essex", "Ahead", "Abeam"))
        assert combat.target_problem(state, essex, "starboard", abeam) is None
        assert combat.target_problem(state, essex, "starboard", ahead)[0] == "field-of-fire"
        assert combat.target_problem(state, essex, "bow", ahead) is None
        assert combat.target_problem(state, essex, "port", abeam)[0] == "field-of-fire"

    def test_bow_and_stern_chasers_each_offer_their_own_target(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Ahead", "red", 38, "1007", "S", 0), ship("Astern", "red", 38, "1013", "N", 0))
        offered = {(f.battery, f.target) for f in combat.fire_options(state, state.ships["Essex"])}
        assert offered == {("bow", "Ahead"), ("stern", "Astern")}

    def test_a_ship_on_the_line_blocks_it(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Far", "red", 38, "1410", "N", 0), ship("Between", "red", 20, "1210", "N", 0))
        essex = state.ships["Essex"]
        # 1010 -> 1410 runs due east through 1210's centre.
        assert combat.target_problem(state, essex, "starboard", state.ships["Far"])[0] == "line-of-fire"
        assert combat.target_problem(state, essex, "starboard", state.ships["Between"]) is None

    def test_broadsides_reach_ten_hexes_and_chasers_seven(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1002", "S", 0))
        essex, ahead = state.ships["Essex"], state.ships["Ahead"]
        assert combat.target_problem(state, essex, "bow", ahead)[0] == "range"  # 8 hexes
        ahead.hex = state.grid.parse("1003")
        assert combat.target_problem(state, essex, "bow", ahead) is None


class TestWhoMayBeFiredOn:
    def test_never_a_ship_of_her_own_side(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Wasp", "blue", 20, "0809", "N", 0),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE))
        to_windows(state, Essex=0, Wasp=0, Guerriere=0)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Fire("Essex", "port", "Wasp", "hull"), 0)
        assert refused.value.rule == "target" and not state.ships["Essex"].fired

    def test_afoul_she_fires_only_at_the_ship_alongside(self):
        """Seed, Movement 6 c: ships afoul may fire only at each other."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "1209", "N", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0, Java=0)
        state.apply(Move("Essex"), 0)  # aboard Guerriere from astern
        state.windows.insert(0, "Essex")
        with pytest.raises(IllegalAction) as refused:
            state.apply(Fire("Essex", "starboard", "Java", "hull"), 0)
        assert refused.value.rule == "afoul" and "may fire at her only" in str(refused.value)

    def test_afoul_she_fires_point_blank_whatever_the_tables_make_of_one_hex(self):
        """Ships afoul share a hex: their fire is at range 0. With a player's tables where guns do
        nothing beyond it, she may still fire at the ship alongside."""
        data = standard_tables_data()
        data["combat"]["range_factors"] = [[0, 0, 1, 1], [1, 10, 0, 1]]
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"), tables=data)
        to_movement(state, Essex=4, Guerriere=0)
        state.apply(Move("Essex"), 0)  # aboard Guerriere from astern
        essex = state.ships["Essex"]
        assert essex.afoul == "Guerriere"
        assert {f.target for f in combat.fire_options(state, essex)} == {"Guerriere"}

    def test_a_withdrawing_force_fires_only_at_ships_that_fired_on_her(self):
        """Preservation Level (standard): a force over its level withdraws and fires only at ships that
        fired on it."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "1209", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "0910", "N", 0, **FRIGATE))  # alongside to port
        state.force_state[0].withdrawing = True
        to_windows(state, Essex=0, Java=0, Guerriere=0)
        assert state.windows == ["Java", "Guerriere"]  # Essex has no one she may fire at yet
        state.apply(Fire("Java", "port", "Essex", "hull"), 1)
        state.apply(Roll((1,)))
        state.apply(Hold("Guerriere"), 1)
        assert state.end_round and state.windows[0] == "Essex"
        assert {a.target for a in state.legal_actions(0) if isinstance(a, Fire)} == {"Java"}
        with pytest.raises(IllegalAction) as refused:
            state.apply(Fire("Essex", "port", "Guerriere", "hull"), 0)
        assert refused.value.rule == "preservation"


class TestRaking:
    def test_bow_rake_rounds_a_half_to_the_even_number(self):
        tables = close_action().tables
        assert combat.gunnery_strength(tables, 5, False, 1, "bow", 0) == 8  # 7.5 -> 8
        assert combat.gunnery_strength(tables, 7, False, 1, "bow", 0) == 10  # 10.5 -> 10
        assert combat.gunnery_strength(tables, 6, False, 1, "bow", 0) == 9

    def test_stern_rake_rounds_to_the_nearest(self):
        tables = close_action().tables
        assert combat.gunnery_strength(tables, 6, False, 1, "stern", 0) == 10
        assert combat.gunnery_strength(tables, 5, False, 1, "stern", 0) == 8  # 8.33
        assert combat.gunnery_strength(tables, 4, False, 1, "stern", 0) == 7  # 6.67

    def test_a_broadside_from_astern_rakes_her(self):
        state = battle(ship("Essex", "blue", 44, "1010", "NW", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE))
        to_windows(state, Essex=0, Guerriere=0)
        (battery,) = {a.battery for a in state.legal_actions(0) if isinstance(a, Fire)}
        attack = combat.describe_attack(state, state.ships["Essex"], battery, state.ships["Guerriere"])
        assert (attack.rake, attack.gunnery) == ("stern", 10)  # 6 x 5/3

    @pytest.mark.parametrize(("facing", "bow", "stern"), [("NE", "1109", "0910"), ("SE", "1110", "0909"),
                                                           ("SW", "0910", "1109")])
    def test_the_bow_and_stern_hexes_follow_her_heading(self, facing, bow, stern):
        state = battle(ship("Essex", "blue", 44, bow, "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", facing, 0))
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert near(state, "Guerriere", facing) == bow
        assert combat.rake_of(essex, guerriere) == "bow"
        essex.hex = state.grid.parse(stern)
        assert combat.rake_of(essex, guerriere) == "stern"

    def test_a_rake_lets_a_small_ship_fire_where_her_broadside_alone_could_do_nothing(self):
        # A 12-gun ship (GS 2) against a 74 (DS 9): 2-9 is off the table, raked from astern 3-9 is 1-3.
        state = battle(ship("Sloop", "blue", 12, "1011", "NE", 0), ship("Bellona", "red", 74, "1010", "N", 0))
        sloop = state.ships["Sloop"]
        assert {(f.battery, f.target) for f in combat.fire_options(state, sloop)} == {("port", "Bellona")}
        sloop.hex = state.grid.parse("0911")  # off her quarter, not in the hex astern: no rake
        state.moved()
        assert combat.rake_of(sloop, state.ships["Bellona"]) == ""
        assert not [f for f in combat.fire_options(state, sloop) if f.battery in ("port", "starboard")]

    def test_raking_only_from_the_hex_at_the_bow_or_stern(self):
        state = battle(ship("Essex", "blue", 44, "1008", "NE", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0))
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert combat.rake_of(essex, guerriere) == "bow"  # Essex lies in the hex off Guerriere's bow
        essex.hex = state.grid.parse("1010")
        assert combat.rake_of(essex, guerriere) == "stern"
        essex.hex = state.grid.parse("1109")
        assert combat.rake_of(essex, guerriere) == ""


class TestCrewDamage:
    def test_thirds_after_raking(self):
        tables = close_action().tables
        assert combat.gunnery_strength(tables, 9, False, 1, "stern", 1) == 10  # 15 x 2/3
        assert combat.gunnery_strength(tables, 9, False, 1, "stern", 2) == 5  # 15 x 1/3
        assert combat.gunnery_strength(tables, 4, False, 1, "", 1) == 3  # 2.67 -> 3

    def test_three_crew_hits_silence_chasers_one_or_two_do_not(self):
        state = close_action()
        essex = state.ships["Essex"]
        essex.crew = 2
        assert combat.battery_problem(state, essex, "bow") is None
        essex.crew = 3
        assert combat.battery_problem(state, essex, "bow")[0] == "crew-hits"
        assert combat.battery_problem(state, essex, "port")[0] == "crippled"

    def test_the_third_crew_hit_cripples_her_but_gunfire_takes_no_prize(self):
        """Reconstructed: three crew hits cripple a ship (no broadsides; she may be taken by entering
        her hex or by boarding). One short of three cripples nothing, and a ship crippled by gunfire
        keeps her colours."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Constellation", "blue", 44, "1409", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE))  # between them, 2 hexes off
        guerriere = state.ships["Guerriere"]
        guerriere.crew = 1
        to_windows(state, Essex=0, Constellation=0, Guerriere=0)
        landed = []
        for firer, battery in (("Essex", "starboard"), ("Constellation", "port")):  # segments 1 and 2
            state.apply(Fire(firer, battery, "Guerriere", "hull"), 0)
            state.apply(Roll((5,)))  # 1-1: a 5 is a hit
            state.apply(Roll((4,)))  # aimed at the hull, a 4 strikes the crew
            landed.append(hold_to_segment_end(state))
        assert Hit("Guerriere", 1, "to her crew", "hull hits 0 of 6, crew 2, guns 0, masts 0") in landed[0]
        assert not any(isinstance(e, Crippled) for e in landed[0])
        assert Crippled("Guerriere", "1209") in landed[1] and not any(isinstance(e, Captured) for e in landed[1])
        assert guerriere.crew == 3 and guerriere.owner == 1


class TestGunHits:
    def test_each_gun_hit_costs_a_point_of_gunnery_strength(self):
        """Reconstructed: each gun hit takes 1 from the broadside's Gunnery Strength."""
        state = close_action()
        essex = state.ships["Essex"]
        essex.guns = 2
        attack = combat.describe_attack(state, essex, "starboard", state.ships["Guerriere"])
        assert (attack.base, attack.gunnery) == (4, 4)

    def test_with_every_gun_dismounted_her_broadsides_can_do_nothing(self):
        state = close_action()
        essex = state.ships["Essex"]
        essex.guns = essex.spec.gs
        assert essex.gunnery() == 0 and combat.fire_options(state, essex) == []


class TestChaseGuns:
    def test_no_chasers_in_a_turn_with_a_broadside_and_vice_versa(self):
        state = close_action()
        essex = state.ships["Essex"]
        essex.fired = frozenset({"port"})
        assert combat.battery_problem(state, essex, "bow")[0] == "chase-guns"
        essex.fired = frozenset({"stern"})
        assert combat.battery_problem(state, essex, "starboard")[0] == "chase-guns"
        assert combat.battery_problem(state, essex, "bow") is None  # both sets may fire

    def test_two_ones_make_a_mast_hit(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        assert state.windows[0] == "Essex"
        state.apply(Fire("Essex", "bow", "Ahead"), 0)
        state.apply(Roll((1,)))
        state.apply(Roll((1,)))
        assert state.pending == [("Ahead", "mast", "Essex")]
        hold_windows(state)
        assert state.ships["Ahead"].masts == 1  # landed at the segment's end

    @pytest.mark.parametrize("before", [1, 2])
    def test_the_third_mast_hit_dismasts_her_and_no_hit_before_it(self, before):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        state.ships["Ahead"].masts = before
        to_windows(state, Essex=0, Ahead=0)
        state.apply(Fire("Essex", "bow", "Ahead"), 0)
        state.apply(Roll((1,)))
        state.apply(Roll((1,)))
        events = hold_to_segment_end(state)
        assert state.ships["Ahead"].masts == before + 1
        dismastings = [event for event in events if isinstance(event, Dismasted)]
        assert dismastings == ([Dismasted("Ahead", "1006")] if before + 1 == 3 else [])

    def test_chase_guns_are_not_aimed(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Fire("Essex", "bow", "Ahead", "rigging"), 0)
        assert refused.value.rule == "aim" and not state.ships["Essex"].fired

    def test_the_second_die_is_shown_deciding_the_mast_hit(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        state.apply(Fire("Essex", "bow", "Ahead"), 0)
        assert state.to_json()["attack"] == {"firer": "Essex", "battery": "bow", "target": "Ahead", "aim": "mast",
                                             "column": "", "gunnery": 0, "hits": 0}
        (first,) = [e.describe() for e in state.apply(Roll((1,))) if isinstance(e, DieRolled)]
        events = state.apply(Roll((1,)))
        (second,) = [e.describe() for e in events if isinstance(e, DieRolled)]
        assert Fired("Essex", "bow", 0, "Ahead", 1, "a mast hit") in events
        assert first == "rolled 1 for Essex's chase guns: a 1: the second die decides"
        assert second == "rolled 1 for Essex's chase guns (second die): two 1s: a mast hit"

    def test_a_chase_die_other_than_one_misses(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        state.apply(Fire("Essex", "bow", "Ahead"), 0)
        events = state.apply(Roll((3,)))
        assert Fired("Essex", "bow", 0, "Ahead", 0, "no hit") in events and state.attack is None and state.pending == []

    def test_one_one_is_not_enough(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Ahead", "red", 38, "1006", "N", 0))
        to_windows(state, Essex=0, Ahead=0)
        state.apply(Fire("Essex", "bow", "Ahead"), 0)
        state.apply(Roll((1,)))
        state.apply(Roll((2,)))
        assert state.pending == []


class TestMultiShipCombat:
    def test_two_targets_in_different_fields(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("East", "red", 38, "1209", "N", 0), ship("West", "red", 38, "0809", "N", 0))
        to_windows(state, Essex=0, East=0, West=0)
        state.apply(Fire("Essex", "starboard", "East", "hull"), 0)
        state.apply(Roll((1,)))
        options = state.legal_actions(0)
        assert Fire("Essex", "port", "West", "hull") in options
        assert not any(isinstance(a, Fire) and a.battery == "starboard" for a in options)

    def test_the_nearest_target_option(self):
        ships = (ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                 ship("Near", "red", 38, "1110", "N", 0), ship("Farther", "red", 74, "0809", "N", 0))
        free = battle(*ships)
        assert {f.target for f in combat.fire_options(free, free.ships["Essex"])} == {"Near", "Farther"}
        bound = battle(*ships, options={"nearest_target": True})
        assert {f.target for f in combat.fire_options(bound, bound.ships["Essex"])} == {"Near"}
        bound.fired_upon.add("Near")  # already fired on this turn: the next nearest within 2 hexes
        assert {f.target for f in combat.fire_options(bound, bound.ships["Essex"])} == {"Farther"}

    def test_the_nearest_target_option_on_one_broadside_keeps_the_near_ship_listed_second(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Farther", "red", 38, "1311", "N", 0),
                       ship("Near", "red", 38, "1110", "N", 0), options={"nearest_target": True})
        assert {(f.battery, f.target) for f in combat.fire_options(state, state.ships["Essex"])} == {
            ("starboard", "Near")}

    def test_the_nearest_target_option_looks_no_farther_than_two_hexes(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Near", "red", 38, "1110", "N", 0),
                       ship("Third", "red", 74, "0710", "N", 0), options={"nearest_target": True})
        state.fired_upon.add("Near")  # fired on this turn: the next, 3 hexes off, binds no one
        assert {f.target for f in combat.fire_options(state, state.ships["Essex"])} == {"Near", "Third"}

    def test_the_nearest_target_option_refuses_the_farther_ship(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Near", "red", 38, "1110", "N", 0),
                       ship("Farther", "red", 74, "0809", "N", 0), options={"nearest_target": True})
        to_windows(state, Essex=0, Near=0, Farther=0)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Fire("Essex", "port", "Farther", "hull"), 0)
        assert refused.value.rule == "nearest-target"


class TestOddsAndResults:
    def test_odds_rounded_against_the_firer_and_the_crt_shift(self):
        tables = close_action().tables
        assert combat.odds_column(tables, 6, 9, "II") == "1-2"
        assert combat.odds_column(tables, 6, 9, "I") == "1-1"
        assert combat.odds_column(tables, 6, 9, "III") == "1-3"
        assert combat.odds_column(tables, 60, 9, "II") == "6-1"
        assert combat.odds_column(tables, 60, 9, "I") == "6-1"
        assert combat.odds_column(tables, 1, 5, "II") == ""
        assert combat.odds_column(tables, 1, 4, "III") == ""

    def test_the_lowest_column_and_what_a_die_of_one_or_a_modified_nothing_does(self):
        tables = close_action().tables
        assert combat.odds_column(tables, 1, 4, "II") == "1-4"
        assert combat.crt_hits(tables, "6-1", 1) == 1 and combat.crt_hits(tables, "6-1", 0) == 0
        assert combat.crt_hits(tables, "3-1", 6) == 2

    def test_a_range_beyond_every_band_of_a_players_tables_does_nothing(self):
        data = standard_tables_data()
        data["combat"]["range_factors"] = [[0, 2, 1, 1], [3, 5, 2, 3]]  # two thirds, and nothing beyond 5 hexes
        tables = parse_tables(data)
        assert combat.gunnery_strength(tables, 6, False, 5, "", 0) == 4
        assert combat.gunnery_strength(tables, 6, False, 8, "", 0) == 0

    def test_two_hits_need_two_dice_for_their_kinds(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Wasp", "red", 20, "1209", "N", 0))
        to_windows(state, Essex=0, Wasp=0)
        assert combat.describe_attack(state, state.ships["Essex"], "starboard", state.ships["Wasp"]).column == "3-1"
        state.apply(Fire("Essex", "starboard", "Wasp", "hull"), 0)
        state.apply(Roll((6,)))  # 3-1: a 6 is two hits
        state.apply(Roll((1,)))
        assert state.rolls[0] == ("hit-kind", "Essex", 1)
        state.apply(Roll((5,)))
        assert state.pending == [("Wasp", "hull", "Essex"), ("Wasp", "gun", "Essex")] and state.attack is None

    def test_fighting_sail_spares_nothing_but_the_rigging(self):
        state = to_windows(close_action(fighting=("Guerriere",)), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((5,)))  # aimed at the hull: no -1, a 5 hits on the 1-1 column
        assert state.rolls[0][0] == "hit-kind"

    def test_fighting_sail_takes_only_one_from_a_six(self):
        state = to_windows(close_action(fighting=("Guerriere",)), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "rigging"), 0)
        state.apply(Roll((6,)))  # 6 - 1 = 5: still a hit on the 1-1 column
        assert state.rolls[0][0] == "hit-kind"

    def test_hits_land_at_the_segments_end_by_the_aim(self):
        state = to_windows(close_action(), Essex=0, Guerriere=0)
        attack = combat.describe_attack(state, state.ships["Essex"], "starboard", state.ships["Guerriere"])
        assert (attack.gunnery, attack.defence, attack.column) == (6, 5, "1-1")
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        assert state.to_json()["attack"] == {"firer": "Essex", "battery": "starboard", "target": "Guerriere",
                                             "aim": "hull", "column": "1-1", "gunnery": 6, "hits": 0, "rake": ""}
        state.apply(Roll((5,)))  # 1-1: a 5 is a hit
        state.apply(Roll((4,)))  # aimed at the hull, a 4 strikes the crew
        assert state.pending == [("Guerriere", "crew", "Essex")] and state.ships["Guerriere"].crew == 0
        hold_windows(state)
        # Every later segment passed with nothing to decide; the hit is on her now.
        assert state.segment != 1 and state.ships["Guerriere"].crew == 1

    def test_a_hull_hit_on_her_last_box_sinks_her(self):
        state = to_windows(close_action(), Essex=0, Guerriere=0)
        state.ships["Guerriere"].hull = 5  # one of her 6 hull boxes left
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((5,)))
        state.apply(Roll((1,)))  # aimed at the hull, a 1 strikes it
        events = []
        while state.windows:
            events += state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
        assert Sunk("Guerriere", "1209", "Essex") in events and state.ships["Guerriere"].hull == 6
        # Red's last ship gone, the battle ends as the damage lands: Essex, at MA 0, does not drift.
        assert state.outcome.reason.startswith("red has no ship left in the fight: Guerriere sunk;")
        assert state.segment == 1 and state.grid.name(state.ships["Essex"].hex) == "1010"

    def test_a_ship_may_sail_into_the_hex_where_one_has_just_sunk(self):
        """Seed, Sequence of Play 2: the damage lands at the segment's end; the wreck is gone from her
        hex, and Hornet, astern of her, sails through it in the next segment."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE),
                       ship("Hornet", "blue", 20, "1210", "N", 0), ship("Java", "red", 38, "2020", "N", 0),
                       wind=(3, "moderate"))
        state.ships["Guerriere"].hull = 5
        to_windows(state, Essex=0, Guerriere=0, Hornet=2, Java=0)  # MA 2: Hornet's first point in segment 2
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((5,)))
        state.apply(Roll((1,)))  # her last hull box
        assert Sunk("Guerriere", "1209", "Essex") in hold_to_segment_end(state)
        hold_windows(state)
        state.apply(Move("Hornet"), 0)
        hornet = state.ships["Hornet"]
        assert state.grid.name(hornet.hex) == "1209" and hornet.afoul == "" and not state.is_terminal()

    def test_a_sinking_does_not_hide_what_else_landed_that_segment(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE),
                       ship("Hornet", "blue", 20, "2010", "N", 0), ship("Ahead", "red", 38, "2006", "N", 0))
        state.ships["Guerriere"].hull, state.ships["Ahead"].masts = 5, 2
        to_windows(state, Essex=0, Guerriere=0, Hornet=0, Ahead=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((5,)))
        state.apply(Roll((1,)))  # her last hull box
        state.apply(Fire("Hornet", "bow", "Ahead"), 0)
        state.apply(Roll((1,)))
        state.apply(Roll((1,)))  # her third mast hit
        events = []
        while state.windows:
            events += state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
        assert Sunk("Guerriere", "1209", "Essex") in events and Dismasted("Ahead", "2006") in events

    def test_a_gun_hit_lands_at_the_segments_end(self):
        state = to_windows(close_action(), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        state.apply(Roll((5,)))
        state.apply(Roll((5,)))  # aimed at the hull, a 5 dismounts a gun
        hold_windows(state)
        assert state.ships["Guerriere"].guns == 1

    def test_fighting_sail_takes_one_from_the_die_against_the_rigging(self):
        state = to_windows(close_action(fighting=("Guerriere",)), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "rigging"), 0)
        state.apply(Roll((5,)))  # 5 - 1 = 4: no hit on the 1-1 column
        assert state.attack is None and state.pending == []

    def test_a_long_odds_hit_the_second_die_does_not_confirm(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Bellona", "red", 74, "1310", "N", 0))
        to_windows(state, Essex=0, Bellona=0)
        assert combat.describe_attack(state, state.ships["Essex"], "starboard", state.ships["Bellona"]).column == "1-3"
        state.apply(Fire("Essex", "starboard", "Bellona", "hull"), 0)
        (crt,) = [e.describe() for e in state.apply(Roll((6,))) if isinstance(e, DieRolled)]
        assert crt.endswith("1 hit if a second die confirms")
        (second,) = [e.describe() for e in state.apply(Roll((3,))) if isinstance(e, DieRolled)]
        assert second.endswith("not confirmed: no hit") and state.pending == [] and state.attack is None

    @pytest.mark.parametrize(("confirming", "decided"), [(4, "not confirmed: no hit"), (5, "1 hit confirmed")])
    def test_fighting_sail_takes_one_from_the_confirming_die_too(self, confirming, decided):
        """Decision: the -1 applies to every CRT die of an attack aimed at the rigging. With a player's
        tables where the 1-3 column hits on 5 or 6, a 6 (5 after the -1) hits; a confirming 4 is only a
        3, a 5 a 4, which confirms."""
        data = standard_tables_data()
        data["crt"]["table"]["1-3"]["hits"] = [0, 0, 0, 0, 1, 1]
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Bellona", "red", 74, "1310", "N", 0),
                       fighting=("Bellona",), tables=data)
        to_windows(state, Essex=0, Bellona=0)
        state.apply(Fire("Essex", "starboard", "Bellona", "rigging"), 0)
        state.apply(Roll((6,)))
        (second,) = [e.describe() for e in state.apply(Roll((confirming,))) if isinstance(e, DieRolled)]
        assert second.endswith(decided)

    @pytest.mark.parametrize("fighting", [(), ("Bellona",)])
    def test_a_long_odds_hit_the_second_die_confirms(self, fighting):
        """A 4 confirms on the 1-3 column; fighting sail takes one only from dice aimed at the rigging."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Bellona", "red", 74, "1310", "N", 0),
                       fighting=fighting)
        to_windows(state, Essex=0, Bellona=0)
        state.apply(Fire("Essex", "starboard", "Bellona", "hull"), 0)
        state.apply(Roll((6,)))
        events = state.apply(Roll((4,)))
        (second,) = [e.describe() for e in events if isinstance(e, DieRolled)]
        assert second.endswith("1 hit confirmed") and state.rolls[0] == ("hit-kind", "Essex", 1)
        # the attack as fired: GS 6 halved at 3 hexes, one hit
        fired = [e for e in events if isinstance(e, Fired)]
        assert fired == [Fired("Essex", "starboard", 3, "Bellona", 1, "GS 3, 1 hit")]

    def test_a_long_odds_hit_needs_a_second_die(self):
        state = close_action()
        guerriere = state.ships["Guerriere"]
        guerriere.hex = state.grid.parse("1610")  # 6 hexes: a quarter of 6 is 1, odds 1-5 ... none
        assert combat.describe_attack(state, state.ships["Essex"], "starboard", guerriere).column == ""
        guerriere.hex = state.grid.parse("1310")  # 3 hexes: half, GS 3 against 5: the 1-2 column
        assert combat.describe_attack(state, state.ships["Essex"], "starboard", guerriere).column == "1-2"
        assert state.tables.crt["1-3"].confirm == frozenset({4, 5, 6})
