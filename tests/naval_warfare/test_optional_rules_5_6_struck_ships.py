"""Seed 003, optional rules 5 (crews) and 6 (surrender and prizes), the cases a player meets around a
struck ship: held by her boarders for the extra move and secured at its end with the men her boarder
can spare, or not when the boarder strikes or sinks; reinforcements alongside her boarder; the reach
of the boats in each wind; the prize crew's guard; a retaken prize struck again; a struck ship in
tow; a crew at exactly a quarter; and survivors picked up from two wrecks or by a drifting rescuer."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Captured, Marked, Struck
from quarterdeck.games.naval_warfare import fire
from quarterdeck.games.naval_warfare.actions import END_FIRE, END_MOVE, Choose, Move

from .helpers import due, play, position, roll, ship, start_move, to_movement
from .test_optional_rules_3_to_6 import boarding_with_crews, frigate, struck_chesapeake, survivors_in_the_water


def struck_to_boarders(extra=()):
    """Revenge (45 men) boards San Martin (40) alongside; two rounds kill nobody, Revenge fights on and
    San Martin's morale fails (a 1): the smaller side surrenders to her boarders (rule 12), held for the
    next move (optional rule 6). The first move goes on, the English to move."""
    ships = [
        ship("Revenge", "english", 10, 10, 90),
        ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
        *extra,
    ]
    state = to_movement(position(ships, options={"prizes": True}))
    state.ships["San Martin"].crew = 40
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)  # grappled
    while due(state) == ("roll", "boarding"):
        roll(state, 1)
    play(state, "fight-on Revenge")
    roll(state, 1)  # morale
    return state


FAR_OFF = (
    ship("Hope", "english", 40, 30, 90, type="Hope"),
    ship("San Cristobal", "spanish", 60, 30, 90, type="San Cristobal"),
)


def through_the_extra_move(state, surrender: str = ""):
    """The rest of the first move and the second, Hope and San Cristobal (FAR_OFF) sailing 1" a move,
    nobody firing; the English offer `surrender` at the end of the first. Stops after the second
    move's fire."""
    play(state, "move Hope turn 0 run 1.00 turn 0")
    play(state, "move San Cristobal turn 0 run 1.00 turn 0")
    hold_fire(state)
    if surrender:
        play(state, f"surrender {surrender}")
    play(state, "end-move")
    play(state, "end-move")
    start_move(state)
    play(state, "move Revenge hold")
    play(state, "move Hope turn 0 run 1.00 turn 0")
    assert state.ships["San Martin"].status == "surrendered"  # still held, not yet secured
    play(state, "move San Cristobal turn 0 run 1.00 turn 0")
    hold_fire(state)


def assert_secures_chesapeake(state, move: str, secured: bool) -> None:
    """Shannon's `move` either secures the struck Chesapeake as a prize or is refused by optional
    rule 6 with her left as she was."""
    if secured:
        play(state, move)
        assert state.ships["Chesapeake"].status == "prize"
        return
    with pytest.raises(IllegalAction) as error:
        play(state, move)
    assert error.value.rule == "optional rule 6" and state.ships["Chesapeake"].status != "prize"


def hold_fire(state):
    while due(state) == ("decide", "fire"):
        state.apply(END_FIRE)


def moves_of(state, name):
    return [a for a in state.legal_actions() if isinstance(a, Move) and a.ship == name]


