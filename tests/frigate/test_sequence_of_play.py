"""Seed 001, SEQUENCE OF PLAY 1-3: the six phases, who moves first in each segment, fire at any
time (the fire windows), damage at the segment's end, and SiMove's secret declarations and plots."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import DieRolled, GameOver, Moved, Passed, PhaseChanged, Revealed, Submitted, Turned
from quarterdeck.core.hexes import HexDir
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS
from quarterdeck.games.frigate import combat, simove
from quarterdeck.games.frigate.actions import (
    Declare,
    EndDeclare,
    Fire,
    Form,
    Hold,
    Move,
    Order,
    Pass,
    Plot,
    Roll,
    Sail,
    Strike,
    Turn,
)
from quarterdeck.games.frigate.turn import TURN_AGENDA

from .helpers import (
    GAME,
    battle,
    declare,
    hold_to_segment_end,
    hold_windows,
    near,
    quiet_turn,
    ship,
    to_movement,
    to_next_wind,
    to_windows,
)

FRIGATE = {"class": "frigate"}


# Ships each making for the next one's hex with her point (the wind from the south). In line: Essex
# for Fly's (Fly at rest), Java for Essex's, Hornet for Java's. In a ring: Essex for Wasp's, Wasp for
# Java's, Java for Essex's.
IN_LINE = (ship("Fly", "blue", 20, "1009", "N", 0), ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
           ship("Hornet", "red", 20, "1012", "N", 4), ship("Java", "red", 38, "1011", "N", 4, **FRIGATE))
IN_A_RING = (ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE), ship("Wasp", "blue", 20, "1009", "SE", 4),
             ship("Java", "red", 38, "1110", "SW", 4, **FRIGATE))


def apart(**kw):
    """Two frigates far apart, both with the wind on the quarter."""
    return battle(ship("Essex", "blue", 44, "0510", "SE", 4, **FRIGATE),
                  ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE), **kw)


def simove_duel(essex, java, wind, mas=(4, 4), order=(0, 0, 0, 0)):
    """Essex (blue) and Java (red), frigates placed as (hex, heading), plotting segment 1 under SiMove."""
    state = battle(ship("Essex", "blue", 44, *essex, mas[0], **FRIGATE),
                   ship("Java", "red", 38, *java, mas[1], **FRIGATE), wind=(wind, "moderate"), options={"simove": True})
    return to_movement(state, order, Essex=mas[0], Java=mas[1])


class TestOutline:
    def test_the_phases_come_in_the_seeds_order(self):
        state = GAME.new_initial_state("frigate-duel", seed=3)
        assert state.phase == "sail" and state.current_player() == SIMULTANEOUS
        state.apply(Sail("Constitution", False), 0)
        state.apply(Sail("Guerriere", False), 1)
        seen = [state.phase]
        while state.turn == 1 or state.phase != "declare":
            if state.phase != seen[-1]:
                seen.append(state.phase)
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance())
            else:
                seat = state.acting_players()[0]
                state.apply(state.legal_actions(seat)[0], seat)
        # Command Control, Damage Control and Preservation ran with nothing to decide in this duel.
        assert seen[:5] == ["declare", "initiative", "order", "segment", "wind"]
        assert state.turn == 2
        assert TURN_AGENDA == ("wind", "declare", "declared", "command", "initiative", "segment", "segment",
                               "segment", "segment", "drift", "sag", "repair", "preserve", "end-turn")

    def test_before_play_every_ship_is_whole_and_free_and_the_choices_are_revealed_together(self):
        """Seed, Movement 5: full or fighting sail is chosen before play begins, in secret; until then
        each ship is as the scenario sets her: no damage, nothing declared, fired or announced."""
        state = GAME.new_initial_state("frigate-duel", seed=3)
        constitution = state.to_json()["ships"][0]
        assert {key: constitution[key] for key in (
            "hull", "crew", "guns", "masts", "fighting_sail", "sail_chosen", "ma", "declared", "cut", "afoul",
            "fired", "first_fire_turn", "fired_on_turn", "course", "free_turn", "penalty", "left", "debt",
            "turned_here", "must_leave", "passed", "started", "captured_turn", "destroying", "plot", "edge",
            "striking", "mast_hits_now", "turn_k", "turn_way", "segment_k")} == {
            "hull": 0, "crew": 0, "guns": 0, "masts": 0, "fighting_sail": False, "sail_chosen": False, "ma": 0,
            "declared": False, "cut": False, "afoul": "", "fired": [], "first_fire_turn": 0, "fired_on_turn": 0,
            "course": None, "free_turn": "", "penalty": 0, "left": 0, "debt": 0, "turned_here": 0,
            "must_leave": False, "passed": False, "started": False, "captured_turn": 0, "destroying": -1,
            "plot": [], "edge": "", "striking": False, "mast_hits_now": 0, "turn_k": 0, "turn_way": 0, "segment_k": 0}
        assert constitution["status"] == "active" and constitution["owner"] == constitution["side"] == 0
        seen = state.to_json()
        assert {key: seen[key] for key in ("turn", "phase", "segment", "stage", "order", "initiative", "mover",
                                           "declarer", "windows", "rolls", "pending", "exec", "exec_index",
                                           "plotted")} == {
            "turn": 0, "phase": "sail", "segment": 0, "stage": "", "order": ["blue"] * 4, "initiative": None,
            "mover": "blue", "declarer": "blue", "windows": [], "rolls": [], "pending": [], "exec": [],
            "exec_index": 0, "plotted": {}}
        assert state.apply(Sail("Constitution", True), 0) == [Submitted("blue")]  # her only ship: blue is in
        red_view = state.observe(1)  # blue's choice is secret: she seems still to be choosing
        assert red_view.acting_players() == [0, 1] and not red_view.ships["Constitution"].fighting_sail
        assert not state.to_json(viewer=1)["ships"][0]["fighting_sail"]  # nor does red's copy of the game tell
        assert state.to_json(viewer=0)["ships"][0]["fighting_sail"]
        assert Revealed(("blue", "red")) in state.apply(Sail("Guerriere", False), 1)
        assert state.ships["Constitution"].fighting_sail and not state.ships["Guerriere"].fighting_sail
        later = quiet_turn(state)
        assert not any(isinstance(e, Revealed) for e in later)  # no secrets in a later turn without SiMove

    def test_the_initiative_winner_orders_all_four_segments(self):
        state = apart()
        to_movement(state, (1, 0, 0, 1), Essex=4, Java=4)
        assert state.segment == 1 and state.mover == 1  # red first in segment 1
        state.apply(Move("Java"), 1)
        assert state.mover == 0
        state.apply(Move("Essex"), 0)
        assert state.segment == 2 and state.mover == 0
        state.apply(Move("Essex"), 0)
        assert state.segment == 2 and state.mover == 1  # then red, in the same segment

    def test_a_side_with_no_movement_point_in_a_segment_is_told_it_moves_no_ship(self):
        """The Quarterly Movement Chart gives an MA of 3 no point in segment 1 (0, 1, 1, 1): blue, first
        in every segment, is passed over there and told why; red's MA 4 moves in every segment."""
        state = apart()
        declare(state, Essex=3, Java=4)
        events = state.apply(Roll((6, 1))) + state.apply(Order((0, 0, 0, 0)), 0)
        passed = [e for e in events if isinstance(e, Passed)]
        assert passed == [Passed("blue", "moves no ship in segment 1: none has a Movement Point in it",
                                 "Quarterly Movement Chart")]
        assert state.segment == 1 and state.mover == 1  # red moves, alone, in segment 1
        hold_windows(state)
        events = state.apply(Move("Java"), 1) + hold_to_segment_end(state)
        assert state.segment == 2 and not [e for e in events if isinstance(e, Passed)]

    def test_a_segment_in_which_neither_side_can_move_is_told_once(self):
        """The Quarterly Movement Chart gives MA 1 a point in segment 3 alone: in segments 1 and 2 both
        sides are passed over, told in one line a segment rather than one a side."""
        state = apart()
        declare(state, Essex=1, Java=1)
        events = state.apply(Roll((6, 1))) + state.apply(Order((0, 0, 0, 0)), 0)
        passed = [e.describe() for e in events if isinstance(e, Passed)]
        assert passed == [f"neither side moves a ship in segment {n}: none has a Movement Point in it "
                          "(Quarterly Movement Chart)" for n in (1, 2)]

    def test_a_side_with_one_ship_that_can_move_is_not_passed_over(self):
        """Blue's Hornet at MA 1 has no point in segment 1, but Essex at MA 4 has one: blue moves there,
        and no side is told it moves no ship."""
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 4, **FRIGATE),
                       ship("Hornet", "blue", 20, "0515", "SE", 1), ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE))
        declare(state, Essex=4, Hornet=1, Java=4)
        events = state.apply(Roll((6, 1))) + state.apply(Order((0, 0, 0, 0)), 0)
        assert not [e for e in events if isinstance(e, Passed)]
        assert state.segment == 1 and state.mover == 0

    def test_each_phase_is_announced_with_who_acts(self):
        """Decision (ours): the side declaring first alternates, blue on odd turns; with SiMove both
        declare at once; each segment names its first mover."""
        state = apart()
        to_movement(state, (1, 0, 0, 1), Essex=4, Java=4)
        events = quiet_turn(state)
        phases = [(e.player, e.phase) for e in events if isinstance(e, PhaseChanged)]
        assert phases[:3] == [("blue", "move first in segment 2"), ("blue", "move first in segment 3"),
                              ("red", "move first in segment 4")]
        assert ("red", "declare") in phases  # turn 2: red declares first
        together = apart(options={"simove": True})
        to_movement(together, Essex=4, Java=4)
        assert ("both", "declare") in [(e.player, e.phase) for e in quiet_turn(together) if isinstance(e, PhaseChanged)]

    def test_the_position_says_whose_decision_it_is(self):
        state = apart()
        assert state.describe() == "turn 1, declare: blue to decide"
        declare(state, Essex=4, Java=4)
        assert state.describe() == "turn 1, initiative: rolling for initiative"
        state.apply(Roll((6, 1)))
        state.apply(Order((0, 0, 0, 0)), 0)
        assert state.describe() == "turn 1, segment 1 (move): blue to decide"
        assert state.legal_actions(0, piece="essex") == state.legal_actions(0) != []  # any case of her name
        assert state.legal_actions(0, piece="Java") == []

    def test_without_simove_the_side_declaring_second_sees_the_first_sides_declaration(self):
        state = apart()
        state.apply(Declare("Essex", 4), 0)
        assert state.current_player() == 1
        assert state.observe(1).ships["Essex"].declared and state.observe(1).ships["Essex"].ma == 4
        assert state.to_json(viewer=1)["ships"][0]["ma"] == 4

    def test_a_ship_named_with_nothing_left_to_do_is_told_why_by_her_rule(self):
        state = battle(*IN_LINE, wind=(4, "moderate"))
        state.apply(Declare("Essex", 4), 0)
        declared = state.idle_reason("ESSEX", 0)
        assert (declared.rule, declared.message) == ("declaration", "Essex has already declared this turn")
        assert state.idle_reason("Fly", 0) is None  # she still declares
        assert state.idle_reason("Java", 0).rule == "ownership"
        declare(state, Fly=0, Hornet=4, Java=4)
        between = state.idle_reason("Essex", 0)  # the initiative is thrown: no ship acts in that
        assert (between.rule, between.message) == (
            "sequence-of-play", "Essex has no action in this step (turn 1, initiative: rolling for initiative)")
        to_movement(state)
        assert state.describe() == "turn 1, segment 1 (move): blue to decide"
        java = state.idle_reason("Java", 1)
        assert (java.rule, java.message) == ("sequence-of-play", "red is not moving now: blue moves")

    def test_until_she_declares_a_ships_allowance_reads_nothing(self):
        """At the next Declaration the record shows no allowance declared yet, and the last turn's
        segments over: no segment, stage, end-of-segment fire round or window."""
        state = apart()
        to_movement(state, Essex=4, Java=4)
        quiet_turn(state)
        assert state.turn == 2 and state.phase == "declare"
        seen = state.to_json()
        assert [(s["declared"], s["ma"]) for s in seen["ships"]] == [(False, 0), (False, 0)]
        assert (seen["segment"], seen["stage"], seen["end_round"], seen["windows"]) == (0, "", False, [])
        assert seen["ships"][0]["allowed"][:2] == [0, 6] and seen["initiative"] == "blue"  # blue won it in turn 1

    def test_equal_points_when_the_turns_run_out_are_a_draw(self):
        state = apart(turns=1)
        to_movement(state, Essex=4, Java=4)
        events = quiet_turn(state)
        assert state.outcome.result == "draw" and state.outcome.returns == (0.0, 0.0)
        assert state.outcome.reason == "the game-turn is over; 0 points each"
        assert GameOver("draw", "the game-turn is over; 0 points each") in events  # the players are told

    def test_the_dice_fall_evenly(self):
        """Every die is a chance decision: one die's six faces at 1/6 each, the initiative's 36 pairs at
        1/36 each (blue's die first)."""
        state = apart()
        state.apply(Declare("Essex", 4), 0)
        state.apply(Declare("Java", 4), 1)
        pairs = state.chance_outcomes()
        assert {roll.values for roll, _ in pairs} == {(a, b) for a in range(1, 7) for b in range(1, 7)}
        assert all(p == 1 / 36 for _, p in pairs)
        to_next_wind(state)  # the wind's direction: one die
        faces = state.chance_outcomes()
        assert [(roll.values, p) for roll, p in faces] == [((face,), 1 / 6) for face in range(1, 7)]

    def test_after_a_point_ahead_she_may_turn_in_her_new_hex(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **FRIGATE),
                       ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE))
        to_movement(state, Essex=8, Java=4)
        assert Moved("Essex", "0510", "0610", "SE") in state.apply(Move("Essex"), 0)
        state.ships["Essex"].left = 2  # as if she had the points: two hexsides in her new hex
        state.apply(Turn("Essex", "starboard"), 0)
        state.apply(Turn("Essex", "starboard"), 0)
        assert state.ships["Essex"].facing.name == "SW"

    def test_ties_are_rolled_again(self):
        state = apart()
        state.apply(Declare("Essex", 4), 0)
        state.apply(Declare("Java", 4), 1)
        state.apply(Roll((3, 3)))
        assert state.current_player() == CHANCE and state.rolls[0][0] == "initiative"
        state.apply(Roll((2, 5)))
        assert state.phase == "order" and state.current_player() == 1
        with pytest.raises(IllegalAction):
            state.apply(Order((0, 0, 0, 0)), 0)

    def test_a_ship_spends_all_her_points_before_the_next_ship_moves(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **FRIGATE),
                       ship("Wasp", "blue", 20, "0515", "SE", 8), ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE))
        to_movement(state, Essex=8, Wasp=8, Java=4)
        state.apply(Move("Essex"), 0)
        with pytest.raises(IllegalAction) as error:
            state.apply(Move("Wasp"), 0)
        assert error.value.rule == "one-ship-at-a-time"
        assert state.legal_actions(0) and all(a.ship == "Essex" for a in state.legal_actions(0))


