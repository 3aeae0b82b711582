"""Seed 003, rules 9 (fire and hits), 10 (what bears), 11 (sixes remove batteries), 12 (boarding)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.events import BatteryLost, BoardingRound, DieRolled, Fired, Hit, Marked, Passed, Sunk
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.naval_warfare import boarding, fire
from quarterdeck.games.naval_warfare.actions import Fire, Move, Remove
from quarterdeck.games.naval_warfare.scenario import Battery

from .helpers import due, passive, play, position, roll, ship, to_movement


def broadside_position(off: float = 5, **kw):
    """Revenge heading east with San Martin `off` inches off her port beam, both to fire after a 1" move."""
    ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 10 + off, 90, type="San Martin")]
    ships += kw.pop("extra", [])
    state = to_movement(position(ships, **kw))
    play(state, "move Revenge turn 0 run 1.00 turn 0")
    for other in [s for s in state.ships.values() if s.side == 0 and not s.moved]:
        play(state, f"move {other.name} turn 0 run 1.00 turn 0")
    play(state, "move San Martin turn 0 run 1.00 turn 0")
    for other in [s["name"] for s in ships if s["side"] == "spanish" and s["name"] != "San Martin"]:
        play(state, f"move {other} turn 0 run 1.00 turn 0")
    return state


def assert_the_fight_starts_again_at_round_one(state) -> None:
    """Past the rest of the move (no fire) to the next one: Revenge's fight goes on first, from
    round 1 (rulings: "fighting continues next move")."""
    while due(state) in (("decide", "fire"), ("decide", "end")):
        play(state, "end-fire" if due(state)[1] == "fire" else "end-move")
    roll(state, 2, 2)
    roll(state, 9, 4)
    assert due(state) == ("roll", "boarding") and state.phase == "fights"
    assert roll(state, 1) == [DieRolled("Revenge in boarding round 1", 1)]