class TestOptionalRule6HeldByHerBoarders:
    @pytest.mark.parametrize(("revenge_crew", "prize_crew"), [(45, 18), (12, 7), (5, 0)])
    def test_her_boarder_secures_her_at_the_end_of_the_extra_move_with_the_men_she_can_spare(
        self, revenge_crew, prize_crew
    ):
        """Optional rule 6: "one ship must remain grappled for an extra move": struck in the first
        move, San Martin is a prize at the end of the second, not later. Her prize crew is a fifth of
        her 40 captives plus her sailing minimum (8 + 10), or what Revenge can spare above her own
        sailing minimum (5): with 12 men, 7 - too few to guard 40, so the captives try to escape; with
        5, nobody."""
        state = struck_to_boarders(FAR_OFF)
        revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
        revenge.crew = revenge_crew
        through_the_extra_move(state)
        assert state.move_number == 2 and martin.status == "prize" and martin.captor == 0
        assert not martin.grappled and not revenge.grappled
        assert (martin.crew, martin.prisoners, revenge.crew) == (prize_crew, 40, revenge_crew - prize_crew)
        assert (due(state) == ("roll", "escape")) == (prize_crew * 5 < 40)

    def test_a_boarder_that_strikes_in_the_extra_move_does_not_secure_her(self):
        """Optional rule 6: the boarder secures the ship she holds; Revenge herself struck at the end of
        the first move, so at the end of the second the grapples are cast loose and San Martin, her 40
        men still her own, is no prize."""
        state = struck_to_boarders(FAR_OFF)
        through_the_extra_move(state, surrender="Revenge")
        martin, revenge = state.ships["San Martin"], state.ships["Revenge"]
        assert due(state) == ("decide", "end") and state.move_number == 2
        assert martin.status == "surrendered" and (martin.crew, martin.prisoners) == (40, 0)
        assert not martin.grappled and not revenge.grappled and revenge.crew == 45

    def test_her_boarder_sunk_under_her_she_stays_struck_and_another_enemy_may_secure_her(self):
        """Optional rule 6: San Felipe sinks Revenge while she holds San Martin. Nobody holds her now:
        she is still struck and no prize; her crew may rise only while held (decision), so San
        Cristobal coming alongside frees nobody, and Hope secures her by boats."""
        state = struck_to_boarders(
            [
                ship("Hope", "english", 5, 11, 90, type="Hope"),
                ship("San Cristobal", "spanish", 5, 9.6, 90, type="San Cristobal"),
                ship("San Felipe", "spanish", 9, 6, 90, type="San Martin"),
            ]
        )
        for move in (1, 2):
            if move == 2:
                play(state, "move Revenge hold")
            for name in ("Hope", "San Cristobal", "San Felipe"):
                play(state, f"move {name} turn 0 run 1.00 turn 0")
            if move == 1:
                hold_fire(state)
                play(state, "end-move")
                play(state, "end-move")
                start_move(state)
        state.ships["Revenge"].flotation = 1
        state.apply(END_FIRE)
        play(state, "fire San Felipe port at Revenge")  # from 3" south of her
        while due(state) == ("roll", "hit"):
            roll(state, 5)
        hold_fire(state)
        martin = state.ships["San Martin"]
        assert state.ships["Revenge"].status == "sunk"
        assert due(state) == ("decide", "end") and martin.status == "surrendered" and not martin.grappled
        play(state, "end-move")
        play(state, "end-move")
        start_move(state, first=1)
        play(state, "move San Cristobal turn 0 run 3.00 turn 0")  # alongside San Martin
        assert due(state) == ("decide", "move") and moves_of(state, "San Martin") == []
        with pytest.raises(IllegalAction) as error:
            play(state, "move San Martin dishonour")
        assert error.value.rule == "optional rule 6"
        play(state, "move San Felipe turn 0 run 1.00 turn 0")
        events = play(state, "move Hope turn 0 run 4.00 turn 0 secure San Martin")  # boats from 1.7" off
        assert martin.status == "prize" and Captured("San Martin", state.where(martin.point), "Hope") in events

    @pytest.mark.parametrize(("friend_y", "rises"), [(9.65, True), (9.64, False)])
    def test_her_own_side_alongside_her_boarder_lets_her_crew_rise(self, friend_y, rises):
        """Optional rule 6, dishonour 1, "reinforcements arrive": San Cristobal ends her run under
        Revenge's starboard side, in contact (0.1" apart) or just out of it (0.11", rule 12's
        contact, rulings); San Martin lies on Revenge's other side."""
        state = struck_to_boarders(
            [
                ship("San Cristobal", "spanish", 10, friend_y, 90, type="San Cristobal"),
                ship("San Felipe", "spanish", 60, 30, 90, type="San Martin"),
            ]
        )
        play(state, "move San Cristobal turn 0 run 1.00 turn 0")
        assert due(state) == ("decide", "move")  # San Felipe is still to move
        if rises:
            assert moves_of(state, "San Martin") == [
                Move("San Martin", extra="hold"),
                Move("San Martin", extra="dishonour"),
            ]
            play(state, "move San Martin dishonour")
            assert state.ships["San Martin"].status == "afloat"
            return
        assert moves_of(state, "San Martin") == []
        with pytest.raises(IllegalAction) as error:
            play(state, "move San Martin dishonour")
        assert error.value.rule == "optional rule 6"

    def test_no_other_enemy_may_secure_her_while_her_boarder_holds_her(self):
        # optional rule 6: "one ship must remain grappled for an extra move" and secures her at its end
        state = struck_to_boarders([ship("Hope", "english", 8, 12, 90, type="Hope"), FAR_OFF[1]])
        with pytest.raises(IllegalAction) as error:
            play(state, "move Hope turn 0 run 3.00 turn 0 secure San Martin")  # boats from 1.7" off
        assert error.value.rule == "optional rule 6"
        assert error.value.message == "San Martin is held by Revenge's boarders"