class TestFireAtAnyTime:
    def test_a_window_opens_when_a_target_comes_into_a_field(self):
        # Java lies dead ahead of Essex, in her bow chase field; a turn brings a broadside to bear.
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Java", "red", 38, "1006", "S", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Essex=4, Java=0)
        hold_windows(state)
        events = state.apply(Turn("Essex", "port"), 0)  # now facing NW: Java is on her starboard side
        assert events[0] == Turned("Essex", "1010", "NW")
        assert state.windows and state.windows[0] == "Essex"
        assert any(a.battery == "starboard" for a in state.legal_actions(0) if hasattr(a, "battery"))

    def test_each_segments_windows_ask_its_first_mover_first(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "1209", "N", 0, **FRIGATE))
        declare(state, Essex=0, Java=0)
        state.apply(Roll((6, 1)))
        state.apply(Order((0, 1, 0, 1)), 0)
        assert state.segment == 1 and state.windows == ["Essex", "Java"]  # blue moves first in segment 1
        while not (state.segment == 2 and state.end_round):
            state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
        assert state.windows == ["Java", "Essex"]  # red moved first in segment 2
        # Red, with nothing to move, never had the move: the record still names red, the first mover.
        assert state.to_json()["mover"] == "red"

    def test_passing_closes_the_windows_until_the_segments_end(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "1209", "N", 0, **FRIGATE))
        to_windows(state, Essex=0, Java=0)
        state.apply(Pass("Essex"), 0)
        state.apply(Hold("Java"), 1)
        # No movement: the end round comes at once, and Essex is asked again there.
        assert state.end_round and state.windows[0] == "Essex"


    def test_a_ship_that_passed_gets_no_window_for_a_new_target_before_the_segments_end(self):
        # Java, ahead of Essex in her bow field, sails into her port broadside's field after Essex passed
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "0806", "S", 4, **FRIGATE), wind=(3, "moderate"))
        declare(state, Essex=0, Java=4)
        state.apply(Roll((6, 1)))
        state.apply(Order((1, 1, 1, 1)), 0)  # red moves first
        assert state.windows == ["Java", "Essex"]
        state.apply(Hold("Java"), 1)
        state.apply(Pass("Essex"), 0)
        state.apply(Move("Java"), 1)
        assert combat.attacks(state, state.ships["Essex"]) == [("port", "Java")]
        assert state.windows == ["Java"] and not state.end_round  # Essex waits for the segment's end