class TestRules9To11Fire:
    def test_each_battery_throws_short_4_6_long_5_6_each_hit_one_flotation_and_crew(self):
        state = broadside_position()
        assert state.phase == "fire-first" and state.current_player() == 0
        play(state, "fire Revenge port at San Martin")
        # port: 2 medium (5" is their long range: 5-6) and 3 long (short range: 4-6)
        events = [event for value in (5, 4, 4, 3, 6) for event in roll(state, value)]
        martin = state.ships["San Martin"]
        assert (martin.flotation, martin.crew) == (47, 97)
        assert state.removals == {"San Martin": 1}
        assert Fired("Revenge", "port", 5, "San Martin", 3, "5 batteries, 3 hits") in events

    def test_the_owner_removes_a_battery_for_each_of_two_sixes(self):
        """Rule 11: each six costs a battery; two sixes on San Martin, two batteries for her owner to remove."""
        state = broadside_position()
        play(state, "fire Revenge port at San Martin")
        for value in (6, 6, 1, 1, 1):
            roll(state, value)
        before = len(state.ships["San Martin"].batteries)
        play(state, "remove San Martin starboard short")
        assert due(state) == ("decide", "damage") and state.current_player() == 1
        play(state, "remove San Martin starboard short")
        assert len(state.ships["San Martin"].batteries) == before - 2 and state.phase == "fire-second"

    @pytest.mark.parametrize(("off", "hits"), [(4, 5), (4.01, 3)])
    def test_a_range_band_includes_its_upper_edge(self, off, hits):
        """Rule 9 (rulings: bands include their upper edge): at exactly 4" Revenge's two medium
        batteries are at short range and hit on 4; at 4.01" they need 5-6, her long ones still 4-6."""
        state = broadside_position(off)
        play(state, "fire Revenge port at San Martin")
        for _ in range(5):
            roll(state, 4)
        assert state.ships["San Martin"].flotation == 50 - hits

    def test_hits_without_a_six_take_no_battery(self):
        """Rule 11: only sixes remove batteries; three hits of 4 and 5 leave the San Martin's guns
        as they were and ask her owner nothing."""
        state = broadside_position()
        before = len(state.ships["San Martin"].batteries)
        play(state, "fire Revenge port at San Martin")
        for value in (5, 4, 4, 3, 5):
            roll(state, value)
        martin = state.ships["San Martin"]
        assert martin.flotation == 47 and len(martin.batteries) == before
        assert "San Martin" not in state.removals and due(state) != ("decide", "damage")

    @pytest.mark.parametrize(("kind", "blocks"), [("land", True), ("shoal", False)])
    def test_land_in_the_line_of_fire_blocks_it_a_shoal_does_not(self, kind, blocks):
        """Rulings, "Fire": a shot runs mainmast to mainmast; land blocks it, shoals do not."""
        rock = [{"name": "Eddystone", "kind": kind, "points": [[10.6, 12.2], [11.4, 12.2], [11.4, 12.8], [10.6, 12.8]]}]
        state = broadside_position(land=rock)
        shot = Fire("Revenge", "port", "San Martin")
        assert (shot not in state.legal_actions()) == blocks
        assert ("Eddystone" in fire.why_not(state, 0, shot)[1]) == blocks

    @pytest.mark.parametrize(("dice", "after"), [((5, 4, 4, 3, 6), (47, 98, 99)), ((5, 5, 4, 4, 1), (46, 98, 98))])
    def test_prisoners_held_aboard_share_the_casualties(self, dice, after):
        """Optional rule 6: a ship holding as many prisoners as her own crew loses casualties divided
        equally between them (three hits: two of her men, one prisoner; four hits: two and two)."""
        state = broadside_position()
        martin = state.ships["San Martin"]
        martin.prisoners = martin.crew
        play(state, "fire Revenge port at San Martin")
        for value in dice:
            roll(state, value)
        assert (martin.flotation, martin.crew, martin.prisoners) == after

    def test_the_targets_owner_removes_a_battery_for_each_six(self):
        state = broadside_position()
        play(state, "fire Revenge port at San Martin")
        for value in (6, 1, 1, 1, 1):
            roll(state, value)
        assert due(state) != ("decide", "fire")  # nothing else can fire: the step passes by itself
        assert state.current_player() == 1 and due(state) == ("decide", "damage")
        before = len(state.ships["San Martin"].batteries)
        offered = state.legal_actions()
        assert len(offered) == len(set(offered))  # each kind of battery on each mount offered once
        with pytest.raises(IllegalAction):
            play(state, "remove San Martin ahead short")
        play(state, "remove San Martin starboard long")
        assert len(state.ships["San Martin"].batteries) == before - 1 and state.phase == "fire-second"
        assert state.to_json()["removals"] == {} and state.to_json()["removal_firer"] == {}  # nothing pending
        assert not any(b.kind == "long" and m == "starboard" for m, b in state.ships["San Martin"].batteries)

    def test_each_six_costs_a_battery_ship_by_ship_until_she_has_none(self):
        """Rule 11: "If a hit is scored by the throw of a six, the SECOND PLAYER must remove a battery from
        the target ship." Three sixes strike San Martin, left with two medium batteries, and one San
        Cristobal: her owner removes both of San Martin's (the third six finds none left and is owed no
        more), then one of San Cristobal's. San Felipe, struck by no six, loses nothing."""
        state = broadside_position(
            extra=[
                ship("Hope", "english", 30, 10, 90, type="Hope"),
                ship("San Cristobal", "spanish", 30, 15, 90, type="San Cristobal"),
                ship("San Felipe", "spanish", 50, 30, 90, type="San Martin"),
            ]
        )
        martin = state.ships["San Martin"]
        martin.batteries = [("port", Battery("medium")), ("starboard", Battery("medium"))]
        play(state, "fire Revenge port at San Martin")
        for value in (6, 6, 6, 1, 1):
            roll(state, value)
        play(state, "fire Hope port at San Cristobal")
        for value in (6, 1, 1, 1, 1):
            roll(state, value)
        assert due(state) == ("decide", "damage") and state.removals == {"San Martin": 3, "San Cristobal": 1}
        assert state.legal_actions()[:2] == [
            Remove("San Martin", "port", "medium"),
            Remove("San Martin", "starboard", "medium"),
        ]
        before = state.to_json()
        with pytest.raises(IllegalAction) as error:
            play(state, "remove San Felipe port medium")
        assert error.value.rule == "rule 11" and error.value.message.startswith("no six has struck 'San Felipe'")
        assert state.to_json() == before
        play(state, "remove San Martin port medium")
        play(state, "remove San Martin starboard medium")
        assert martin.batteries == [] and state.to_json()["removals"] == {"San Martin": 0, "San Cristobal": 1}
        assert {a.ship for a in state.legal_actions()} == {"San Cristobal"}
        play(state, "remove San Cristobal port long")
        assert due(state) != ("decide", "damage") and state.removals == {}

    def test_broadside_fan_and_the_whole_broadside_at_one_ship(self):
        state = broadside_position()
        with pytest.raises(IllegalAction) as error:
            play(state, "fire Revenge starboard at San Martin")
        assert error.value.rule == "rule 10"
        play(state, "fire Revenge port at San Martin")
        events = [event for value in (1, 1, 1, 1, 1) for event in roll(state, value)]
        rule, reason = fire.why_not(state, 0, Fire("Revenge", "port", "San Martin"))
        assert rule == "rule 10" and "has fired her port guns" in reason
        # nothing else of hers bears, so her fire ends by itself, not told as fire she never had
        assert due(state) == ("decide", "fire") and state.current_player() == 1
        assert not [event for event in events if isinstance(event, Passed)]

    def test_a_ship_named_at_the_fire_with_nothing_to_fire_is_told_why(self):
        # Hope far off to the south-east: no battery of hers bears; Revenge's port broadside does
        state = broadside_position(extra=[ship("Hope", "english", 40, 30, 90, type="Hope")])
        assert due(state) == ("decide", "fire") and state.current_player() == 0
        assert state.idle_reason("Revenge", 0) is None  # she has fire to give
        hope = state.idle_reason("hope", 0)
        assert hope.rule == "rules 9 and 10"
        assert hope.message == "no battery of Hope's that can fire bears on an enemy within range"
        state.ships["Hope"].on_fire = True
        assert state.idle_reason("Hope", 0).rule == "Nelson rule 3"
        assert state.idle_reason("San Martin", 0).message == "San Martin is not english's to command"
        assert state.idle_reason("San Martin", 1).message == "now is english's fire: San Martin waits"
        play(state, "fire Revenge port at San Martin")  # while her dice are thrown, every ship waits for them
        assert state.idle_reason("Hope", 0).message == "now is a throw for hit: Hope waits"
        while due(state)[0] == "roll":
            roll(state, 1)  # and with nothing else of theirs to fire, the english fire ends
        assert state.idle_reason("Hope", 0).message == "now is spanish's fire: Hope waits"

    def test_a_broadside_that_leaves_no_man_aboard_abandons_her_and_her_sixes_take_no_battery(self):
        """Rule 9: a ship with no crew left is lost; the sixes of the volley that emptied her remove no
        battery (rule 11), there being no ship left to strip."""
        state = broadside_position(extra=[ship("San Felipe", "spanish", 60, 30, 90, type="San Martin")])
        state.ships["San Martin"].crew = 1
        play(state, "fire Revenge port at San Martin")
        events = [event for _ in range(5) for event in roll(state, 6)]
        lost = Sunk("San Martin", "(11.00, 15.00)", "abandoned")
        assert lost in events and lost.describe() == "San Martin is abandoned at (11.00, 15.00): not a man left aboard"
        assert state.ships["San Martin"].status == "abandoned"
        assert state.removals == {} and due(state) == ("roll", "wind")

    def test_bow_guns_bear_along_the_keel_line(self):
        ships = [ship("San Martin", "english", 10, 10, 90, type="San Martin"), ship("Revenge", "spanish", 20, 10, 90)]
        state = to_movement(position(ships, wind="W"))
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        assert Fire("San Martin", "ahead", "Revenge") in state.legal_actions()
        assert Fire("San Martin", "port", "Revenge") not in state.legal_actions()

    def test_fire_without_the_battery_named_takes_the_one_that_bears(self):
        """`fire Revenge at San Martin` is her port broadside, the one battery of hers that bears; a ship
        with none that may fire is told so, naming the form with the battery, and nothing is fired."""
        state = broadside_position()
        assert state.parse_action("fire Revenge at San Martin") == Fire("Revenge", "port", "San Martin")
        with pytest.raises(NotationError) as error:
            state.parse_action("fire San Martin at Revenge")  # spanish fires second: not yet
        assert error.value.field == "mount"
        assert error.value.message == ("name the battery, fire San Martin <port|starboard|ahead|astern> at Revenge: "
                                       "of San Martin's batteries none may fire at Revenge now")
        with pytest.raises(NotationError) as error:
            state.parse_action("fire Revenge at Santa Ana")
        assert error.value.field == "target" and error.value.message == "no ship called 'Santa Ana'"
        with pytest.raises(NotationError) as error:
            state.parse_action("fire Drake at San Martin")
        assert error.value.field == "ship"

    def test_out_of_range_and_a_hull_in_the_line_of_fire(self):
        far = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 30, 90, type="San Martin")]
        state = to_movement(position(far))
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        events = play(state, "move San Martin turn 0 run 1.00 turn 0")
        assert state.phase != "fire-first"  # 20" apart: nothing to fire, the step passes by itself
        # and both sides are told, in one line, why neither had fire
        passed = [event.describe() for event in events if isinstance(event, Passed)]
        assert passed == ["neither side fires this move: no battery of either that can fire bears on an enemy "
                          "within range (rules 9 and 10)"]
        state = broadside_position(extra=[ship("Hope", "english", 10, 12.5, 90, type="Hope")])
        with pytest.raises(IllegalAction) as error:
            play(state, "fire Revenge port at San Martin")
        assert error.value.rule == "line of fire" and "Hope" in error.value.message

    def test_a_side_with_nothing_to_fire_is_told_alone_while_the_other_fires(self):
        """A galley's guns bear only ahead (rule 10): beam-on to Revenge she has nothing to fire, and her
        side is told so in its own line, while Revenge's broadside bears on her."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("Capitana", "spanish", 10, 15, 90, type="Galley")]
        state = to_movement(position(ships, wind="W"))
        events = play(state, "move Revenge run 1") + play(state, "move Capitana run 1")
        events += play(state, "fire Revenge port at Capitana")
        while due(state) != ("roll", "wind"):  # her dice, then the move's end to the next wind
            events += roll(state, 1) if state.current_player() == CHANCE else state.apply(passive(state))
        passed = [event.describe() for event in events if isinstance(event, Passed)]
        assert passed == ["spanish fires nothing this move: no battery of theirs that can fire bears on an enemy "
                          "within range (rules 9 and 10)"]

    def test_half_battery_hits_only_on_a_six_and_never_removes_a_battery(self):
        ships = [ship("Capitana", "english", 10, 10, 0, type="Galley"), ship("Revenge", "spanish", 9.4, 13, 90)]
        state = to_movement(position(ships, wind="W"))
        play(state, "move Capitana turn 0 run 1.00 turn 0")
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "fire Capitana ahead at Revenge")
        for value in (4, 5, 6):  # medium (short, 4-6 hits), then the two half batteries
            roll(state, value)
        assert state.ships["Revenge"].flotation == 21 and not state.removals

    def test_a_ship_at_no_flotation_sinks(self):
        """Rule 9: at no flotation she sinks; the prisoners she held drown with her (optional rule 6)."""
        state = broadside_position()
        state.ships["San Martin"].flotation, state.ships["San Martin"].prisoners = 2, 10
        play(state, "fire Revenge port at San Martin")
        events = [event for value in (6, 6, 1, 1, 1) for event in roll(state, value)]
        assert state.ships["San Martin"].status == "sunk" and state.ships["San Martin"].prisoners == 0
        assert Sunk("San Martin", "(11.00, 15.00)", "Revenge") in events  # sunk by Revenge's guns
        assert state.is_terminal() and state.outcome.result == "english"

    def test_a_ship_sunk_leaves_no_battery_to_remove(self):
        """Rules 9 and 11: Revenge's six would cost San Martin a battery, but Hope's broadside sinks her
        before her owner removes it: nobody is asked to remove a battery from a wreck."""
        state = broadside_position(extra=[ship("Hope", "english", 10, 20, 90, type="Hope"),
                                          ship("San Felipe", "spanish", 60, 30, 270, type="San Martin")])
        state.ships["San Martin"].flotation = 3
        play(state, "fire Revenge port at San Martin")
        for value in (6, 1, 1, 1, 1):
            roll(state, value)
        assert state.removals == {"San Martin": 1} and state.ships["San Martin"].flotation == 2
        play(state, "fire Hope starboard at San Martin")
        while due(state) == ("roll", "hit"):
            roll(state, 5)
        assert state.ships["San Martin"].status == "sunk" and not state.is_terminal()
        assert state.removals == {} and due(state) == ("roll", "wind")  # no removal asked: the next move


class TestRule12Boarding:
    def boarded(self, attacker_crew=45, defender_crew=100):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
        state = to_movement(position(ships))
        state.ships["Revenge"].crew = attacker_crew
        state.ships["San Martin"].crew = defender_crew
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        return state

    def after_two_bloodless_rounds(self, attacker_crew=45, defender_crew=45):
        """Grappled on a 4, then every boarding die a 1 (nobody killed): the attacker chooses next."""
        state = self.boarded(attacker_crew, defender_crew)
        roll(state, 4)
        while due(state) == ("roll", "boarding"):
            roll(state, 1)
        return state

    def test_grapple_on_4_to_6_then_two_rounds_with_the_books_modifiers(self):
        state = self.boarded(45, 20)
        assert due(state) == ("roll", "grapple")
        roll(state, 4)
        assert state.ships["Revenge"].grappled == "San Martin"
        # round 1: Revenge 9 dice -2, San Martin 4 dice -3
        for value in [6] * 9 + [6, 6, 1, 1]:
            roll(state, value)
        assert state.ships["San Martin"].crew == 0  # 36 killed, capped at the 20 aboard
        assert state.ships["San Martin"].status == "taken"  # no crew left: yields at once, no morale

    def test_failed_grapple_changes_nothing(self):
        state = self.boarded()
        events = roll(state, 3)
        assert events[0] == DieRolled("Revenge grapples San Martin (rule 12)", 3)  # the throw is shown
        assert not any(isinstance(e, (Marked, BoardingRound)) for e in events)  # and nothing follows from it
        assert not state.ships["Revenge"].grappled and state.ships["San Martin"].crew == 100

    def test_morale_after_round_two_and_fighting_continues_next_move(self):
        state = self.boarded(45, 45)
        roll(state, 5)
        for _ in range(9 + 9):
            roll(state, 3)  # round 1: attacker 1 per die, defender 0
        for _ in range(9 + 7):
            roll(state, 3)  # round 2: San Martin's 36 throw 7 dice; attacker 0, defender 1 per die
        assert state.ships["Revenge"].crew == 38 and state.ships["San Martin"].crew == 36
        assert due(state) == ("decide", "withdraw")
        play(state, "fight-on Revenge")
        roll(state, 4)  # 3-5: fighting continues next move
        assert state.continuing == [("Revenge", "San Martin")]

    def test_morale_one_or_two_the_smaller_side_yields_the_attacker_is_repelled(self):
        state = self.boarded(45, 100)
        roll(state, 6)
        for _ in range(9 + 20 + 9 + 20):
            roll(state, 1)
        play(state, "fight-on Revenge")
        roll(state, 2)  # Revenge (45) is the smaller side: repelled
        assert due(state) == ("decide", "repel") and state.current_player() == 1
        play(state, "cut San Martin")
        roll(state, 5)
        assert not state.ships["San Martin"].grappled and not state.ships["Revenge"].grappled

    def test_boarding_needs_contact(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 12, 90, type="San Martin")]
        state = to_movement(position(ships))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        assert error.value.rule == "rule 12"

    def to_morale(self, attacker_crew, defender_crew):
        """Two bloodless rounds (the crews unchanged); Revenge fights on."""
        state = self.after_two_bloodless_rounds(attacker_crew, defender_crew)
        play(state, "fight-on Revenge")
        assert due(state) == ("roll", "morale")
        return state

    def test_one_die_per_five_men_and_at_least_one(self):
        state = self.boarded(4, 100)
        roll(state, 4)
        thrown = []
        while due(state) == ("roll", "boarding"):
            thrown += roll(state, 3)
        rounds = [e for e in thrown if isinstance(e, BoardingRound)]
        assert [e.purpose for e in thrown if isinstance(e, DieRolled)][:2] == [
            "Revenge in boarding round 1",
            "San Martin in boarding round 1",
        ]
        # round 1: Revenge's 3 - 2 kills 1, so San Martin's 99 throw 19 dice in round 2; Revenge's 3 - 3
        # then kills none, and San Martin's 3s kill 0 in round 1, then 19 in round 2, capped at Revenge's 4
        assert len([e for e in thrown if isinstance(e, DieRolled)]) == (1 + 20) + (1 + 19)
        assert rounds == [
            BoardingRound("Revenge", "San Martin", 1, 1, 0),
            BoardingRound("Revenge", "San Martin", 2, 0, 4),
        ]
        assert state.ships["Revenge"].crew == 0  # no crew left: repelled at once, no morale throw
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") in thrown
        # and with nobody aboard she is lost (rule 9's no crew): nothing left to repel
        assert state.ships["Revenge"].status == "abandoned" and due(state) != ("decide", "repel")

    @pytest.mark.parametrize(("men", "dice"), [(0, 0), (1, 1), (4, 1), (5, 1), (9, 1), (10, 2), (99, 19)])
    def test_the_dice_a_boarding_party_throws(self, men, dice):
        """Rule 12: "one dice per 5 surviving crew" (rulings: at least one; none with no crew)."""
        assert boarding.dice_for(men) == dice

    def test_a_ship_with_no_crew_is_carried_as_soon_as_grappled(self):
        state = self.boarded(45, 0)
        events = roll(state, 4)
        assert Marked("San Martin", "is carried by Revenge's boarders", "rule 12") in events
        assert not any(isinstance(e, BoardingRound) for e in events)
        assert state.ships["San Martin"].status == "taken"

    def test_morale_six_the_larger_side_yields_a_larger_attacker_is_repelled(self):
        state = self.to_morale(45, 40)
        events = roll(state, 6)
        assert events[:2] == [
            DieRolled("San Martin's morale (rule 12)", 6),
            Marked("Revenge", "is repelled by San Martin", "rule 12"),
        ]
        assert due(state) == ("decide", "repel") and state.current_player() == 1

    def test_morale_six_a_larger_defender_surrenders(self):
        state = self.to_morale(45, 60)
        events = roll(state, 6)
        assert Marked("San Martin", "is carried by Revenge's boarders", "rule 12") in events
        assert state.ships["San Martin"].status == "taken"

    def test_morale_five_the_fight_goes_on(self):
        state = self.to_morale(45, 60)
        events = roll(state, 5)
        assert Marked("Revenge", "fights on with San Martin next move", "rule 12") in events
        assert state.ships["San Martin"].status == "afloat" and state.ships["Revenge"].grappled == "San Martin"

    def test_exactly_twice_the_crew_takes_nothing_off_the_morale_die(self):
        state = self.to_morale(45, 90)
        events = roll(state, 3)  # 3: fighting goes on
        assert events[0] == DieRolled("San Martin's morale (rule 12)", 3)
        assert Marked("Revenge", "fights on with San Martin next move", "rule 12") in events

    def test_more_than_twice_the_crew_takes_two_off_the_morale_die(self):
        state = self.to_morale(45, 91)
        events = roll(state, 4)  # 4 - 2 = 2: the smaller side, Revenge, is repelled
        assert events[:2] == [
            DieRolled("San Martin's morale (rule 12) -2", 4),
            Marked("Revenge", "is repelled by San Martin", "rule 12"),
        ]

    def test_an_attacker_more_than_twice_the_defender_also_takes_two_off(self):
        state = self.to_morale(100, 45)
        events = roll(state, 4)  # 4 - 2 = 2: the smaller side, San Martin, surrenders
        assert events[0] == DieRolled("San Martin's morale (rule 12) -2", 4)
        assert state.ships["San Martin"].status == "taken"

    def test_the_attacker_withdraws_cutting_grapples_on_4(self):
        state = self.after_two_bloodless_rounds()
        play(state, "withdraw Revenge")
        assert due(state) == ("roll", "withdraw")
        events = roll(state, 4)
        assert events[:2] == [
            DieRolled("Revenge cuts grapples to withdraw (rule 12)", 4),
            Marked("Revenge", "withdraws from San Martin", "rule 12"),
        ]
        assert not state.ships["Revenge"].grappled and not state.ships["San Martin"].grappled
        assert state.continuing == [] and [s["gunners"] for s in state.to_json()["ships"]] == [0, 0]

    def test_with_equal_crews_the_attacker_counts_as_the_smaller_side(self):
        """Rulings: "with equal crews the attacker counts as the smaller side": on a 2 she is repelled."""
        state = self.after_two_bloodless_rounds(20, 20)
        play(state, "fight-on Revenge")
        events = roll(state, 2)
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") in events
        assert state.ships["San Martin"].status == "afloat"

    def test_a_grappled_ship_that_cuts_the_grapples_with_her_own_move_may_then_sail(self):
        """Rule 12: having cut the grapples "they may move if they have not already done so"."""
        state = self.after_two_bloodless_rounds()
        play(state, "fight-on Revenge")
        roll(state, 4)  # the fight goes on next move; San Martin, still grappled, is to move
        play(state, "move San Martin cut")
        roll(state, 4)
        assert not state.ships["San Martin"].grappled
        assert any(a.ship == "San Martin" and a.run for a in state.legal_actions())

    def test_a_grappled_ship_may_board_only_the_ship_she_is_grappled_to(self):
        state = self.after_two_bloodless_rounds()
        play(state, "fight-on Revenge")
        roll(state, 4)  # the fight goes on next move
        assert [a for a in state.legal_actions() if a.ship == "San Martin"] == [
            Move("San Martin", extra="hold"),
            Move("San Martin", extra="cut"),
            Move("San Martin", extra="board", target="Revenge"),
        ]
        with pytest.raises(IllegalAction) as error:
            play(state, "move San Martin board Hope")
        assert error.value.rule == "rule 12" and "grappled to Revenge" in error.value.message
        with pytest.raises(IllegalAction) as error:  # grappled, she boards where she lies
            play(state, "move San Martin turn 0 run 1.00 turn 0 board Revenge")
        assert error.value.rule == "rule 12" and "she may board, cut grapples or hold" in error.value.message
        play(state, "move San Martin board Revenge")

    def test_a_fight_that_goes_on_starts_again_at_round_one_before_anyone_moves(self):
        """Rulings: "fighting continues next move" fights its next rounds right after drifting, from round 1."""
        state = self.after_two_bloodless_rounds()
        play(state, "fight-on Revenge")
        roll(state, 4)
        play(state, "move San Martin hold")
        assert_the_fight_starts_again_at_round_one(state)

    def test_a_failed_withdrawal_goes_to_the_defenders_morale(self):
        state = self.after_two_bloodless_rounds()
        play(state, "withdraw Revenge")
        events = roll(state, 3)
        assert events == [DieRolled("Revenge cuts grapples to withdraw (rule 12)", 3)]
        assert state.ships["Revenge"].grappled == "San Martin" and due(state) == ("roll", "morale")

    def test_having_repelled_boarders_a_4_cuts_the_grapples_and_she_may_move(self):
        state = self.to_morale(45, 100)
        roll(state, 2)  # Revenge repelled
        play(state, "cut San Martin")
        events = roll(state, 4)
        assert events[:2] == [
            DieRolled("San Martin cuts grapples (rule 12)", 4),
            Marked("San Martin", "cuts the grapples from Revenge", "rule 12"),
        ]
        assert not state.ships["San Martin"].grappled
        assert any(a.ship == "San Martin" and a.run for a in state.legal_actions())

    def test_having_repelled_boarders_a_3_leaves_them_grappled(self):
        state = self.to_morale(45, 100)
        roll(state, 2)
        play(state, "cut San Martin")
        events = roll(state, 3)
        assert events[0] == DieRolled("San Martin cuts grapples (rule 12)", 3)
        assert not any(isinstance(e, Marked) for e in events)
        assert state.ships["San Martin"].grappled == "Revenge" and state.ships["Revenge"].grappled == "San Martin"
        assert not any(a.ship == "San Martin" and a.run for a in state.legal_actions())  # grappled: hold, cut, board

    def test_boarders_with_no_crew_are_repelled_as_soon_as_grappled(self):
        state = self.boarded(0, 45)
        events = roll(state, 4)
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") in events
        assert state.ships["Revenge"].status == "abandoned" and state.ships["San Martin"].crew == 45

    def test_defenders_all_killed_in_round_two_surrender_at_once(self):
        state = self.boarded(45, 10)
        roll(state, 4)
        for value in [2] * 9 + [1, 1]:
            roll(state, value)  # round 1: nobody killed
        events = []
        for value in [5] * 9 + [1, 1]:
            events += roll(state, value)  # round 2: 9 x (5 - 3) = 18 kills the 10
        assert BoardingRound("Revenge", "San Martin", 2, 10, 0) in events
        assert state.ships["San Martin"].status == "taken" and due(state) != ("decide", "withdraw")

    def test_one_defender_left_still_throws_a_die_in_round_two(self):
        state = self.boarded(45, 6)
        roll(state, 4)
        events = []
        for value in [6, 3] + [2] * 7 + [1]:
            events += roll(state, value)  # round 1: 4 + 1 killed, one man left
        assert BoardingRound("Revenge", "San Martin", 1, 5, 0) in events
        for _ in range(9 + 1):
            assert due(state) == ("roll", "boarding")
            roll(state, 1)
        assert due(state) == ("decide", "withdraw") and state.ships["San Martin"].crew == 1

    def test_one_boarder_left_after_round_one_still_fights_round_two(self):
        """Rule 12 (rulings: one die per five crew, at least one): Revenge's four boarders lose three in
        round one; her last man throws his die in round two and nobody yields before the morale throw."""
        state = self.boarded(4, 10)
        roll(state, 4)
        events = []
        for value in (1, 6, 1):  # round 1: Revenge's die kills none; San Martin's 6 - 3 kills three
            events += roll(state, value)
        assert BoardingRound("Revenge", "San Martin", 1, 0, 3) in events and state.ships["Revenge"].crew == 1
        round_two = []
        while due(state) == ("roll", "boarding"):
            round_two += roll(state, 1)
        assert [e.purpose for e in round_two if isinstance(e, DieRolled)] == [
            "Revenge in boarding round 2",
            "San Martin in boarding round 2",
            "San Martin in boarding round 2",
        ]
        assert due(state) == ("decide", "withdraw") and state.ships["San Martin"].status == "afloat"

    @pytest.mark.parametrize(
        ("attacker_crew", "defender_crew", "dice"),
        [(1, 0, ()), (4, 4, (6, 6))],
        ids=["nobody-aboard-her", "her-last-men-killed-in-round-one"],
    )
    def test_a_single_boarder_left_carries_a_ship_with_no_crew(self, attacker_crew, defender_crew, dice):
        """Rule 12 (rulings: a side with no crew yields at once): one man of Revenge's is left and
        none of San Martin's, whether she had nobody aboard or round one kills her four (Revenge's
        6 - 2) as her own 6 - 3 kills three of Revenge's four: San Martin is carried."""
        state = self.boarded(attacker_crew, defender_crew)
        events = roll(state, 4)
        for value in dice:
            events += roll(state, value)
        assert state.ships["Revenge"].crew == 1 and state.ships["San Martin"].crew == 0
        assert Marked("San Martin", "is carried by Revenge's boarders", "rule 12") in events
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") not in events
        assert state.ships["San Martin"].status == "taken"

    def test_more_than_twice_the_crew_makes_a_morale_five_a_three_the_fight_goes_on(self):
        """Rule 12: "-2 if one side has more than twice the other's crew": 5 - 2 = 3, fighting
        continues next move (not 1-2: Revenge is not repelled)."""
        state = self.to_morale(45, 91)
        events = roll(state, 5)
        assert events[:2] == [
            DieRolled("San Martin's morale (rule 12) -2", 5),
            Marked("Revenge", "fights on with San Martin next move", "rule 12"),
        ]
        assert state.continuing == [("Revenge", "San Martin")]

    def test_a_defender_carried_by_boarders_is_shown_struck_and_nothing_else(self):
        """Rule 12 with the prizes rule off: San Martin, the larger side, yields on a morale 6 and leaves
        play as taken; the grapples go with her, and no other mark is shown on either ship."""
        state = self.to_morale(45, 60)
        events = roll(state, 6)
        assert [e for e in events if isinstance(e, Marked)] == [
            Marked("San Martin", "is carried by Revenge's boarders", "rule 12")
        ]
        assert state.ships["San Martin"].status == "taken" and not state.ships["Revenge"].grappled

    def test_a_ship_that_cuts_free_after_her_side_has_moved_does_not_move_again(self):
        """Rule 12, a decision: a ship that cuts the grapples during the enemy's movement "may move if
        it has not already": San Martin moved first this move, then repelled Revenge's boarders and
        cut free; she stays moved and the fire begins."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 10.3, 90, type="San Martin")]
        state = to_movement(position(ships), first=1)
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)
        while due(state) == ("roll", "boarding"):
            roll(state, 1)  # nobody killed
        play(state, "fight-on Revenge")
        roll(state, 2)  # morale: Revenge (45) the smaller side, repelled
        play(state, "cut San Martin")
        events = roll(state, 4)
        assert Marked("San Martin", "cuts the grapples from Revenge", "rule 12") in events
        martin = next(s for s in state.to_json()["ships"] if s["name"] == "San Martin")
        assert martin["moved"] and martin["limits"]["mode"] == "none"
        assert state.phase == "fire-first" and not any(isinstance(a, Move) for a in state.legal_actions())

    def test_a_fight_that_goes_on_is_not_ended_by_another_ship_carried_in_the_same_move(self):
        """Rule 12 (rulings: "fighting continues next move" fights right after drifting): Revenge's fight
        with San Martin goes on; then Hope carries San Felipe in round one. Revenge's fight still
        starts again next move."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
            ship("Hope", "english", 10, 20, 90, type="Hope"),
            ship("San Felipe", "spanish", 11, 20.3, 90, type="San Cristobal"),
        ]
        state = to_movement(position(ships))
        state.ships["San Martin"].crew, state.ships["San Felipe"].crew = 45, 4
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)
        while due(state) == ("roll", "boarding"):
            roll(state, 1)  # nobody killed
        play(state, "fight-on Revenge")
        roll(state, 4)  # morale 4: the fight goes on next move
        play(state, "move Hope turn 0 run 1.00 turn 0 board San Felipe")
        roll(state, 4)
        for value in [6] * 12 + [1]:  # Hope's 12 dice kill San Felipe's four; her one die none
            roll(state, value)
        assert state.ships["San Felipe"].status == "taken" and not state.ships["Hope"].grappled
        play(state, "move San Martin hold")
        assert_the_fight_starts_again_at_round_one(state)

    def test_a_sunk_ship_is_not_there_to_board(self):
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
            ship("San Felipe", "spanish", 60, 30, 270, type="San Martin"),
        ]
        state = position(ships)
        state.ships["San Martin"].status = "sunk"
        to_movement(state)
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        assert (error.value.rule, error.value.message) == ("notation", "there is no ship 'San Martin' in play to board")

    def test_a_ship_of_her_own_side_is_never_boarded(self):
        """Rule 12: a ship boards an enemy: Revenge, alongside the English Hope, may not board her."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("Hope", "english", 11, 10.3, 90),
            ship("San Martin", "spanish", 60, 30, 270, type="San Martin"),
        ]
        state = to_movement(position(ships))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 1.00 turn 0 board Hope")
        assert error.value.rule == "rule 12" and "boards an enemy ship still fighting" in error.value.message
        assert state.ships["Revenge"].point == (1000, 1000) and not state.ships["Revenge"].moved

    def test_a_ship_in_a_fight_that_goes_on_cannot_be_boarded_by_a_second_enemy(self):
        """Rule 12 (Decision: a ship is grappled to one enemy at a time): Revenge's fight with San Martin
        goes on next move; Hope, alongside San Martin's other side, may not board her as well, and is
        told why, with nothing changed."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
            ship("Hope", "english", 10, 11.5, 90, type="Hope"),
        ]
        state = to_movement(position(ships))
        state.ships["San Martin"].crew = 45  # not twice Revenge's: no -2 on the morale die
        boarding_san_martin = "move Hope turn +45 run 0.89 turn +0 board San Martin"
        assert state.parse_action(boarding_san_martin) in state.legal_actions()  # before the grapple
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)
        while due(state) == ("roll", "boarding"):
            roll(state, 1)  # nobody killed
        play(state, "fight-on Revenge")
        roll(state, 4)  # morale 4: the fight goes on next move
        assert state.ships["San Martin"].grappled == "Revenge"
        before = state.to_json()
        with pytest.raises(IllegalAction, match="San Martin is grappled to Revenge.*rule 12"):
            play(state, boarding_san_martin)
        assert state.to_json() == before
        assert not any(isinstance(a, Move) and a.extra == "board" for a in state.legal_actions())


    def test_a_grappled_ship_with_no_crew_left_who_boards_is_repelled_with_no_men_kept_at_the_guns(self):
        """Rule 12 with optional rule 5 (rulings: a side with no crew yields at once): Revenge, grappled to
        San Martin in a saved position with not a man left aboard, boards her: she is repelled as the
        grapple holds and lost, and San Martin is not asked to keep men at her guns for a fight nobody
        is there to fight."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
        state = position(ships, options={"crews": True})
        state.ships["Revenge"].grappled, state.ships["San Martin"].grappled = "San Martin", "Revenge"
        state.ships["Revenge"].crew = 0
        to_movement(state)
        play(state, "move Revenge board San Martin")
        events = roll(state, 4)
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") in events
        assert Sunk("Revenge", "(10.00, 9.00)", "abandoned") in events and due(state) != ("decide", "gunners")


class TestRule11AutomaticChoice:
    def test_with_the_automatic_choice_the_six_takes_a_short_battery_not_bearing_on_the_firer(self):
        """Rule 11 with auto-choice (rulings): a half battery first, then short, medium, long; among equals
        one that does not bear on the firer. Revenge lies off San Martin's starboard side: a port short
        battery goes, and nothing is left for her owner to remove."""
        state = broadside_position(options={"auto-batteries": True})
        play(state, "fire Revenge port at San Martin")
        for value in (6, 1, 1, 1):
            roll(state, value)
        events = roll(state, 1)
        assert BatteryLost("San Martin", "short battery to port", "to a six, rule 11") in events
        martin = state.ships["San Martin"]
        assert martin.mount_batteries("port").count(Battery("short")) == 3
        assert martin.mount_batteries("starboard").count(Battery("short")) == 4
        assert state.to_json()["removals"] == {} and state.current_player() == 1

    def test_with_the_automatic_choice_a_half_battery_goes_first(self):
        """Rule 11 with auto-choice (rulings): a half battery goes before any whole one; the galley
        Capitana, struck by a six, loses one of her half short batteries, not her medium one."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("Capitana", "spanish", 10, 15, 90, type="Galley")]
        state = to_movement(position(ships, options={"auto-batteries": True}))
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move Capitana turn 0 run 1.00 turn 0")
        play(state, "fire Revenge port at Capitana")
        events = [event for value in (6, 1, 1, 1, 1) for event in roll(state, value)]
        assert BatteryLost("Capitana", "half short battery ahead", "to a six, rule 11") in events
        assert state.ships["Capitana"].mount_batteries("ahead") == [Battery("medium"), Battery("short", True)]

    def test_the_firer_is_the_ship_whose_six_it_was(self):
        """Rule 11 with auto-choice (rulings): Revenge's six strikes San Martin from her starboard side;
        Hope's broadside from her port side, without a six, does not make Hope the firer: a port short
        battery still goes."""
        state = broadside_position(
            options={"auto-batteries": True}, extra=[ship("Hope", "english", 10, 20, 90, type="Hope")]
        )
        play(state, "fire Revenge port at San Martin")
        for value in (6, 1, 1, 1, 1):
            roll(state, value)
        play(state, "fire Hope starboard at San Martin")
        events = []
        while due(state) == ("roll", "hit"):
            events += roll(state, 1)
        assert BatteryLost("San Martin", "short battery to port", "to a six, rule 11") in events


