"""Seed 001, COMMAND CONTROL, FORMATIONS 1-2 and PRESERVATION LEVEL, with the reconstructed
procedure; and the reconstructed wind (Sequence of Play 1a) with the seed's no-wind option."""

from __future__ import annotations

import pytest

from quarterdeck.core.events import CourseOrdered, DieRolled, ForceChanged, Hit, WindChanged
from quarterdeck.core.hexes import HexDir, bearing
from quarterdeck.games.frigate import command, movement
from quarterdeck.games.frigate.actions import Fire, Form, Hold, Move, Order, Roll, Sail, Turn
from quarterdeck.games.frigate.scenario import standard_tables_data

from .helpers import GAME, battle, declare, hold_windows, near, quiet_turn, ship, to_movement, to_next_wind


def squadron(flagship="fleet", far=False, heading="SE", **kw):
    lead = ship("Victory", "blue", 100, "0510", "SE", 4, squadron="van", flagship=flagship)
    second = ship("Temeraire", "blue", 98, "0520" if far else "0509", heading, 4, squadron="van")
    enemy = ship("Redoutable", "red", 74, "3001", "S", 0)
    return battle(lead, second, enemy, squadrons=[{"name": "van", "side": "blue", "lead": "Victory"}], **kw)


class TestCommandControl:
    def test_a_ship_far_from_her_flag_rolls_and_may_lose_control(self):
        state = squadron(far=True)
        temeraire = state.ships["Temeraire"]
        assert command.subject_to_command_control(state, temeraire)
        assert not command.subject_to_command_control(state, state.ships["Victory"])  # the fleet flagship: never
        declare(state, Victory=4, Temeraire=4, Redoutable=0)
        assert state.rolls[0] == ("command", "Temeraire", 1)
        state.apply(Roll((5,)))  # Average passes on 4 or less: lost
        events = state.apply(Roll((3,)))  # the ordered course: 3 = south-east
        assert temeraire.course == HexDir.SE and CourseOrdered("Temeraire", "SE") in events

    def test_a_ship_that_fails_learns_her_course_before_the_next_ship_rolls(self):
        state = battle(ship("Victory", "blue", 100, "0510", "SE", 4, squadron="van", flagship="fleet"),
                       ship("Temeraire", "blue", 98, "0520", "SE", 4, squadron="van"),
                       ship("Neptune", "blue", 98, "1520", "SE", 4, squadron="van"),
                       ship("Redoutable", "red", 74, "3001", "S", 0), squadrons=[{"name": "van", "side": "blue"}])
        declare(state, Victory=4, Temeraire=4, Neptune=4, Redoutable=0)
        assert state.rolls[:2] == [("command", "Temeraire", 1), ("command", "Neptune", 1)]
        state.apply(Roll((6,)))
        assert state.rolls[:2] == [("course", "Temeraire", 1), ("command", "Neptune", 1)]

    def test_a_die_equal_to_the_efficiency_number_passes(self):
        """Reconstructed: an Average force passes Command Control on 4 or less."""
        state = squadron(far=True)
        declare(state, Victory=4, Temeraire=4, Redoutable=0)
        (rolled,) = [e.describe() for e in state.apply(Roll((4,))) if isinstance(e, DieRolled)]
        assert rolled == "rolled 4 for Temeraire's Command Control: passes (needs 4 or less)"
        assert state.rolls[0][0] == "initiative" and state.ships["Temeraire"].course is None

    @pytest.mark.parametrize("plight", ["dismasted", "prize", "sunk"])
    def test_a_ship_dismasted_taken_or_lost_is_under_no_one_s_command(self, plight):
        state = squadron(far=True)
        temeraire = state.ships["Temeraire"]
        if plight == "dismasted":
            temeraire.masts = 3
        elif plight == "prize":
            temeraire.owner = 1
        else:
            temeraire.status = "sunk"
        assert not command.subject_to_command_control(state, temeraire)

    def test_close_to_her_flag_she_is_free(self):
        state = squadron()
        assert not command.subject_to_command_control(state, state.ships["Temeraire"])

    def test_four_hexes_from_her_flag_she_is_free_five_and_she_rolls(self):
        """Reconstructed Command Control: farther than 4 hexes from the squadron's flagship."""
        for hexname, subject in (("0514", False), ("0515", True)):
            lead = ship("Victory", "blue", 100, "0510", "SE", 4, squadron="van", flagship="fleet")
            second = ship("Temeraire", "blue", 98, hexname, "SE", 4, squadron="van")
            state = battle(lead, second, ship("Redoutable", "red", 74, "3001", "S", 0),
                           squadrons=[{"name": "van", "side": "blue", "lead": "Victory"}])
            assert command.subject_to_command_control(state, state.ships["Temeraire"]) == subject

    def test_a_ship_her_flag_cannot_see_is_under_command_control_however_close(self):
        """Seed, COMMAND CONTROL: out of her flagship's sight (a ship in the line between) she rolls."""
        lead = ship("Victory", "blue", 100, "0510", "SE", 4, squadron="van", flagship="fleet")
        second = ship("Temeraire", "blue", 98, "0512", "SE", 4, squadron="van")
        between = ship("Neptune", "blue", 98, "0511", "SE", 4)
        state = battle(lead, second, between, ship("Redoutable", "red", 74, "3001", "S", 0),
                       squadrons=[{"name": "van", "side": "blue", "lead": "Victory"}])
        assert command.subject_to_command_control(state, state.ships["Temeraire"])

    def test_an_ordered_course_into_the_wind_becomes_the_next_one_clockwise(self):
        assert command.ordered_course(1, HexDir.N) == HexDir.NE
        assert command.ordered_course(4, HexDir.N) == HexDir.S

    @pytest.mark.parametrize(("heading", "die", "turns"), [("SE", 4, {"starboard"}), ("SE", 3, set()),
                                                           ("SE", 6, {"port", "starboard"}),
                                                           ("SW", 2, {"port", "starboard"})])
    def test_under_command_control_she_sails_only_her_course(self, heading, die, turns):
        """Seed: "it must be moved in the one direction determined by the procedure": off her course
        she turns the short way to it before moving; facing it, no turn; with the course dead
        astern (north-west behind a ship heading SE, north-east behind one heading SW), either way
        round is as short."""
        state = squadron(far=True, heading=heading)
        declare(state, Victory=4, Temeraire=4, Redoutable=0)
        state.apply(Roll((6,)))
        state.apply(Roll((die,)))  # the course: 2 north-east, 3 south-east, 4 south, 6 north-west
        state.apply(Roll((6, 1)))
        state.apply(Order((0, 0, 0, 0)), 0)
        hold_windows(state)
        state.apply(Move("Victory"), 0)
        hold_windows(state)
        actions = state.legal_actions(0)
        assert {a.way for a in actions if isinstance(a, Turn)} == turns
        assert (Move("Temeraire") in actions) == (not turns)

    def test_the_optional_rule_puts_a_fleet_flagship_fired_on_under_it(self):
        state = squadron(options={"flagship_fired_on": True})
        victory = state.ships["Victory"]
        state.turn = 3
        victory.fired_on_turn = 2
        assert command.subject_to_command_control(state, victory)
        plain = squadron()
        plain.turn, plain.ships["Victory"].fired_on_turn = 3, 2
        assert not command.subject_to_command_control(plain, plain.ships["Victory"])

    def test_a_squadron_flagship_anywhere_in_the_line_is_its_flag(self):
        """Reconstructed Command Control: distance to the SQUADRON's flagship, wherever she sails in it,
        not to the fleet flagship in another squadron."""
        state = rear_squadron()
        assert not command.subject_to_command_control(state, state.ships["Bellerophon"])  # 2 hexes from Colossus
        assert not command.subject_to_command_control(state, state.ships["Colossus"])  # the flag herself

    def test_when_the_squadron_flagship_is_lost_the_fleet_flagship_is_the_flag(self):
        state = rear_squadron()
        state.ships["Colossus"].status = "sunk"
        assert command.subject_to_command_control(state, state.ships["Bellerophon"])  # Victory is far off
        near_fleet_flag = rear_squadron(victory="0514")
        near_fleet_flag.ships["Colossus"].status = "sunk"
        assert not command.subject_to_command_control(near_fleet_flag, near_fleet_flag.ships["Bellerophon"])

    def test_without_any_flagship_and_outside_a_squadron_no_one_rolls(self):
        state = battle(ship("Bellerophon", "blue", 74, "0510", "N", 4, squadron="rear"),
                       ship("Colossus", "blue", 74, "0520", "N", 4, squadron="rear"),
                       ship("Lone", "blue", 74, "2020", "N", 4), ship("Redoutable", "red", 74, "3001", "S", 0),
                       squadrons=[{"name": "rear", "side": "blue"}])
        assert not any(command.subject_to_command_control(state, state.ships[n]) for n in ("Colossus", "Lone"))

    @pytest.mark.parametrize(("second", "formation", "rolls"), [
        ("0514", "line-ahead", False),  # cut off behind a gap, but 4 hexes from the lead and in sight
        ("0515", "line-ahead", True),  # 5 hexes from the lead: her flag (6 hexes astern) counts
        ("0514", "", True),  # no formation: only the flag counts
    ])
    def test_in_formation_the_lead_within_four_hexes_and_in_sight_keeps_her_under_control(
            self, second, formation, rolls):
        """Reconstructed: ships in a formation whose lead is within 4 hexes and in sight are exempt."""
        state = battle(ship("Leader", "blue", 74, "0510", "N", 4, squadron="van"),
                       ship("Second", "blue", 74, second, "N", 4, squadron="van"),
                       ship("Flag", "blue", 74, "0521", "N", 4, squadron="van", flagship="squadron"),
                       ship("Redoutable", "red", 74, "3001", "S", 0),
                       squadrons=[{"name": "van", "side": "blue", "formation": formation}] if formation else
                       [{"name": "van", "side": "blue"}])
        assert command.subject_to_command_control(state, state.ships["Second"]) is rolls

    def test_a_ship_out_of_formation_gets_no_help_from_the_lead(self):
        state = battle(ship("Leader", "blue", 74, "0510", "N", 4, squadron="van"),
                       ship("Flag", "blue", 74, "0514", "N", 4, squadron="van", flagship="squadron"),
                       ship("Stray", "blue", 74, "0710", "N", 4, squadron="van"),  # abeam of the lead, not astern
                       ship("Redoutable", "red", 74, "3001", "S", 0),
                       squadrons=[{"name": "van", "side": "blue", "formation": "line-ahead"}])
        assert command.formation_status(state, state.scenario.squadrons[0], "line-ahead")["Stray"] == "out"
        assert command.subject_to_command_control(state, state.ships["Stray"])  # 2 hexes from the lead, 6 from the flag

    def test_a_fleet_flagship_fired_on_rolls_next_turn_under_the_optional_rule(self):
        """Seed, COMMAND CONTROL (optional): "If in any turn a Fleet Flagship is fired on, whether or
        not any hits are achieved, the ship must undergo the Command Control procedure at the start of
        the following Game-Turn"; never before she is fired on."""
        state = battle(ship("Victory", "blue", 100, "0510", "N", 4, squadron="van", flagship="fleet"),
                       ship("Redoutable", "red", 74, "0709", "N", 0),
                       squadrons=[{"name": "van", "side": "blue"}], options={"flagship_fired_on": True},
                       wind=(3, "moderate"))
        declare(state, Victory=4, Redoutable=0)
        assert state.rolls[0][0] == "initiative"  # turn 1: nobody has fired on her yet
        state.apply(Roll((6, 1)))
        state.apply(Order((0, 0, 0, 0)), 0)
        state.apply(Hold("Victory"), 0)
        state.apply(Fire("Redoutable", "port", "Victory", "hull"), 1)
        state.apply(Roll((1,)))  # a miss: fired on all the same
        quiet_turn(state)
        declare(state, Victory=4, Redoutable=0)
        assert ("command", "Victory", 1) in state.rolls