class TestSiMove:
    def test_declarations_are_secret_until_both_are_in(self):
        state = apart(options={"simove": True})
        assert state.current_player() == SIMULTANEOUS and state.acting_players() == [0, 1]
        events = state.apply(Declare("Essex", 6), 0)
        assert events == [Submitted("blue")]  # her only ship declared: blue is done
        red_view = state.observe(1)
        assert red_view.ships["Essex"].ma == 0 and not red_view.ships["Essex"].declared
        assert red_view.acting_players() == [0, 1]  # blue still seems to be deciding
        assert "6" not in str(state.to_json(viewer=1)["ships"][0]["ma"])
        events = state.apply(Declare("Java", 5), 1)
        assert Revealed(("blue", "red")) in events and state.ships["Essex"].ma == 6

    def test_a_side_with_more_to_announce_ends_its_declaration_itself_and_is_told_it_is_in(self):
        # Essex, damaged, may still strike her colours: blue's declaration waits for its end-declare
        state = apart(options={"simove": True})
        state.ships["Essex"].hull = 1
        assert state.apply(Declare("Essex", 6), 0) == []
        assert EndDeclare() in state.legal_actions(0) and state.acting_players() == [0, 1]
        assert state.apply(EndDeclare(), 0) == [Submitted("blue")]
        assert state.acting_players() == [1]

    def test_announcements_are_secret_until_both_are_in(self):
        """SiMove: striking colours and a change of formation are announced at Declaration, in secret."""
        state = battle(ship("Victory", "blue", 100, "0510", "N", 4, squadron="van", flagship="fleet"),
                       ship("Temeraire", "blue", 98, "0512", "N", 4, squadron="van"),
                       ship("Redoutable", "red", 74, "3001", "S", 0), wind=(3, "moderate"),
                       squadrons=[{"name": "van", "side": "blue", "formation": "line-ahead"}],
                       options={"simove": True})
        state.ships["Temeraire"].hull = 1
        state.apply(Strike("Temeraire"), 0)
        state.apply(Form("van", "line-abreast"), 0)
        seen = state.to_json(viewer=1)
        assert seen["form"] == {} and not any(s["striking"] for s in seen["ships"])
        assert state.to_json(viewer=0)["form"] == {"van": "line-abreast"}

    def test_plots_are_secret_and_executed_together(self):
        state = apart(options={"simove": True})
        for name, side, ma in (("Essex", 0, 4), ("Java", 1, 4)):
            state.apply(Declare(name, ma), side)
        state.apply(Roll((6, 1)))
        state.apply(Order((0, 0, 0, 0)), 0)
        hold_windows(state)
        assert state.stage == "plot" and state.acting_players() == [0, 1]
        state.apply(Plot("Essex", "ahead"), 0)
        assert state.observe(1).ships["Essex"].plot == ()
        assert state.ships["Essex"].hex == state.grid.parse("0510")  # nothing moves before both plot
        events = state.apply(Plot("Java", "ahead"), 1)
        assert Revealed(("blue", "red")) in events
        assert state.grid.name(state.ships["Essex"].hex) != "0510"
        assert state.grid.name(state.ships["Java"].hex) != "3010"

    def test_a_segment_no_ship_has_a_point_in_reveals_nothing(self):
        """An MA of 3 has no point in segment 1: with SiMove neither side plots there, so no secret
        is made and none is announced as revealed; both are told they move no ship."""
        state = apart(options={"simove": True})
        for name, side in (("Essex", 0), ("Java", 1)):
            state.apply(Declare(name, 3), side)
        events = state.apply(Roll((6, 1))) + state.apply(Order((0, 0, 0, 0)), 0) + hold_to_segment_end(state)
        assert not any(isinstance(e, Revealed) for e in events)
        assert [e.player for e in events if isinstance(e, Passed)] == ["neither side"]
        assert state.segment == 2 and state.stage == "plot"

    def test_enemies_meeting_in_a_hex_run_afoul(self):
        # Essex (1010, heading NE) and Java (1209, heading SW) both reach 1110 with the one point each
        # has in segment 1. Equal points: the ship further north (Java) sets the facing.
        state = simove_duel(("1010", "NE"), ("1209", "SW"), wind=1)
        state.apply(Plot("Essex", "ahead"), 0)
        state.apply(Plot("Java", "ahead"), 1)
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert state.grid.name(essex.hex) == state.grid.name(java.hex) == "1110"
        assert essex.afoul == "Java" and java.afoul == "Essex"
        assert state.plotted == {"Essex": 1, "Java": 1}
        assert java.facing.name == "SW" and essex.facing.name in ("SW", "NE")

    def test_meeting_with_equal_points_the_ship_further_north_sets_the_facing(self):
        """Seed, Movement 6, both wanted it: the fewest points plotted sets the facing, else (ruling) the
        ship further north. Essex comes up from the south, Java down from the north-west: Java keeps
        her heading and Essex, entering over Java's starboard bow, lies the opposite way."""
        state = simove_duel(("1011", "N"), ("0910", "SE"), wind=5, mas=(8, 8))
        for step in ("ahead", "ahead"):
            state.apply(Plot("Essex", step), 0)
            state.apply(Plot("Java", step), 1)
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert state.grid.name(essex.hex) == state.grid.name(java.hex) == "1010" and essex.afoul == "Java"
        assert java.facing.name == "SE" and essex.facing.name == "NW"
        # Run afoul at the first step, both lose the rest of their plots (the schedule keeps no step).
        assert state.windows and state.to_json()["exec"] == [[["Essex", "ahead"], ["Java", "ahead"]], []]

    def test_running_aboard_a_ship_that_turned_stops_both(self):
        """Seed, Movement 6 under SiMove: Essex sails into Java's hex as Java turns in it, and runs
        aboard her from astern; afoul, both stop: neither has a point left, and the rest of both plots
        (Essex's second move, Java's move ahead) is struck from the schedule."""
        state = simove_duel(("1010", "N"), ("1009", "N"), wind=4, mas=(8, 8))
        for step in ("ahead", "ahead"):
            state.apply(Plot("Essex", step), 0)
        for step in ("port", "ahead"):
            state.apply(Plot("Java", step), 1)
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert essex.afoul == "Java" and state.grid.name(essex.hex) == "1009" and essex.facing == java.facing
        assert state.windows and (essex.left, java.left) == (0, 0)
        assert state.to_json()["exec"] == [[["Essex", "ahead"], ["Java", "port"]], []]

    def test_meeting_the_ship_that_plotted_fewer_points_sets_the_facing(self):
        """Java (further north) plots two points, a turn and a move; Essex one: Essex keeps her heading
        and Java, coming in over Essex's port bow, lies the opposite way."""
        state = simove_duel(("1011", "N"), ("0910", "S"), wind=6, mas=(4, 8))
        state.apply(Plot("Essex", "ahead"), 0)
        state.apply(Plot("Java", "port"), 1)
        assert Turned("Java", "0910", "SE") in state.apply(Plot("Java", "ahead"), 1)
        state.apply(Hold("Java"), 1)  # her turn at the first step brought Essex under her guns
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert state.grid.name(essex.hex) == state.grid.name(java.hex) == "1010" and essex.afoul == "Java"
        assert essex.facing.name == "N" and java.facing.name == "S"

    def test_windows_opened_by_a_step_ask_the_segments_first_mover_first(self):
        """Fire at any time, with SiMove too: Essex and Java, bow to bow 4 hexes apart, each turn a
        hexside at the same step and bring a broadside to bear; red moves first in segment 1, so Java
        is asked first."""
        state = simove_duel(("1012", "N"), ("1008", "S"), wind=2, order=(1, 0, 0, 0))
        state.apply(Plot("Essex", "port"), 0)
        state.apply(Plot("Java", "starboard"), 1)
        assert state.windows == ["Java", "Essex"]
        assert Fire("Java", "port", "Essex", "hull") in state.legal_actions(1)

    def test_the_schedule_spreads_each_ships_points_over_the_common_steps(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **FRIGATE),
                       ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE),
                       ship("Wasp", "red", 20, "3020", "SW", 0), options={"simove": True})
        to_movement(state, Essex=8, Java=4, Wasp=0)
        state.apply(Plot("Essex", "starboard"), 0)
        state.apply(Plot("Essex", "ahead"), 0)
        state.ships["Java"].plot = ("ahead",)
        simove.reveal(state, [])
        # m = 2: Essex's points at steps 1 and 2, Java's single point at step ceil(1 x 2 / 1) = 2.
        assert state.exec_steps == [[("Essex", "starboard")], [("Essex", "ahead"), ("Java", "ahead")]]
        assert state.to_json()["plotted"] == {"Essex": 2, "Java": 1}  # Wasp, at MA 0, plotted nothing

    def test_after_a_point_ahead_she_may_still_turn(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **FRIGATE),
                       ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE), options={"simove": True})
        to_movement(state, Essex=8, Java=4)
        state.apply(Plot("Essex", "ahead"), 0)
        assert {Plot("Essex", "starboard"), Plot("Essex", "ahead")} <= set(state.legal_actions(0))

    def test_after_a_point_ahead_she_may_plot_two_hexsides_in_her_new_hex(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 12, **FRIGATE),
                       ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE), wind=(1, "fresh"), options={"simove": True})
        to_movement(state, Essex=12, Java=4)  # 3 points in segment 1
        state.apply(Plot("Essex", "ahead"), 0)
        state.apply(Plot("Essex", "starboard"), 0)
        assert Plot("Essex", "starboard") in state.legal_actions(0)

    def test_with_nothing_else_lawful_she_plots_standing(self):
        """A withdrawing 74 (home edge south) facing north with her single point in segment 3: no move
        away from her edge, and no turn she can pay for (2 points): she stands."""
        state = battle(ship("Bellona", "blue", 74, "0510", "N", 1), ship("Java", "red", 38, "3010", "SW", 0),
                       wind=(4, "moderate"), options={"simove": True})
        state.force_state[0].withdrawing = True
        to_movement(state, Bellona=1, Java=0)
        assert state.segment == 3 and state.legal_actions(0) == [Plot("Bellona", "stand")]
        with pytest.raises(IllegalAction) as refused:
            state.apply(Plot("Bellona", "port"), 0)
        assert refused.value.rule == "turning-cost"
        state.apply(Plot("Bellona", "stand"), 0)
        assert state.segment != 3 and state.grid.name(state.ships["Bellona"].hex) == "0510"

    def test_standing_spends_the_segments_point_and_no_more(self):
        """Seed, SiMove: "it must be moved in the one direction determined by the procedure": Essex, far
        from her flag, loses Command Control (course NW, her heading); blue withdraws toward the east
        edge, so she may neither sail on nor turn. She stands on her segment's point, with nothing left
        at the segment's end, and stands again on the next segment's."""
        state = battle(ship("Victory", "blue", 100, "2010", "N", 0, squadron="van", flagship="fleet"),
                       ship("Essex", "blue", 44, "1510", "NW", 4, squadron="van", **FRIGATE),
                       ship("Redoutable", "red", 74, "1507", "S", 0), wind=(4, "moderate"), options={"simove": True},
                       squadrons=[{"name": "van", "side": "blue", "lead": "Victory"}], home_edges=("east", "north"))
        state.force_state[0].withdrawing = True
        to_movement(state, Victory=0, Essex=4, Redoutable=0)  # the dice: Command Control lost, course 6 (NW)
        essex = state.ships["Essex"]
        assert essex.course == HexDir.NW and state.legal_actions(0) == [Plot("Essex", "stand")]
        state.apply(Plot("Essex", "stand"), 0)
        assert state.end_round and state.windows == ["Redoutable"]  # her chasers bear on Essex
        assert (essex.left, essex.debt) == (0, 0)
        hold_windows(state)
        assert state.segment == 2 and state.legal_actions(0) == [Plot("Essex", "stand")]

    def test_a_segment_nobody_plots_has_no_steps(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE), options={"simove": True})
        to_windows(state, Essex=0, Guerriere=0)
        for name in list(state.windows):  # the opening windows; then, with no plots, the end round
            state.apply(Hold(name), state.ships[name].owner)
        assert state.end_round and state.to_json()["exec"] == []

    def test_a_turn_plotted_costs_its_full_price(self):
        """A 74 pays 2 points a hexside (the schedule): with 2 points this segment one turn fills her plot."""
        state = battle(ship("Bellona", "blue", 74, "0510", "SE", 8),
                       ship("Java", "red", 38, "3010", "SW", 4, **FRIGATE), wind=(1, "fresh"), options={"simove": True})
        to_movement(state, Bellona=8, Java=4)
        events = state.apply(Plot("Bellona", "starboard"), 0)
        assert Submitted("blue") in events and state.legal_actions(0) == []

    def test_a_plot_breaks_the_rules_no_more_than_a_move(self):
        state = simove_duel(("0510", "N"), ("3010", "SW"), wind=4)
        state.force_state[0].withdrawing = True  # blue withdraws toward the south edge
        for step, rule in (("ahead", "preservation"), ("stand", "stand")):
            with pytest.raises(IllegalAction) as refused:
                state.apply(Plot("Essex", step), 0)
            assert refused.value.rule == rule
        assert state.ships["Essex"].plot == ()

    def test_head_on_enemies_run_afoul(self):
        """Decision (ours): two ships moving into each other's hex meet in one of them: the ship listed
        first (Essex) sails into the other's hex (Java's, 1009)."""
        state = simove_duel(("1010", "N"), ("1009", "S"), wind=2)
        state.apply(Plot("Essex", "ahead"), 0)
        state.apply(Plot("Java", "ahead"), 1)
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert essex.afoul == "Java" and state.grid.name(essex.hex) == state.grid.name(java.hex) == "1009"

    def test_plots_only_in_a_simove_plotting_step(self):
        state = apart()
        to_movement(state, Essex=4, Java=4)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Plot("Essex", "ahead"), 0)
        assert refused.value.rule == "simove" and "plotted only in a SiMove segment" in str(refused.value)

    def test_blocked_by_her_own_side_she_stops_short_and_loses_the_rest_of_her_plot(self):
        """Decision (ours): a ship whose way is blocked by her own side stops short; the others sail on."""
        state = battle(ship("Essex", "blue", 44, "0511", "S", 8, **FRIGATE), ship("Wasp", "blue", 20, "0512", "S", 0),
                       ship("Hornet", "blue", 20, "1510", "S", 8), ship("Java", "red", 38, "3010", "SW", 0),
                       options={"simove": True})
        to_movement(state, Essex=8, Wasp=0, Hornet=8, Java=0)
        for step in ("ahead", "starboard"):
            state.apply(Plot("Essex", step), 0)
        for step in ("ahead", "ahead"):
            state.apply(Plot("Hornet", step), 0)
        essex, hornet = state.ships["Essex"], state.ships["Hornet"]
        assert state.grid.name(essex.hex) == "0511" and essex.facing.name == "S"  # no move, and no turn after
        assert state.grid.name(hornet.hex) == "1512"

    def test_friends_making_for_one_hex_both_stop_short(self):
        state = battle(ship("Essex", "blue", 44, "0510", "SE", 8, **FRIGATE),
                       ship("Wasp", "blue", 20, "0710", "SW", 8), ship("Java", "red", 38, "3010", "SW", 0),
                       options={"simove": True})
        assert near(state, "Essex", "SE") == near(state, "Wasp", "SW") == "0610"
        to_movement(state, Essex=8, Wasp=8, Java=0)
        for step in ("ahead", "ahead"):
            state.apply(Plot("Essex", step), 0)
        for step in ("ahead", "starboard"):
            state.apply(Plot("Wasp", step), 0)
        essex, wasp = state.ships["Essex"], state.ships["Wasp"]
        assert state.grid.name(essex.hex) == "0510" and state.grid.name(wasp.hex) == "0710"
        assert wasp.facing.name == "SW"  # the rest of her plot is lost

    def test_a_third_ship_making_for_the_hex_where_two_enemies_meet_stops_short(self):
        state = battle(ship("Hornet", "blue", 20, "1011", "N", 8),
                       ship("Java", "red", 38, "0910", "SE", 8, **FRIGATE), ship("Wasp", "blue", 20, "1110", "SW", 8),
                       wind=(6, "moderate"), options={"simove": True})
        to_movement(state, Hornet=8, Java=8, Wasp=8)
        for name, side, steps in (("Hornet", 0, ("ahead", "ahead")), ("Wasp", 0, ("ahead", "port")),
                                  ("Java", 1, ("ahead", "ahead"))):
            for step in steps:
                state.apply(Plot(name, step), side)
        assert state.windows and state.ships["Wasp"].left == 0  # stopped short: her last point is lost too
        hold_windows(state)
        wasp = state.ships["Wasp"]
        assert state.ships["Hornet"].afoul == "Java"
        assert state.grid.name(wasp.hex) == "1110" and wasp.facing.name == "SW"  # stopped, the rest of her plot lost

    def test_a_prize_and_an_enemy_making_for_one_hex_both_stop_short(self):
        """A prize crew cannot run aboard (Prizes): meeting an enemy at the same step, neither enters."""
        state = battle(ship("Prize", "red", 38, "1011", "N", 3, **FRIGATE),
                       ship("Java", "red", 38, "0910", "SE", 3, **FRIGATE), ship("Essex", "blue", 44, "3020", "N", 0),
                       wind=(6, "moderate"), options={"simove": True})
        state.ships["Prize"].owner = 0  # taken by blue in an earlier turn
        to_movement(state, Prize=3, Java=3, Essex=0)
        assert state.segment == 2  # MA 3: her first point is in segment 2
        state.apply(Plot("Prize", "ahead"), 0)
        state.apply(Plot("Java", "ahead"), 1)
        prize, java = state.ships["Prize"], state.ships["Java"]
        assert (state.grid.name(prize.hex), state.grid.name(java.hex)) == ("1011", "0910") and not prize.afoul

    def test_a_ship_taken_during_the_steps_plots_no_more(self):
        state = battle(ship("Mary", "red", 14, "1009", "N", 4, **{"class": "merchantman"}),
                       ship("Vengeur", "blue", 20, "1010", "N", 8), ship("Java", "red", 38, "3020", "N", 0),
                       wind=(3, "moderate"), options={"simove": True})
        to_movement(state, Vengeur=8, Mary=4, Java=0)
        state.apply(Plot("Vengeur", "ahead"), 0)
        state.apply(Plot("Vengeur", "ahead"), 0)
        state.apply(Plot("Mary", "starboard"), 1)  # her one point falls at the second step
        hold_windows(state)
        mary, vengeur = state.ships["Mary"], state.ships["Vengeur"]
        assert mary.owner == 0 and mary.facing.name == "N"  # taken at the first step: her turn never comes
        assert state.grid.name(vengeur.hex) == "1008"  # Vengeur sails on at the second step

    def test_a_merchantman_taken_head_on_sails_no_further(self):
        """Seed, Prizes 1 under SiMove: Vengeur, listed first, sails into Mary's hex as Mary makes for
        hers, and takes her there; a prize taken this turn has no points left."""
        state = battle(ship("Vengeur", "blue", 20, "1010", "N", 4),
                       ship("Mary", "red", 14, "1009", "S", 4, **{"class": "merchantman"}),
                       ship("Java", "red", 38, "3020", "N", 0), wind=(3, "moderate"), options={"simove": True})
        to_movement(state, Vengeur=4, Mary=4, Java=0)
        state.apply(Plot("Vengeur", "ahead"), 0)
        state.apply(Plot("Mary", "ahead"), 1)
        mary, vengeur = state.ships["Mary"], state.ships["Vengeur"]
        assert mary.owner == 0 and state.grid.name(mary.hex) == state.grid.name(vengeur.hex) == "1009"

    def test_a_ship_follows_into_the_hex_her_leader_leaves_at_the_same_step(self):
        state = battle(ship("Wasp", "blue", 20, "0509", "S", 4), ship("Essex", "blue", 44, "0510", "S", 4, **FRIGATE),
                       ship("Java", "red", 38, "3010", "SW", 0), options={"simove": True})
        to_movement(state, Wasp=4, Essex=4, Java=0)
        state.apply(Plot("Wasp", "ahead"), 0)
        state.apply(Plot("Essex", "ahead"), 0)
        assert (state.grid.name(state.ships["Wasp"].hex), state.grid.name(state.ships["Essex"].hex)) == ("0510", "0511")

    @pytest.mark.parametrize(("ships", "follower"), [(IN_LINE, "Hornet"), (IN_A_RING, "Wasp")],
                             ids=["in-line", "in-a-ring"])
    def test_a_ship_stopped_short_is_run_aboard_and_her_boarders_hex_followed_into(self, ships, follower):
        """Decisions (ours), all at one step, the ships resolved in the order listed: Essex, blocked by a
        ship of her own side, stops short; Java runs aboard her; the ship making for the hex Java left
        follows into it (Hornet, astern of Java; or, in a ring of three, Wasp, who blocked Essex)."""
        state = battle(*ships, wind=(4, "moderate"), options={"simove": True})
        java_was = state.grid.name(state.ships["Java"].hex)
        to_movement(state, **{entry["name"]: entry["ma"] for entry in ships})
        for entry in ships:
            if entry["ma"]:
                state.apply(Plot(entry["name"], "ahead"), state.ships[entry["name"]].owner)
        essex, java = state.ships["Essex"], state.ships["Java"]
        assert java.afoul == "Essex" and state.grid.name(java.hex) == state.grid.name(essex.hex) == "1010"
        assert state.grid.name(state.ships[follower].hex) == java_was