class TestRules9And10WhatMayFire:
    @pytest.mark.parametrize(
        ("y", "revenge_x", "hope_x", "martin_x", "mount"),
        [
            (10, 20, 18, 14, "port"),
            (30, 14, 15.5, 20, "starboard"),
            (10, 14, 18.5, 20, "starboard"),
            (30, 24, 18, 14, "port"),
        ],
    )
    def test_a_hull_in_the_line_of_fire_blocks_it_east_or_west(self, y, revenge_x, hope_x, martin_x, mount):
        """Line of fire (a decision): Hope lies between Revenge and San Martin, 6" (or, far up the table,
        10") to her west or east."""
        ships = [
            ship("Revenge", "english", revenge_x, y, 0),
            ship("Hope", "english", hope_x, y, 0, type="Hope"),
            ship("San Martin", "spanish", martin_x, y, 0, type="San Martin"),
        ]
        state = to_movement(position(ships, wind="S"))
        for name in ("Revenge", "Hope", "San Martin"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        shot = Fire("Revenge", mount, "San Martin")
        assert shot not in state.legal_actions()
        assert fire.why_not(state, 0, shot) == (
            "line of fire",
            "Hope is in the line of fire from Revenge to San Martin",
        )

    def test_a_ship_dead_ahead_beyond_range_is_out_of_range_not_off_the_keel_line(self):
        """Rules 9 and 10: the keel line runs on at any range; Revenge 20" dead ahead of San Martin lies on
        it, and her bow gun is refused for the range."""
        ships = [ship("San Martin", "english", 10, 10, 90, type="San Martin"), ship("Revenge", "spanish", 30, 10, 90)]
        state = to_movement(position(ships, wind="W"))
        assert fire.why_not(state, 0, Fire("San Martin", "ahead", "Revenge")) == (
            "rule 9",
            "Revenge is out of range of San Martin's ahead guns (20.00 in)",
        )

    def test_a_long_battery_reaches_exactly_16_inches(self):
        """Rule 9 (rulings: bands include their upper edge): at 16" Revenge's three long batteries fire
        at long range (5-6); her medium ones do not reach."""
        state = broadside_position(16)
        play(state, "fire Revenge port at San Martin")
        assert [shot[2] for shot in state.volley["shots"]] == ["long"] * 3
        for _ in range(3):
            roll(state, 5)
        assert state.ships["San Martin"].flotation == 47

    @pytest.mark.parametrize("text", ["fire Ghost port at San Martin", "fire San Martin port at Revenge"])
    def test_only_her_own_ships_fire_for_a_side(self, text):
        state = broadside_position()
        with pytest.raises(IllegalAction) as error:
            play(state, text, 0)
        assert error.value.rule == "notation" and "english has no ship called" in error.value.message

    @pytest.mark.parametrize(("off", "close"), [(5, True), (10, False)])
    def test_a_ship_fired_on_at_close_range_is_marked_so_for_her_jury_mast(self, off, close):
        """Optional rule 2: moves in which she was fired on at close range do not count; Revenge's long
        guns are at close range up to 8"."""
        state = broadside_position(off)
        play(state, "fire Revenge port at San Martin")
        while due(state) == ("roll", "hit"):
            roll(state, 1)
        assert state.to_json()["ships"][1]["fired_close"] == close

    def test_a_broadside_that_does_not_bear_is_refused_naming_the_fan(self):
        state = broadside_position()
        with pytest.raises(IllegalAction) as error:
            play(state, "fire Revenge starboard at San Martin")
        assert error.value.rule == "rule 10"
        assert error.value.message == "Revenge's starboard fan does not cover San Martin"

    def test_with_the_crews_rule_no_men_over_the_sailing_minimum_work_no_guns(self):
        """Optional rule 5: "one man is required to fire each battery" on top of the sailing minimum
        (450 tons: 5 men)."""
        state = broadside_position(options={"crews": True})
        state.ships["Revenge"].crew = 5
        with pytest.raises(IllegalAction) as error:
            play(state, "fire Revenge port at San Martin")
        assert error.value.rule == "optional rule 5" and "no men left over the sailing minimum" in error.value.message

    def test_with_the_crews_rule_each_man_over_the_minimum_works_one_battery_a_move(self):
        """Optional rule 5: "one man is required to fire each battery": Revenge, 3 men over her sailing
        minimum of 5, fires three of her port batteries and has nobody left for the starboard guns."""
        state = broadside_position(
            options={"crews": True}, extra=[ship("San Cristobal", "spanish", 10, 6, 90, type="San Cristobal")]
        )
        state.ships["Revenge"].crew = 8
        play(state, "fire Revenge port at San Martin")
        assert len(state.volley["shots"]) == 3
        for _ in range(3):
            roll(state, 1)
        assert state.current_player() == 1  # nothing more for the English to fire
        assert fire.why_not(state, 0, Fire("Revenge", "starboard", "San Cristobal"))[0] == "optional rule 5"

    def test_at_half_crew_gunfire_casualties_are_halved_rounding_down(self):
        """Optional rule 5: "When a ships crew is reduced to 1/2, casualties from gunfire are halved"."""
        state = broadside_position(options={"crews": True})
        martin = state.ships["San Martin"]
        martin.crew = 50
        play(state, "fire Revenge port at San Martin")
        for value in (5, 5, 4, 4, 4):  # five hits, no six
            roll(state, value)
        assert (martin.flotation, martin.crew) == (45, 48)


def raking_position(distance: float):
    """Nelson period: Chesapeake heading east; Shannon, heading north, lies on her keel line astern
    `distance` inches off (ahead of her bow if negative), Chesapeake under one of Shannon's broadsides."""
    ships = [
        ship("Shannon", "english", 30 - distance, 9, 0, **{"class": "38 frigate"}),
        ship("Chesapeake", "spanish", 29, 10, 90, **{"class": "38 frigate"}),
    ]
    state = to_movement(position(ships, period="nelson", wind="W"))
    play(state, "move Shannon turn 0 run 1.00 turn 0")
    play(state, "move Chesapeake turn 0 run 1.00 turn 0")
    return state


class TestNelsonRule1Rake:
    @pytest.mark.parametrize(
        ("distance", "bearing", "hits"),
        [
            (6, "from a starboard broadside, raked", 2),
            (10, "from a starboard broadside", 1),
            (12, "from a starboard broadside", 1),
            (-6, "from a port broadside, raked", 2),
            (-12, "from a port broadside", 1),
        ],
    )
    def test_a_rake_is_at_close_range_only_and_doubles_the_hits(self, distance, bearing, hits):
        """Nelson rule 1: "If a ship is raked at close range, damage, crew losses and gun losses are all
        doubled": Shannon's long battery raking from 6" doubles its hit; from 10" (its long range, though
        on Chesapeake's keel line) or 12" it is no rake, and the hit is not called one."""
        state = raking_position(distance)
        play(state, f"fire Shannon {bearing.split()[2]} at Chesapeake")
        events = roll(state, 5)
        assert [(e.hits, e.bearing) for e in events if isinstance(e, Hit)] == [(hits, bearing)]
        assert state.ships["Chesapeake"].flotation == 50 - hits

    def test_a_rake_doubles_only_the_batteries_at_their_short_range(self):
        """Nelson rule 1, per battery firing at its short range: with the Nelson rules on, Revenge lies on
        San Martin's keel line 5" off; her two medium batteries, at their long range, hit once each on a 5,
        her three long ones, at their short range, twice."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 16, 180, type="San Martin")]
        state = to_movement(position(ships, options={"nelson": True}))
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        play(state, "fire Revenge port at San Martin")
        events = []
        for _ in range(5):
            events += roll(state, 5)
        assert [(e.hits, e.bearing) for e in events if isinstance(e, Hit)] == [(8, "from a port broadside, raked")]