class TestOptionalRule6Securing:
    @pytest.mark.parametrize(("shannon_y", "secured"), [(8.6, True), (8.59, False)])
    def test_boats_reach_two_drift_moves_in_a_medium_wind(self, shannon_y, secured):
        """Optional rule 6, boats "within two drift units" (rulings: a drift move is 1" in a medium
        wind, mainmast to mainmast): Shannon ends her run 2.00" or 2.01" off Chesapeake."""
        state = struck_chesapeake(shannon_y)
        move = "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake"
        assert_secures_chesapeake(state, move, secured)

    @pytest.mark.parametrize(("shannon_y", "secured"), [(7.6, True), (6.59, False)])
    def test_boats_reach_two_drift_moves_of_two_inches_in_a_strong_wind(self, shannon_y, secured):
        """Optional rule 6 with the rulings: a drift move is 2" in a strong wind, so boats reach 4":
        from 3" off Chesapeake, not from 4.01"."""
        ships = [
            frigate("Shannon", "english", 4, shannon_y, 90),
            frigate("Chesapeake", "spanish", 12, 10.6, 90),
            frigate("Essex", "spanish", 60, 30, 90),
        ]
        state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W", strength="strong"))
        for name in ("Shannon", "Chesapeake", "Essex"):
            play(state, f"move {name} turn 0 run 2.00 turn 0")
        play(state, "end-move")
        play(state, "surrender Chesapeake")
        play(state, "end-move")
        start_move(state)
        move = "move Shannon turn 0 run 8.00 turn 0 secure Chesapeake"
        assert_secures_chesapeake(state, move, secured)

    @pytest.mark.parametrize(("shannon_crew", "prize_crew"), [(25, 15), (10, 0)])
    def test_alongside_she_puts_aboard_only_the_men_she_can_spare(self, shannon_crew, prize_crew):
        """Optional rule 6 with the rulings: the prize crew (20 + 10 for 100 captives) comes from the men
        above the securing ship's own sailing minimum (10): Shannon, down to 25, puts 15 aboard, too
        few to guard 100 captives, who try to escape; at her minimum she can spare nobody."""
        state = struck_chesapeake(10)
        state.ships["Shannon"].crew = shannon_crew
        play(state, "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake")
        assert (state.ships["Chesapeake"].crew, state.ships["Shannon"].crew) == (prize_crew, 10)
        assert due(state) == ("roll", "escape")

    @pytest.mark.parametrize(("shannon_crew", "prize_crew", "escape"), [(95, 19, True), (100, 20, False)])
    def test_captives_guarded_by_one_short_of_a_fifth_of_them_try_to_escape(self, shannon_crew, prize_crew, escape):
        """Optional rule 6, dishonour 2: "If the prize crew is less than 1/5 of the captive crew": a fifth
        of Shannon's crew goes in her boats, 19 or 20 for 100 captives."""
        state = struck_chesapeake(9)
        state.ships["Shannon"].crew = shannon_crew
        play(state, "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake")
        assert state.ships["Chesapeake"].crew == prize_crew
        assert (due(state) == ("roll", "escape")) == escape

    def test_a_prize_her_captives_retook_strikes_again_and_is_secured_again(self):
        """Optional rule 6: captives who escape retake the ship, dishonoured; she may strike again (the
        enemy accepts) and is secured as any struck ship, by Shannon's boats from 1.6" off."""
        state = struck_chesapeake(9)
        state.ships["Shannon"].crew = 60
        play(state, "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake")  # 12 men for 100 captives
        roll(state, 4)  # they escape
        chesapeake = state.ships["Chesapeake"]
        assert chesapeake.status == "afloat" and chesapeake.dishonoured
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        play(state, "move Essex turn 0 run 1.00 turn 0")
        hold_fire(state)
        play(state, "end-move")
        play(state, "surrender Chesapeake")
        assert due(state) == ("decide", "accept")
        play(state, "accept Chesapeake")
        play(state, "end-move")
        start_move(state)
        events = play(state, "move Shannon turn 0 run 1.00 turn 0 secure Chesapeake")
        assert Captured("Chesapeake", state.where(chesapeake.point), "Shannon") in events
        assert chesapeake.status == "prize" and chesapeake.prisoners == 100

    def test_a_ship_in_tow_of_her_own_side_is_cast_off_when_the_enemy_secures_her(self):
        """Optional rules 3 and 6: Calcutta, in Pallas's tow, strikes; Essex's boats secure her, the tow is
        cast off and Pallas sails free (light airs: 1")."""
        ships = [
            frigate("Pallas", "english", 12, 10, 90),
            ship("Calcutta", "english", 10, 10, 90, **{"class": "74"}),
            frigate("Essex", "spanish", 9, 11.5, 90),
        ]
        options = {"towing": True, "prizes": True}
        state = to_movement(position(ships, period="nelson", wind="N", strength="light airs", options=options))
        play(state, "move Calcutta hold")
        play(state, "move Pallas turn 0 run 0.10 turn 0 tow Calcutta")
        roll(state, 3)
        play(state, "move Essex turn 0 run 1.00 turn 0")
        hold_fire(state)
        play(state, "surrender Calcutta")
        play(state, "end-move")
        play(state, "end-move")
        start_move(state, first=1)
        events = play(state, "move Essex turn 0 run 0.50 turn 0 secure Calcutta")
        assert Marked("Calcutta", "casts off the tow with Pallas", "optional rule 3") in events
        pallas = state.ships["Pallas"]
        assert not pallas.tow and not pallas.towing and state.ships["Calcutta"].status == "prize"
        roll(state, 3)  # the captives' escape fails
        moves = moves_of(state, "Pallas")
        assert Move("Pallas", extra="cast-off") not in moves and Move("Pallas", 0, 100, 0) in moves