class TestDiceShown:
    """The interfaces show each roll and what it decided (terminal and browser print the events)."""

    def test_the_initiative_shows_both_dice_and_who_chooses(self):
        state = apart()
        state.apply(Declare("Essex", 4), 0)
        state.apply(Declare("Java", 4), 1)
        tie = [e for e in state.apply(Roll((3, 3))) if isinstance(e, DieRolled)]
        assert tie[0].dice == (3, 3) and tie[0].decided == "a tie, rolled again"
        (rolled,) = [e for e in state.apply(Roll((2, 5))) if isinstance(e, DieRolled)]
        assert rolled.to_json()["dice"] == (2, 5) and rolled.value == 7
        assert rolled.describe() == ("rolled 2 and 5 for initiative (blue's die, then red's): red chooses who moves "
                                     "first in each segment")

    def test_a_broadside_shows_its_column_and_each_hit_its_kind(self):
        state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                                  ship("Guerriere", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Guerriere=0)
        state.apply(Fire("Essex", "starboard", "Guerriere", "hull"), 0)
        (crt,) = [e.describe() for e in state.apply(Roll((5,))) if isinstance(e, DieRolled)]
        assert crt == "rolled 5 for Essex's attack on the CRT: column 1-1: 1 hit"
        (kind,) = [e.describe() for e in state.apply(Roll((4,))) if isinstance(e, DieRolled)]
        assert kind == ("rolled 4 for the kind of Essex's hit: a crew hit on Guerriere (aimed at the hull), "
                        "landing at the segment's end")

    def test_the_wind_die_says_whether_it_veered_or_backed(self):
        state = apart()
        to_movement(state, Essex=4, Java=4)
        while state.rolls[:1] != [("wind-direction", "", 1)]:
            if state.current_player() == CHANCE:
                state.apply(Roll((3,) * state.rolls[0][2]))
            else:
                seat = state.acting_players()[0]
                state.apply(state.legal_actions(seat)[0], seat)
        (veer,) = [e.describe() for e in state.apply(Roll((6,))) if isinstance(e, DieRolled)]
        assert veer == "rolled 6 for the wind's direction: veers to the NE"
        (steady,) = [e.describe() for e in state.apply(Roll((3,))) if isinstance(e, DieRolled)]
        assert steady == "rolled 3 for the wind's velocity: steady, moderate"
