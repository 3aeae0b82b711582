"""Seed 003: the Nelson-period rules 1-4 and optional rules 1-7, and victory (a decision)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import DieRolled, Drifted, Escaped, Exploded, GameOver, Marked, MastLost
from quarterdeck.games.naval_warfare import fire, victory
from quarterdeck.games.naval_warfare.actions import Move

from .helpers import distant_enemy, due, passive, play, position, roll, ship, start_move, to_movement


def frigates(options=None, **kw):
    ships = [
        ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
        ship("Chesapeake", "spanish", 10, 14, 90, **{"class": "38 frigate"}),
    ]
    return position(ships, period="nelson", options=options, **kw)


class TestNelsonRules:
    def test_rake_at_close_range_doubles_hits(self):
        # Chesapeake heads straight at Shannon's side: her keel line passes through Shannon
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 11, 15, 180, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson", wind="W"))
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        assert fire.raked(state.ships["Shannon"], state.ships["Chesapeake"])
        play(state, "fire Shannon port at Chesapeake")
        for _ in state.volley["shots"]:
            roll(state, 4)
        chesapeake = state.ships["Chesapeake"]
        assert chesapeake.spec.flotation - chesapeake.flotation == 2 * 2  # 1 long + 1 short battery, doubled

    @pytest.mark.parametrize(("heading", "rakes"), [(0, True), (90, False)])
    def test_a_rake_across_the_stern_too_and_none_along_her_side(self, heading, rakes):
        """Nelson rule 1 counts the keel line astern as well as ahead: Chesapeake sailing away from
        Shannon shows her stern to Shannon's broadside; lying parallel she shows her side."""
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 11, 15, heading, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson", wind="W"))
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        assert fire.raked(state.ships["Shannon"], state.ships["Chesapeake"]) == rakes

    @pytest.mark.parametrize("rate", ["74", "64"])
    def test_ships_of_the_line_hold_fire_from_frigates_until_they_fire(self, rate):
        """Nelson rule 4: "Ships of the line (say, 64 guns or larger) may not fire on frigates ... unless
        the frigate fires first": a 74, and a 64 as well."""
        ships = [
            ship("Venerable", "english", 10, 10, 90, **{"class": rate}),
            ship("Circe", "spanish", 10, 15, 90, **{"class": "32 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson"))
        play(state, "move Venerable turn 0 run 1.00 turn 0")
        play(state, "move Circe turn 0 run 1.00 turn 0")
        assert state.current_player() == 1  # Venerable has nothing she may fire at: her fire step passed
        assert fire.why_not(state, 0, fire.Fire("Venerable", "port", "Circe"))[0] == "Nelson rule 4"
        play(state, "fire Circe starboard at Venerable")  # the frigate fires first: fair game from now on
        while due(state) == ("roll", "hit"):
            roll(state, 1)
        assert not fire.why_not(state, 0, fire.Fire("Venerable", "port", "Circe"))[0]

    def test_a_fifty_gun_ship_is_no_frigate_to_hold_fire_from(self):
        """Nelson rule 4: frigates are ships of "less than 50 guns"; Leander, of 50, may be fired on at once."""
        ships = [
            ship("Venerable", "english", 10, 10, 90, **{"class": "74"}),
            ship("Leander", "spanish", 10, 15, 90, armament={"24-pdr": 22, "12-pdr": 22, "6-pdr": 6}, tons=1052),
        ]
        state = to_movement(position(ships, period="nelson"))
        play(state, "move Venerable turn 0 run 1.00 turn 0")
        play(state, "move Leander turn 0 run 1.00 turn 0")
        assert fire.Fire("Venerable", "port", "Leander") in state.legal_actions()

    def test_quarter_damage_fire_check_one_then_one_blows_up_and_sets_fire_within_3_inches(self):
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 10, 13, 90, **{"class": "38 frigate"}),
            ship("Guerriere", "spanish", 40, 30, 90, **{"class": "38 frigate"}),
            ship("Java", "spanish", 10, 6.99, 90, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson"))
        state.ships["Shannon"].flotation = 37  # a quarter of 50 lost
        for name in ("Shannon",):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        play(state, "move Guerriere turn 0 run 1.00 turn 0")
        play(state, "move Java turn 0 run 1.00 turn 0")
        while due(state)[1] in ("fire", "damage"):
            state.apply(passive(state))
        assert due(state) == ("roll", "mast")
        assert not any(isinstance(e, MastLost) for e in roll(state, 4))  # 4-6 keeps her masts
        assert roll(state, 1)[0] == DieRolled("Shannon's fire check (Nelson rule 2)", 1)
        events = roll(state, 1)
        assert events[:2] == [
            DieRolled("Shannon's second fire die (Nelson rule 2)", 1),
            Exploded("Shannon", "(11.00, 10.00)"),
        ]
        # Chesapeake lies exactly 3" off, mainmast to mainmast: "within 3 inches"; Java 3.01" off does not
        assert Marked("Chesapeake", "catches fire", "Nelson rules 2 and 3") in events
        assert state.ships["Shannon"].status == "blown-up" and state.ships["Chesapeake"].on_fire
        assert not state.ships["Java"].on_fire and not state.ships["Guerriere"].on_fire

    def test_blown_up_at_her_first_fire_check_she_throws_none_for_the_next_threshold(self):
        """Rule 5 and Nelson rule 2, one check for each threshold crossed: Shannon passes a quarter and
        half damage in one move; blown up at the first check (1, then 1), she throws for neither her
        masts nor a fire at half damage, and the move ends."""
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Hermes", "english", 60, 5, 90, **{"class": "sloop"}),
            ship("Chesapeake", "spanish", 40, 30, 90, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson"))
        state.ships["Shannon"].flotation = 25  # half of 50 lost
        for name in ("Shannon", "Hermes", "Chesapeake"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        assert [step[1] for step in state.agenda[:4]] == ["mast", "powder", "mast", "powder"]
        roll(state, 4)
        roll(state, 1)
        assert Exploded("Shannon", "(11.00, 10.00)") in roll(state, 1)
        assert state.ships["Shannon"].status == "blown-up" and due(state) == ("roll", "wind")

    def test_three_quarters_damaged_the_second_fire_die_is_thrown_at_once(self):
        """Nelson rule 2: "When 3/4 damaged, throw the second die automatically"; a ship already on fire
        caught by an explosion keeps her count of failed throws."""
        state = frigates()
        shannon, chesapeake = state.ships["Shannon"], state.ships["Chesapeake"]
        shannon.flotation, shannon.marks = 12, 2
        chesapeake.on_fire = 3
        to_movement(state)
        roll(state, 3)  # Chesapeake fails to put her fire out: a third failed throw, and drifts 1" south
        play(state, "move Shannon turn -45 run 1.00 turn 0")  # to 2.4" off Chesapeake
        while due(state)[1] in ("fire", "damage", "move"):
            state.apply(passive(state))
        assert due(state) == ("roll", "powder-second")
        events = roll(state, 1)
        assert Exploded("Shannon", state.where(shannon.point)) in events and chesapeake.on_fire == 4

    @pytest.mark.parametrize(
        ("failed", "value", "status", "on_fire"),
        [(3, 4, "afloat", 5), (4, 4, "blown-up", 0), (4, 5, "afloat", 0)],
    )
    def test_a_fire_burns_five_throws_before_she_blows_up(self, failed, value, status, on_fire):
        """Nelson rule 3: "If a ship is on fire for 5 consecutive moves, that is, throws dice as above 5
        times in a row, and it is still on fire, it blows up"; a 5 or 6 puts it out."""
        state = frigates()
        chesapeake = state.ships["Chesapeake"]
        chesapeake.on_fire = 1 + failed
        roll(state, 2, 2)
        roll(state, 9, 4)
        events = roll(state, value)
        assert (chesapeake.status, chesapeake.on_fire) == (status, on_fire)
        assert (Marked("Chesapeake", "puts out her fire", "Nelson rule 3") in events) == (value == 5)

    def test_a_five_puts_the_fire_out_and_a_second_fire_die_of_two_to_six_sets_her_alight(self):
        """Nelson rule 3: the fire is out on 5-6; Nelson rule 2: after a 1 on the fire check, a
        second die of 1 blows her up and anything else sets her on fire."""
        from quarterdeck.games.naval_warfare import damage

        state = frigates()
        chesapeake, shannon = state.ships["Chesapeake"], state.ships["Shannon"]
        chesapeake.on_fire = 2
        damage.fire_die(state, chesapeake, 5)
        assert chesapeake.on_fire == 0
        damage.powder_second(state, shannon, 3)
        assert shannon.on_fire == 1 and shannon.status == "afloat"

    def test_fire_out_on_5_6_else_drifts_and_cannot_fire_and_five_failures_blow_up(self):
        state = frigates()
        state.ships["Chesapeake"].on_fire = 1
        roll(state, 2, 2)
        roll(state, 9, 4)
        assert due(state) == ("roll", "fire")
        assert roll(state, 3)[0] == DieRolled("Chesapeake fights the fire (Nelson rule 3)", 3)
        assert state.ships["Chesapeake"].on_fire == 2
        assert fire.why_not(state, 1, fire.Fire("Chesapeake", "port", "Shannon"))[0] == "Nelson rule 3"
        state.ships["Chesapeake"].on_fire = 5
        state.ships["Chesapeake"].on_fire = 5
        from quarterdeck.games.naval_warfare import damage

        state._pending = []
        damage.fire_die(state, state.ships["Chesapeake"], 2)
        assert state.ships["Chesapeake"].status == "blown-up"


def shannon_three_quarters_damaged(flotation, options=None, strength="strong", batteries=True):
    """Shannon, three quarters damaged with `flotation` left and a mast down (with no batteries if
    not `batteries`), and Chesapeake sail a move (foundering on unless `options` say otherwise): the
    end of the move is due."""
    state = frigates({"foundering": True} if options is None else options, strength=strength)
    shannon = state.ships["Shannon"]
    shannon.flotation, shannon.marks, shannon.masts_lost = flotation, 3, 1
    if not batteries:
        shannon.batteries = []
    roll(state, 2, 2)
    roll(state, 9, 4)
    play(state, "move Shannon turn 0 run 4.00 turn 0")
    play(state, "move Chesapeake turn 0 run 2.00 turn 0")
    while due(state)[1] in ("fire", "damage"):
        state.apply(passive(state))
    return state


def calm_with_boats():
    """Revenge in the second move of a calm with the boats rule on, her move due."""
    state = position(
        [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")],
        strength="calm",
        options={"boats": True},
    )
    state.calm_moves = 1
    return to_movement(state)


class TestOptionalRules:
    def test_boats_after_the_first_move_of_a_calm(self):
        state = calm_with_boats()
        play(state, "move Revenge turn -90 run 1.00 turn 0 boats")  # upwind, towed by her boats
        assert (state.ships["Revenge"].x, state.ships["Revenge"].y) == (1000, 1100)

    def test_boats_tow_only_a_ship_not_more_than_half_damaged(self):
        """Optional rule 1: "ships not more than 1/2 damaged may move one drift move": Revenge with 12
        of her 23 flotation points lost may not; with 11 lost she may."""
        state = calm_with_boats()
        state.ships["Revenge"].flotation = 11
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn -90 run 1.00 turn 0 boats")
        assert error.value.rule == "optional rule 1"
        state.ships["Revenge"].flotation = 12
        play(state, "move Revenge turn -90 run 1.00 turn 0 boats")

    def test_after_her_boats_towed_her_she_lies_still_a_move_before_sailing_again(self):
        from quarterdeck.games.naval_warfare import movement

        state = calm_with_boats()
        revenge = state.ships["Revenge"]
        revenge.boats = True  # towed by her boats last move
        with pytest.raises(IllegalAction) as error:
            movement.check(state, revenge, Move("Revenge", 0, 100, 0))
        assert error.value.rule == "optional rule 1" and "lie still" in error.value.message
        movement.check(state, revenge, Move("Revenge", 0, 0, 0))

    def test_jury_mast_after_five_moves_not_fired_on_at_close_range(self):
        """Optional rule 2: a move in which Revenge was fired on at close range does not count for her;
        San Martin, a mast down too and not fired on, counts hers all the same."""
        state = position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")],
            options={"jury-masts": True},
        )
        revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
        revenge.masts_lost, revenge.jury = 1, 4
        martin.masts_lost = 1
        state._pending = []
        from quarterdeck.games.naval_warfare import damage

        revenge.fired_close = True
        damage.jury_rig(state)
        assert (revenge.jury, martin.jury) == (4, 1)
        revenge.fired_close = False
        damage.jury_rig(state)
        assert revenge.masts_lost == 0 and revenge.jury_done

    def test_a_jury_mast_takes_five_whole_moves(self):
        """Optional rule 2: "a new one may be jury-rigged in five moves": Revenge, a mast down from the
        start, is still short of it after four moves and has it at the end of the fifth (San Martin,
        listed first, has lost none)."""
        state = position(
            [ship("San Martin", "spanish", 60, 30, 270, type="San Martin"), ship("Revenge", "english", 10, 10, 90)],
            options={"jury-masts": True},
        )
        revenge = state.ships["Revenge"]
        revenge.masts_lost = 1
        for _ in range(4):
            to_movement(state)
            play(state, "move Revenge turn 0 run 1.00 turn 0")
            play(state, "move San Martin turn 0 run 1.00 turn 0")
        assert revenge.masts_lost == 1
        to_movement(state)
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        events = play(state, "move San Martin turn 0 run 1.00 turn 0")
        assert revenge.masts_lost == 0 and Marked("Revenge", "has a jury mast rigged", "optional rule 2") in events

    def test_towing_frigate_at_the_bow_then_tows_at_half_speed(self):
        ships = [
            ship("Pallas", "english", 12, 10, 90, **{"class": "38 frigate"}),
            ship("Calcutta", "english", 10, 10, 90, **{"class": "74"}),
            ship("Beagle", "spanish", 60, 30, 270, **{"class": "sloop"}),
        ]
        state = to_movement(position(ships, period="nelson", wind="N", strength="light airs", options={"towing": True}))
        play(state, "move Calcutta hold")
        play(state, "move Pallas turn 0 run 0.10 turn 0 tow Calcutta")
        roll(state, 3)  # light airs: 3-6 (rulings)
        assert state.ships["Pallas"].towing and state.ships["Calcutta"].tow == "Pallas"
        assert state.ships["Calcutta"].x == 1000
        with pytest.raises(IllegalAction):
            play(state, "move Beagle turn 0 run 1.00 turn 0 tow Calcutta")

    def test_a_ship_without_oars_may_not_take_to_them(self):
        ships = [ship("Revenge", "english", 10, 10, 90), distant_enemy()]
        state = to_movement(position(ships, options={"oared": True}))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Revenge turn 0 run 1.00 turn 0 oars")
        assert error.value.rule == "optional rule 4" and "Revenge has no oars to use" in error.value.message
        assert state.ships["Revenge"].point == (1000, 1000)

    def test_oared_galley_ignores_the_wind_and_may_stay(self):
        """A scenario may start a galley under oars (`oars = true`): she rows on the first move, with
        no drifting move to ship them; with optional rule 4 switched off she begins under sail."""
        ships = [ship("Capitana", "english", 10, 10, 0, type="Galley", oars=True),
                 ship("Revenge", "spanish", 60, 30, 270)]
        state = to_movement(position(ships, wind="N", strength="light airs", options={"oared": True}), wind=(2, 2))
        play(state, "move Capitana turn 0 run 6.00 turn 90")  # straight into the wind under oars
        assert state.ships["Capitana"].y == 1600
        assert not position(ships, wind="N", strength="light airs").ships["Capitana"].oars

    @pytest.mark.parametrize("strength, flotation, drift", [("strong", 10, "8.00"), ("light airs", 2, "9.00")])
    def test_no_rowing_in_a_strong_wind_or_at_three_quarters_damage(self, strength, flotation, drift):
        """Optional rule 4: oars "may not be used in strong winds", nor by a ship three-quarters
        damaged (2 of her 10 flotation points left): the galley under oars drifts downwind instead
        (2" in the strong wind, 1" in light airs) and may not row this move."""
        ships = [ship("Capitana", "english", 10, 10, 0, type="Galley"), distant_enemy()]
        state = position(ships, strength=strength, options={"oared": True})
        capitana = state.ships["Capitana"]
        capitana.oars, capitana.flotation = True, flotation
        events = start_move(state)
        why = "cannot use her oars now and drifts (optional rule 4)"
        assert Drifted("Capitana", "(10.00, 10.00)", f"(10.00, {drift})", why) in events
        assert state.to_json()["ships"][0]["limits"]["mode"] == "none"

    def test_taking_to_the_oars_costs_a_drifting_move_then_she_rows(self):
        """Optional rule 4: "An oared vessel takes one drifting move to convert from sail to oars"."""
        ships = [ship("Capitana", "english", 10, 10, 90, type="Galley"), distant_enemy()]
        state = to_movement(position(ships, strength="light airs", options={"oared": True}))
        events = play(state, "move Capitana turn 0 run 1.00 turn 0 oars")
        assert Marked("Capitana", "will ship her oars next move", "optional rule 4") in events
        play(state, "move San Martin hold")
        to_movement(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "none"  # shipping her oars: she drifts
        play(state, "move San Martin hold")
        to_movement(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "oars"
        play(state, "move Capitana turn 0 run 6.00 turn 0")  # her oar speed, in light airs

    def test_oar_speed_halved_in_medium_winds_and_at_half_damage_and_no_second_call_for_oars(self):
        """Optional rule 4 (rulings): the Galleasse rows 5" in Light Airs, 2.5" in Medium (only she may
        row then) and 2.5" at half damage; a galley already under oars cannot take to them again, and
        may go over to sail."""
        from quarterdeck.games.naval_warfare import movement

        ships = [ship("Capitana", "english", 10, 10, 0, type="Galleasse"), ship("Revenge", "spanish", 60, 30, 270)]
        light = position(ships, wind="N", strength="light airs", options={"oared": True})
        medium = position(ships, wind="N", strength="medium", options={"oared": True})
        galleass = light.ships["Capitana"]
        assert movement.oar_run(light, galleass) == 500 and movement.oar_run(medium, medium.ships["Capitana"]) == 250
        galleass.flotation = galleass.spec.flotation // 2
        assert movement.oar_run(light, galleass) == 250
        state = position(ships, wind="N", strength="light airs", options={"oared": True})
        state.ships["Capitana"].oars = True
        to_movement(state, wind=(2, 2))
        with pytest.raises(IllegalAction) as error:
            movement.check(state, state.ships["Capitana"], Move("Capitana", 0, 100, 0, "oars"))
        assert error.value.rule == "optional rule 4" and "already under oars" in error.value.message
        movement.check(state, state.ships["Capitana"], Move("Capitana", 0, 100, 0, "sail"))

    def test_a_galley_is_offered_the_change_to_oars_and_back(self):
        """Optional rule 4: under sail she may take to her oars, under oars raise sail; not while changing."""
        ships = [ship("Capitana", "english", 10, 10, 90, type="Galley"), distant_enemy()]
        for oars, change in ((False, "oars"), (True, "sail")):
            state = position(ships, strength="light airs", options={"oared": True})
            state.ships["Capitana"].oars = oars
            to_movement(state)
            assert any(m.extra == change for m in state.legal_actions() if m.ship == "Capitana")

    def test_a_galley_under_sail_makes_one_turn_only(self):
        """Optional rule 4's table: galleys and galleasses make "one turn only per move" under sail."""
        ships = [ship("Capitana", "english", 10, 10, 90, type="Galley"), distant_enemy()]
        state = to_movement(position(ships, options={"oared": True}))
        with pytest.raises(IllegalAction) as error:
            play(state, "move Capitana turn 45 run 1.00 turn -45")
        assert error.value.rule == "optional rule 4" and "one turn only" in error.value.message
        play(state, "move Capitana turn 45 run 1.00 turn 0")

    def test_a_galley_under_oars_raising_sail_rows_this_move_and_sails_the_next(self):
        """Optional rule 4: "one move, during which it can move under oars, to convert to sail"."""
        ships = [ship("Capitana", "english", 10, 10, 90, type="Galley"), distant_enemy()]
        state = position(ships, strength="light airs", options={"oared": True})
        state.ships["Capitana"].oars = True
        to_movement(state)
        events = play(state, "move Capitana turn 0 run 6.00 turn 0 sail")
        assert Marked("Capitana", "raises sail: rows this move, sails the next", "optional rule 4") in events
        play(state, "move San Martin hold")
        to_movement(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "oars"  # still rowing while she makes sail
        play(state, "move Capitana turn 0 run 1.00 turn 0")
        play(state, "move San Martin hold")
        to_movement(state)
        assert state.to_json()["ships"][0]["limits"]["mode"] == "sail"

    @pytest.mark.parametrize(("kind", "mode"), [("Galleasse", "oars"), ("Galley", "none")])
    def test_in_medium_winds_only_a_galleasse_may_row(self, kind, mode):
        """Optional rule 4: "only galleasses can operate, at half oar speed, in medium winds"; a galley
        under oars then cannot use them and drifts."""
        state = position([ship("Capitana", "english", 10, 10, 90, type=kind), distant_enemy()], options={"oared": True})
        state.ships["Capitana"].oars = True
        to_movement(state)
        limits = state.to_json()["ships"][0]["limits"]
        assert limits["mode"] == mode and limits["run_max"] == (2.5 if mode == "oars" else 0)

    def test_a_ship_sails_with_her_minimum_crew_and_drifts_with_one_man_fewer(self):
        """Optional rule 5 (rulings: tons / 100 rounded half up): Shannon needs her minimum to sail."""
        from quarterdeck.games.naval_warfare import movement

        state = frigates({"crews": True})
        shannon = state.ships["Shannon"]
        shannon.crew = shannon.spec.min_crew
        assert movement.drift_reason(state, shannon) == ""
        shannon.crew -= 1
        assert "crew to sail" in movement.drift_reason(state, shannon)

    def test_crews_halve_casualties_at_half_crew(self):
        state = frigates({"crews": True})
        chesapeake = state.ships["Chesapeake"]
        chesapeake.crew = 50
        assert fire.casualties(state, chesapeake, 3) == 1
        chesapeake.crew = 25
        assert fire.casualties(state, chesapeake, 3) == 0

    def test_surrender_at_the_end_of_a_move_then_no_fire_and_secured_alongside(self):
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 10, 10.6, 90, **{"class": "38 frigate"}),
            ship("Essex", "spanish", 50, 30, 0, **{"class": "32 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W"))
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        play(state, "move Essex turn 0 run 1.00 turn 0")
        while due(state)[1] in ("fire", "damage"):
            state.apply(passive(state))
        play(state, "end-move")
        play(state, "surrender Chesapeake")
        assert state.ships["Chesapeake"].status == "surrendered"
        play(state, "end-move")
        to_movement(state)
        play(state, "move Shannon turn 0 run 1.00 turn 0 secure Chesapeake")
        assert state.ships["Chesapeake"].status == "prize" and state.ships["Chesapeake"].captor == 0

    @pytest.mark.parametrize(
        ("choice", "flotation", "guns_lost"), [("founder Shannon", 11, 0), ("jettison Shannon port long", 12, 1)]
    )
    def test_foundering_in_strong_winds_unless_a_battery_is_jettisoned(self, choice, flotation, guns_lost):
        """Optional rule 7: three quarters damaged in a Strong wind, she loses 1 flotation a move
        unless a battery goes over the side."""
        state = shannon_three_quarters_damaged(12)
        shannon = state.ships["Shannon"]
        assert due(state) == ("decide", "founder")
        before = len(shannon.batteries)
        events = play(state, choice)
        assert shannon.flotation == flotation and len(shannon.batteries) == before - guns_lost
        assert (Marked("Shannon", "takes water: flotation 11", "optional rule 7") in events) == (guns_lost == 0)
        assert due(state) != ("decide", "founder")  # Chesapeake, undamaged, takes no water

    @pytest.mark.parametrize(("options", "strength"), [({"foundering": True}, "medium"), ({}, "strong")])
    def test_no_foundering_below_strong_winds_or_without_the_rule(self, options, strength):
        state = shannon_three_quarters_damaged(12, options, strength)
        assert due(state) != ("decide", "founder") and state.ships["Shannon"].flotation == 12

    def test_a_ship_with_no_battery_to_jettison_takes_the_water(self):
        """Optional rule 7: with no battery left to save the point she loses it without being asked."""
        state = shannon_three_quarters_damaged(12, batteries=False)
        assert state.ships["Shannon"].flotation == 11 and due(state) != ("decide", "founder")

    @pytest.mark.parametrize(("flotation", "status"), [(1, "foundered"), (2, "afloat")])
    def test_the_last_flotation_point_lost_to_the_sea_founders_her(self, flotation, status):
        """Optional rule 7: "If the ship sinks of this cause, it has foundered"; with one point left she floats."""
        state = shannon_three_quarters_damaged(flotation)
        play(state, "founder Shannon")
        assert state.ships["Shannon"].status == status and state.ships["Shannon"].flotation == flotation - 1


class TestVictory:
    def test_score_is_flotation_taken_plus_what_remains_of_ships_lost(self):
        state = frigates()
        state.ships["Chesapeake"].flotation = 40
        assert victory.scores(state) == (10, 0)
        state.ships["Chesapeake"].status = "sunk"
        assert victory.scores(state) == (50, 0)
        state.ships["Chesapeake"].status = "disengaged"
        assert victory.scores(state) == (10, 0)

    @pytest.mark.parametrize(("victory_table", "spanish_score"), [({}, 0), ({"off-table": "struck"}, 50)])
    def test_a_ship_that_sails_off_scores_nothing_unless_the_battle_is_fought_to_a_finish(
        self, victory_table, spanish_score
    ):
        """Rulings, "Victory": a disengaged ship scores nothing more for anyone; a scenario fought to a
        finish (an objective) counts her as struck, her remaining flotation scored by the enemy."""
        ships = [
            ship("Shannon", "english", 70, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 30, 30, 270, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson", victory=victory_table))
        play(state, "move Shannon turn 0 run 5.00 turn 0")
        assert state.ships["Shannon"].status == "disengaged"
        assert victory.scores(state) == (0, spanish_score)
        assert state.is_terminal() and state.outcome.result == ("spanish" if spanish_score else "draw")

    def test_nightfall_ends_the_battle(self):
        """Setup: "a battle ends at nightfall, taken to be 9 pm"; the players are told the battle is over."""
        state = frigates(time="18:00")
        assert state.to_json()["moves_left"] == 2  # 6 pm and 7:30 pm
        events = []
        for _ in range(3):
            roll(state, 2, 2)
            roll(state, 9, 4)
            events += play(state, "move Shannon turn 0 run 1.00 turn 0")
            events += play(state, "move Chesapeake turn 0 run 1.00 turn 0")
            while not state.is_terminal() and due(state)[1] in ("fire", "damage"):
                events += state.apply(passive(state))
            if state.is_terminal():
                break
        assert state.is_terminal() and "nightfall" in state.outcome.reason and state.clock == 21 * 60
        assert state.to_json()["moves_left"] == 0
        assert state.outcome.result == "draw" and state.outcome.returns == (0.0, 0.0)  # no points either way
        assert events[-1] == GameOver("draw", state.outcome.reason)

    @pytest.mark.parametrize(
        ("minutes", "text"),
        [
            (0, "12:00 am"),
            (6 * 60, "6:00 am"),
            (11 * 60 + 59, "11:59 am"),
            (12 * 60, "12:00 pm"),
            (13 * 60 + 30, "1:30 pm"),
            (21 * 60, "9:00 pm"),
            (25 * 60 + 30, "1:30 am"),
        ],
    )
    def test_the_clock_reads_as_the_time_of_day_into_the_night(self, minutes, text):
        """The setup's times (6 am to 9 pm) and the night after them, past midnight."""
        assert victory.clock_text(minutes) == text


def apart(options=None, **kw):
    """Shannon and Chesapeake far out of range of each other."""
    ships = [
        ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
        ship("Chesapeake", "spanish", 50, 30, 270, **{"class": "38 frigate"}),
    ]
    return position(ships, period="nelson", options=options, **kw)


def one_quiet_move(state):
    """A move in which both ships sail 1" and nobody fires."""
    roll(state, 2, 2)
    roll(state, 9, 4)
    play(state, "move Shannon turn 0 run 1.00 turn 0")
    play(state, "move Chesapeake turn 0 run 1.00 turn 0")


class TestNightAndTheEndOfTheBattle:
    @pytest.mark.parametrize("option", ["night-escape", "keep-nine-pm"])
    def test_with_the_night_rules_the_battle_goes_on_past_nightfall_and_ends_at_dawn(self, option):
        """Setup, note **: a battle may go on into the night (rulings: night escape; it ends at dawn, 6 am)."""
        state = apart({option: True}, time="19:30")
        one_quiet_move(state)
        assert not state.is_terminal() and state.to_json()["clock_text"] == "9:00 pm"
        assert state.to_json()["moves_left"] == 6  # to dawn: 9 and 10:30 pm, 12, 1:30, 3 and 4:30 am
        assert due(state) == ("decide", "night") and state.current_player() == 0
        state.clock = 28 * 60 + 30  # 4:30 am
        play(state, "stay")
        play(state, "stay")
        one_quiet_move(state)
        assert state.is_terminal() and state.outcome.reason.startswith("dawn: the night action is over")
        assert state.to_json()["moves_left"] == 0

    @pytest.mark.parametrize(("value", "escaped"), [(4, False), (5, True), (6, True)])
    def test_a_side_escapes_in_the_night_on_5_or_6(self, value, escaped):
        """Setup, note **: "the fleet wishing to escape may do so during the night by throwing a 5-6"."""
        state = apart({"night-escape": True}, time="19:30")
        one_quiet_move(state)
        play(state, "escape")
        events = roll(state, value)
        assert events[0] == DieRolled("english escape in the night", value)
        shannon, chesapeake = state.ships["Shannon"], state.ships["Chesapeake"]
        assert chesapeake.status == "afloat"
        if escaped:
            assert shannon.status == "disengaged" and Escaped("Shannon", "(11.00, 10.00)", "night") in events
            assert state.is_terminal() and "english slipped away in the night" in state.outcome.reason
        else:
            assert shannon.status == "afloat" and not state.is_terminal()
            assert due(state) == ("decide", "night") and state.current_player() == 1

    @pytest.mark.parametrize(
        ("masts_lost", "batteries", "beaten"), [(2, False, True), (1, False, False), (2, True, False)]
    )
    def test_a_side_with_no_ship_that_can_fight_or_move_has_lost(self, masts_lost, batteries, beaten):
        """Victory (a decision): the battle ends when one side has no ship left that can fight and move;
        a dismasted Chesapeake with no guns left can do neither, with one mast standing she can still sail."""
        state = apart()
        chesapeake = state.ships["Chesapeake"]
        chesapeake.masts_lost, chesapeake.flotation = masts_lost, 40  # 10 points to the English
        if not batteries:
            chesapeake.batteries = []
        roll(state, 2, 2)
        assert state.is_terminal() == beaten
        if beaten:
            assert state.outcome.reason == ("spanish has no ship left that can fight or move (Chesapeake can neither "
                                            "fight nor move); points: english 10, spanish 0")
            assert state.outcome.result == "english" and state.outcome.returns == (1.0, -1.0)

    def test_the_side_left_with_a_ship_that_fights_wins_on_points(self):
        """Victory (a decision): the battle ends and the points decide; here the Spaniards took 10."""
        state = apart()
        shannon = state.ships["Shannon"]
        shannon.masts_lost, shannon.batteries, shannon.flotation = 2, [], 40
        roll(state, 2, 2)
        assert state.outcome.result == "spanish" and state.outcome.returns == (-1.0, 1.0)
        assert state.outcome.reason.endswith("points: english 0, spanish 10")

    def test_reinforcements_still_to_come_do_not_hide_the_points_of_the_ships_after_them(self):
        ships = [
            ship("Essex", "spanish", 71.5, 20, 270, **{"class": "38 frigate"}, arrives=3, edge="east"),
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 50, 30, 270, **{"class": "38 frigate"}),
        ]
        state = position(ships, period="nelson")
        state.ships["Chesapeake"].flotation = 40
        assert state.to_json()["score"] == [10, 0]

    def test_a_reinforcement_named_before_she_comes_on_says_when_and_where(self):
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 50, 30, 270, **{"class": "38 frigate"}),
            ship("Essex", "spanish", 71.5, 20, 270, **{"class": "38 frigate"}, arrives=3, edge="east"),
            ship("Java", "spanish", 50, 20, 270, **{"class": "38 frigate"}),
        ]
        state = to_movement(position(ships, period="nelson"), first=1)
        assert state.current_player() == 1 and not state.legal_actions(1, piece="Essex")
        waiting = state.idle_reason("essex", 1)
        assert (waiting.rule, waiting.message) == ("reinforcements", "Essex arrives on move 3 at the east edge")
        essex = next(s for s in state.to_json()["ships"] if s["name"] == "Essex")
        assert essex["arrival"] == "arrives on move 3 at the east edge"  # as the browser's table shows it
        assert all(s["arrival"] == "" for s in state.to_json()["ships"] if s["name"] != "Essex")
        play(state, "move Chesapeake turn 0 run 1.00 turn 0", 1)  # the Spanish move on without her
        with pytest.raises(IllegalAction) as error:
            play(state, "move Chesapeake turn 0 run 1.00 turn 0", 1)
        assert (error.value.rule, error.value.message) == ("rule 3", "Chesapeake has already moved this move")

    def test_a_reinforcement_whose_place_is_taken_waits_and_her_side_is_told(self):
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 50, 30, 270, **{"class": "38 frigate"}),
            ship("Essex", "spanish", 71.5, 20, 270, **{"class": "38 frigate"}, arrives=2, edge="east"),
            ship("Java", "spanish", 71, 20, 270, **{"class": "38 frigate"}),  # lying across Essex's place
        ]
        state = position(ships, period="nelson", strength="calm")
        events = roll(state, 2, 2) + roll(state, 9, 4)  # a first move of calm: nobody moves
        assert state.move_number == 2 and state.ships["Essex"].status == "waiting"
        told = "waits to come on at the east edge: another ship lies in her place"
        assert Marked("Essex", told, "reinforcements") in events
        assert state.idle_reason("Essex", 1).message == f"Essex {told}"
        assert next(s for s in state.to_json()["ships"] if s["name"] == "Essex")["arrival"] == told

    def test_a_side_whose_reinforcements_are_still_to_come_fights_on(self):
        ships = [
            ship("Shannon", "english", 10, 10, 90, **{"class": "38 frigate"}),
            ship("Chesapeake", "spanish", 50, 30, 270, **{"class": "38 frigate"}),
            ship("Essex", "spanish", 71.5, 20, 270, **{"class": "38 frigate"}, arrives=3, edge="east"),
        ]
        state = position(ships, period="nelson")
        state.ships["Chesapeake"].status = "sunk"
        roll(state, 2, 2)
        assert not state.is_terminal() and due(state) == ("roll", "initiative")