def sink(state, firer, mount, target):
    play(state, f"fire {firer} {mount} at {target}")
    while due(state) == ("roll", "hit"):
        roll(state, 5)
    assert state.ships[target].status == "sunk"


class TestOptionalRule5BrokenCrewsAndSurvivors:
    def test_a_crew_at_exactly_a_quarter_grappled_throws_and_struck_without_prizes_frees_her_boarder(self):
        """Optional rule 5: "When reduced to a 1/4 ... throw a die. On a 1-2, surrender": San Martin, 25
        of her 100 men, grappled in a fight that goes on. With prizes off she leaves play as taken
        (rulings) and Revenge, no longer grappled, sails next move."""
        state = boarding_with_crews(revenge_gunners=0, crew=25)
        for _ in range(2):
            for _ in range(state.fight["a"] + state.fight["d"]):
                roll(state, 1)
        play(state, "fight-on Revenge")
        roll(state, 4)  # the fight goes on next move
        play(state, "move San Martin hold")
        play(state, "move San Cristobal turn 0 run 1.00 turn 0")
        hold_fire(state)
        assert state.agenda[0] == ("roll", "crew", "San Martin")
        events = roll(state, 1)
        martin, revenge = state.ships["San Martin"], state.ships["Revenge"]
        assert Struck("San Martin", state.where(martin.point)) in events
        assert martin.status == "taken" and not revenge.grappled
        start_move(state)
        assert any(m.run for m in moves_of(state, "Revenge"))

    @pytest.mark.parametrize(("crew", "offered"), [(4, True), (3, False)])
    def test_a_rescuer_takes_up_to_a_quarter_of_her_crew_so_needs_four_men(self, crew, offered):
        """Optional rule 5: survivors "up to a 1/4 of the crew of the rescuing ship"."""
        state = survivors_in_the_water()
        state.ships["Revenge"].crew = crew
        assert (Choose("pick-up", "Revenge", "San Martin") in state.legal_actions()) == offered

    def test_the_last_survivor_and_the_survivors_of_a_second_wreck_are_offered(self):
        """Optional rule 5: Revenge sinks San Martin (3 men aboard: one survivor) and San Cristobal sinks
        Hope in the same move; Revenge takes the one survivor, and San Cristobal is offered Hope's."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 11, 11.5, 90, type="San Martin"),
            ship("San Cristobal", "spanish", 10, 20, 90, type="San Cristobal"),
            ship("Hope", "english", 10, 21.5, 90, type="Hope"),
        ]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["San Martin"].flotation = state.ships["Hope"].flotation = 1
        state.ships["San Martin"].crew = 3  # too few to sail: she lies where she is
        for name in ("Revenge", "Hope", "San Cristobal"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        sink(state, "Revenge", "port", "San Martin")
        state.apply(END_FIRE)  # Hope holds her fire
        sink(state, "San Cristobal", "port", "Hope")
        state.apply(END_FIRE)
        survivors = state.to_json()["survivors"]
        assert (
            list(survivors) == ["San Martin", "Hope"] and survivors["San Martin"][2] == 1 and survivors["Hope"][2] > 0
        )
        assert state.legal_actions() == [END_MOVE, Choose("pick-up", "Revenge", "San Martin")]
        play(state, "pick-up Revenge from San Martin")
        assert state.ships["Revenge"].prisoners == 1
        assert state.legal_actions() == [END_MOVE, Choose("pick-up", "San Cristobal", "Hope")]

    def test_a_rescuer_drifting_this_move_may_pick_up_survivors_again_at_its_end(self):
        """Optional rule 5: "any ship within two drift moves may stop, and drift, to pick up survivors":
        Revenge picked up San Martin's men and drifts the second move; at its end she has sunk San Juan
        1.5" off and may pick up his survivors too."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10, 11.5, 90, type="San Martin"),
            ship("San Juan", "spanish", 9, 7.5, 90, type="San Cristobal"),
            ship("San Felipe", "spanish", 40, 30, 270, type="San Martin"),
        ]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["San Martin"].flotation = 1
        for name in ("Revenge", "San Martin", "San Juan", "San Felipe"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        sink(state, "Revenge", "port", "San Martin")
        hold_fire(state)
        play(state, "pick-up Revenge from San Martin")
        start_move(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "none"  # she drifts
        for name in ("San Juan", "San Felipe"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        state.ships["San Juan"].flotation = 1
        sink(state, "Revenge", "starboard", "San Juan")
        hold_fire(state)
        assert state.legal_actions() == [END_MOVE, Choose("pick-up", "Revenge", "San Juan")]

    def test_a_wreck_whose_survivors_were_all_picked_up_offers_nobody_more(self):
        """Optional rule 5: Revenge, with 200 men, takes up all 47 of San Martin's survivors (a quarter
        of her crew is more); San Cristobal, 1.87" from the wreck, has nobody left to pick up."""
        state = survivors_in_the_water()
        state.ships["Revenge"].crew = 200
        play(state, "pick-up Revenge from San Martin")
        assert state.ships["Revenge"].prisoners == 47
        assert Choose("pick-up", "San Cristobal", "San Martin") not in state.legal_actions()

    @pytest.mark.parametrize(("wreck_y", "offered"), [(11.30, True), (11.29, False)])
    def test_survivors_exactly_two_drift_moves_off_are_within_reach(self, wreck_y, offered):
        """Optional rule 5: "any ship within two drift moves" (rulings: a reach includes its edge): San
        Cristobal, at (11.50, 13.30), is offered survivors 2.00" off in a medium wind, not 2.01"."""
        state = survivors_in_the_water()
        state.survivors["San Martin"] = (1150, round(wreck_y * 100), 47)
        play(state, "end-move")  # the English pick nobody up
        assert (Choose("pick-up", "San Cristobal", "San Martin") in state.legal_actions()) == offered

    @pytest.mark.parametrize(
        ("crew", "options", "survivors"),
        [(2, {"crews": True}, {"San Martin": 1}), (1, {"crews": True}, {}), (95, {}, {})],
    )
    def test_half_a_sunk_ships_crew_are_left_in_the_water_with_the_crews_rule(self, crew, options, survivors):
        """Optional rule 5: half the crew of a ship sunk survive in the water (two men leave one; one man
        leaves nobody); without the rule nobody is left to pick up."""
        sails = crew >= 10  # her sailing minimum: with fewer she lies abeam of where Revenge runs to
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10 if sails else 11, 11.5, 90, type="San Martin"),
        ]
        state = to_movement(position(ships, options=options))
        martin = state.ships["San Martin"]
        martin.crew = crew
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        if sails:
            play(state, "move San Martin turn 0 run 1.00 turn 0")
        martin.flotation = 1
        sink(state, "Revenge", "port", "San Martin")
        assert {name: count for name, (_, _, count) in state.survivors.items()} == survivors

    def test_casualties_fall_on_the_crew_alone_while_prisoners_are_fewer(self):
        """Optional rule 6: casualties are "divided equally" between crew and prisoners only where the
        prisoners are as many as the crew: Revenge, 45 men with 11 of San Martin's survivors aboard,
        loses four men to four hits and keeps her prisoners."""
        state = survivors_in_the_water()
        play(state, "pick-up Revenge from San Martin")
        revenge = state.ships["Revenge"]
        assert (revenge.crew, revenge.prisoners) == (45, 11)
        assert fire.casualties(state, revenge, 4) == 4 and revenge.prisoners == 11