def rear_squadron(victory="2010"):
    """Blue's rear squadron, Bellerophon two hexes from her squadron flagship Colossus; the fleet
    flagship Victory in the van."""
    return battle(ship("Bellerophon", "blue", 74, "0510", "N", 4, squadron="rear"),
                  ship("Colossus", "blue", 74, "0310", "N", 4, squadron="rear", flagship="squadron"),
                  ship("Victory", "blue", 100, victory, "N", 4, squadron="van", flagship="fleet"),
                  ship("Redoutable", "red", 74, "3001", "S", 0),
                  squadrons=[{"name": "rear", "side": "blue"}, {"name": "van", "side": "blue"}])


class TestFormations:
    def line(self, gap_row="0513"):
        ships = [ship("Victory", "blue", 100, "0510", "N", 4, squadron="van", flagship="fleet"),
                 ship("Temeraire", "blue", 98, "0512", "N", 4, squadron="van"),
                 ship("Neptune", "blue", 98, gap_row, "N", 4, squadron="van"),
                 ship("Redoutable", "red", 74, "3001", "S", 0)]
        return battle(*ships, wind=(3, "moderate"),
                      squadrons=[{"name": "van", "side": "blue", "formation": "line-ahead", "lead": "Victory"}])

    def test_intervals_may_change_and_a_gap_over_two_hexes_cuts_off_the_ships_astern(self):
        state = self.line()
        squadron_ = state.scenario.squadrons[0]
        assert command.formation_status(state, squadron_, "line-ahead") == {
            "Victory": "in", "Temeraire": "in", "Neptune": "in"}
        state.ships["Neptune"].hex = state.grid.parse("0516")  # 3 empty hexes behind Temeraire
        status = command.formation_status(state, squadron_, "line-ahead")
        assert status["Neptune"] == "cut-off"
        assert command.cut_off(state, state.ships["Neptune"])

    def test_a_gap_of_two_hexes_keeps_the_line_and_a_break_puts_every_ship_astern_out(self):
        """Seed, Formations 1: intervals may change; a gap of more than two hexes cuts the ships astern
        off. Once the line is broken, every ship after the break is out of it."""
        state = self.line(gap_row="0515")  # two empty hexes between Temeraire and Neptune
        squadron_ = state.scenario.squadrons[0]
        assert command.formation_status(state, squadron_, "line-ahead")["Neptune"] == "in"
        state.ships["Temeraire"].hex = state.grid.parse("0710")  # abeam of Victory: not astern
        state.ships["Neptune"].hex = state.grid.parse("0712")  # astern of Temeraire, but the line is broken
        assert command.formation_status(state, squadron_, "line-ahead") == {
            "Victory": "in", "Temeraire": "out", "Neptune": "out"}

    def test_a_cut_off_ship_must_try_to_close_the_gap(self):
        state = self.line(gap_row="0516")
        neptune = state.ships["Neptune"]
        low, high, _ = movement.declaration_range(state, neptune)
        assert high > low and neptune.declared and neptune.ma == high  # her one lawful choice, made at once

    def test_changing_formation_by_announcement(self):
        state = self.line()
        assert Form("van", "line-abreast") in state.legal_actions(0)
        state.apply(Form("van", "line-abreast"), 0)
        declare(state, Victory=4, Temeraire=4, Neptune=4, Redoutable=0)
        assert state.formations["van"] == ("line-ahead", "line-abreast")  # the old one holds for now
        saved = state.to_json()  # a game saved now keeps both the formation and the change announced
        assert saved["formations"] == {"van": ["line-ahead", "line-abreast"]}
        assert GAME.state_from_json(saved).formations == state.formations
        quiet_turn(state)
        assert state.formations["van"] == ("line-ahead", "line-abreast")  # still in line ahead: not yet met

    def test_the_new_formation_holds_once_its_conditions_are_met(self):
        """Seed, Formations 2: "They are still considered to be in the old formation until they fulfill
        the new conditions": ships lying abeam of each other at the end of the turn are in line abreast."""
        state = self.line()
        state.ships["Temeraire"].hex = state.grid.parse("0710")
        state.ships["Neptune"].hex = state.grid.parse("0910")
        state.apply(Form("van", "line-abreast"), 0)
        declare(state, Victory=4, Temeraire=4, Neptune=4, Redoutable=0)
        quiet_turn(state)
        assert state.formations["van"] == ("line-abreast", "")

    @pytest.mark.parametrize(("shape", "steps"), [("line-ahead", ("S", "SE")), ("line-abreast", ("SE",)),
                                                  ("line-abreast", ("NE",))])
    def test_the_edge_of_the_arc_counts_as_in_formation(self, shape, steps):
        """Line Ahead: 150 degrees or more off the bow of the ship ahead; Line Abreast: 60 to 120."""
        state = self.line()
        state.ships["Temeraire"].hex = state.grid.parse(near(state, "Victory", *steps))
        state.ships["Neptune"].hex = state.grid.parse("2020")
        assert command.formation_status(state, state.scenario.squadrons[0], shape)["Temeraire"] == "in"

    @pytest.mark.parametrize(("shape", "victory", "temeraire", "off"), [("line-ahead", "0101", "1927", 149),
                                                                        ("line-abreast", "0101", "5127", 121),
                                                                        ("line-abreast", "0127", "5101", 59)])
    def test_just_outside_the_arc_is_out_of_formation_however_far(self, shape, victory, temeraire, off):
        """Line Ahead: 150 degrees or more off the bow of the ship ahead; Line Abreast: 60 to 120, and
        not a degree more: on a player's larger map a ship 35 or 51 hexes off at 149, 121 or 59
        degrees is out of the line (not cut off: nothing asks her to close the gap)."""
        tables = standard_tables_data()
        tables["map"] = {"columns": 60, "rows": 40}
        state = battle(ship("Victory", "blue", 100, victory, "N", 4, squadron="van", flagship="fleet"),
                       ship("Temeraire", "blue", 98, temeraire, "N", 4, squadron="van"),
                       ship("Redoutable", "red", 74, "3001", "S", 0), wind=(3, "moderate"), tables=tables,
                       squadrons=[{"name": "van", "side": "blue", "formation": shape, "lead": "Victory"}])
        lead, second = state.ships["Victory"], state.ships["Temeraire"]
        assert round(abs(bearing(lead.hex, lead.facing, second.hex))) == off
        assert command.formation_status(state, state.scenario.squadrons[0], shape)["Temeraire"] == "out"


class TestPreservation:
    @pytest.mark.parametrize("hurt", ["Essex", "Java"])
    def test_over_the_level_the_force_withdraws(self, hurt):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                       ship("Java", "red", 38, "2010", "N", 0), preservation=2)
        state.ships[hurt].hull = 3
        declare(state, Essex=0, Java=0)
        events = quiet_turn(state)
        assert [force.withdrawing for force in state.force_state] == [hurt == "Essex", hurt == "Java"]
        told = [(e.player, e.change) for e in events if isinstance(e, ForceChanged)]
        assert told == [("blue" if hurt == "Essex" else "red", "over its Preservation Level: withdraws")]

    def test_the_optional_rule_drops_efficiency_then_changes_the_crt(self):
        assert command.preservation_drops(6, 6) == 0
        assert command.preservation_drops(6, 7) == 1
        assert command.preservation_drops(6, 12) == 2
        assert command.preservation_drops(3, 6) == 2  # exceeded by the level itself when under 6
        assert command.preservation_drops(20, 25) == 1 and command.preservation_drops(20, 26) == 2  # by 6
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                       ship("Java", "red", 38, "2010", "N", 0), preservation=2,
                       options={"preservation": "efficiency"})
        state.ships["Essex"].hull = 5
        to_movement(state, Essex=0, Java=0)
        quiet_turn(state)
        force = state.force_state[0]
        assert force.drops == 2 and force.efficiency == "low" and force.crt == "III" and not force.withdrawing

    def test_below_low_the_standard_rule_applies_and_the_crt_still_changes(self):
        force = command.ForceState("low", "II")
        assert command.apply_drop(force, False) == "withdraws" and force.withdrawing
        assert command.worse_crt("II") == "III" and command.worse_crt("III") == "III"

    def test_a_crack_force_drops_a_level_at_a_time_and_its_crt_by_one(self):
        """Seed, PRESERVATION LEVEL (optional): each drop one efficiency level; at the second, the next
        higher CRT (I to II)."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                       ship("Java", "red", 38, "2010", "N", 0), preservation=2, efficiency="crack", crt="I",
                       options={"preservation": "efficiency"})
        state.ships["Essex"].hull = 5
        declare(state, Essex=0, Java=0)
        events = quiet_turn(state)
        changes = [e.change for e in events if isinstance(e, ForceChanged) and e.player == "blue"]
        assert changes == ["efficiency drops to average", "efficiency drops to green", "uses CRT II"]


class TestDamageControl:
    def test_a_ship_with_crew_hits_rolls_to_repair_one(self):
        """Reconstructed Damage Control: a die per ship with 1-2 crew hits; Average repairs on 2 or less."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                       ship("Java", "red", 38, "2010", "N", 0))
        state.ships["Essex"].crew = 1
        to_movement(state, Essex=0, Java=0)
        assert state.rolls == [("repair", "Essex", 1)]  # Java, untouched, rolls nothing
        events = state.apply(Roll((2,)))
        assert Hit("Essex", -1, "", "crew hit repaired, 0 left") in events and state.ships["Essex"].crew == 0

    def test_a_crippled_ship_stays_crippled(self):
        """Decision (ours): three crew hits cripple a ship for good; she throws no Damage Control die,
        while a ship with two crew hits still does."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                       ship("Java", "red", 38, "2010", "N", 0))
        state.ships["Essex"].crew, state.ships["Java"].crew = 3, 2
        to_movement(state, Essex=0, Java=0)
        assert state.rolls == [("repair", "Java", 1)]


class TestWind:
    def test_standard_table_steps_and_the_no_wind_reroll(self):
        fresh = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       wind=(1, "light"), options={"no_wind": True})
        fresh.rolls = [("wind-velocity", "", 1)]
        fresh._resolve_roll(Roll((1,)), [])  # light -> calm: roll again
        assert fresh.velocity == "calm" and fresh.rolls[0][0] == "no-wind-check"
        fresh._resolve_roll(Roll((1,)), [])
        assert fresh.velocity == "no wind"
        fresh.rolls = [("wind-velocity", "", 1)]
        fresh._resolve_roll(Roll((6,)), [])  # rising from no wind: a new direction is rolled
        assert fresh.velocity == "calm" and fresh.rolls[0][0] == "wind-new-direction"
        fresh._resolve_roll(Roll((4,)), [])
        assert fresh.wind_from == HexDir.S

    def test_the_optional_table_on_two_dice(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       wind=(1, "calm"), options={"no_wind": True, "wind_table": "optional"})
        state.rolls = [("wind-velocity", "", 2)]
        state._resolve_roll(Roll((1, 2)), [])  # 3: down one, from Calm to no wind
        assert state.velocity == "no wind"
        state.rolls = [("wind-velocity", "", 2)]
        state._resolve_roll(Roll((6, 6)), [])  # 12: up two
        assert state.velocity == "light"

    def test_direction_backs_and_veers(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0))
        state.rolls = [("wind-direction", "", 1)]
        state._resolve_roll(Roll((1,)), [])
        assert state.wind_from == HexDir.NW
        state.rolls = [("wind-direction", "", 1)]
        state._resolve_roll(Roll((6,)), [])
        assert state.wind_from == HexDir.N

    def test_without_a_scenario_wind_the_first_dice_set_direction_then_velocity(self):
        """Reconstructed wind: at the start 1d6 for the direction (1 north, 2 north-east, ...) and 1d6
        for the velocity (4-5 Moderate)."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0), wind=None)
        assert state.rolls == [("wind-direction-start", "", 1), ("wind-velocity-start", "", 1)]
        (direction,) = [e.describe() for e in state.apply(Roll((2,))) if isinstance(e, DieRolled)]
        assert direction == "rolled 2 for the wind's direction: from the NE"
        events = state.apply(Roll((4,)))
        assert WindChanged("NE", "moderate") in events
        assert (state.wind_from, state.velocity, state.phase) == (HexDir.NE, "moderate", "declare")

    @pytest.mark.parametrize(("wind", "die", "announced"), [((1, "moderate"), None, ("N", "moderate")),
                                                            ((1, None), 1, ("N", "calm")),
                                                            ((None, "light"), 4, ("S", "light"))],
                             ids=["both-set", "velocity-rolled", "direction-rolled"])
    def test_the_first_wind_is_announced_once_when_it_is_known(self, wind, die, announced):
        """Reconstructed wind: a scenario may set the direction, the velocity, both or neither; what it
        leaves open is rolled at the start (velocity 1 Calm; direction 4 south). The players are told
        the wind once, as soon as both are known: a north wind set by the scenario too."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       wind=wind, sail=False)
        events = state.apply(Sail("Essex", False), 0) + state.apply(Sail("Java", False), 1)
        if die is not None:
            events += state.apply(Roll((die,)))
        assert [e for e in events if isinstance(e, WindChanged)] == [WindChanged(*announced)]
        assert state.phase == "declare"

    def test_in_no_wind_only_the_velocity_is_rolled_and_a_steady_die_keeps_it(self):
        """Seed, Movement 2: no wind, then the direction is rolled anew only when the wind rises."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       wind=(1, "light"), options={"no_wind": True})
        to_next_wind(state)
        state.apply(Roll((3,)))  # the direction holds
        state.apply(Roll((1,)))  # light -> calm: roll again
        assert WindChanged("N", "no wind") in state.apply(Roll((1,)))  # a 1: no wind
        assert state.velocity == "no wind"
        to_next_wind(state)
        assert state.rolls == [("wind-velocity", "", 1)]  # no direction die while there is no wind
        (steady,) = [e.describe() for e in state.apply(Roll((3,))) if isinstance(e, DieRolled)]
        assert steady == "rolled 3 for the wind's velocity: steady, no wind" and state.velocity == "no wind"
        to_next_wind(state)
        events = state.apply(Roll((6,)))  # up a step: calm, from a direction rolled anew
        assert state.velocity == "calm" and state.rolls[0] == ("wind-new-direction", "", 1)
        assert "(its new direction is rolled)" in [e for e in events if isinstance(e, DieRolled)][0].describe()
        assert WindChanged("S", "calm") in state.apply(Roll((4,)))

    def test_a_calm_that_holds_is_no_reason_to_roll_again(self):
        """Seed, Movement 2: the no-wind roll comes when the wind BECOMES Calm; a 1 on the velocity
        die in a calm (standard table) leaves it calm without a second die."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       wind=(1, "calm"), options={"no_wind": True})
        to_next_wind(state)
        state.apply(Roll((3,)))
        (held,) = [e.describe() for e in state.apply(Roll((1,))) if isinstance(e, DieRolled)]
        assert held == "rolled 1 for the wind's velocity: steady, calm" and state.velocity == "calm"
        assert not any(purpose == "no-wind-check" for purpose, _, _ in state.rolls)

    def test_the_optional_table_rolls_two_dice_for_the_velocity_each_turn(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0), ship("Java", "red", 38, "2010", "N", 0),
                       options={"wind_table": "optional"})
        to_next_wind(state)
        assert state.rolls == [("wind-direction", "", 1), ("wind-velocity", "", 2)]
        state.apply(Roll((3,)))
        events = state.apply(Roll((5, 6)))
        (velocity,) = [e for e in events if isinstance(e, DieRolled)]
        assert velocity.dice == (5, 6) and state.velocity == "fresh"  # 11: up one
        assert WindChanged("N", "fresh") in events
