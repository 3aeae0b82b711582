"""Seed 001, MOVEMENT 6 (running afoul: facing, the side record, screening, fire only at the ship
alongside, break-away from a captured ship) and PRIZES 1-3 (capture, recapture, destroying), with
the reconstructed boarding and cutting loose; and the reconstructed victory points (preservation
points inflicted, ships sunk and prizes held, the scenario's objectives)."""

from __future__ import annotations

import pytest

from quarterdeck import games
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Captured, Crippled, CutLoose, DieRolled, Meleed, RanAfoul
from quarterdeck.core.hexes import HexDir
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.frigate import combat, prizes, turn
from quarterdeck.games.frigate.actions import Cut, Declare, Destroy, Fire, Hold, Melee, Move, Order, Roll, Strike
from quarterdeck.games.frigate.scenario import standard_tables_data

from .helpers import battle, declare, hold_windows, near, quiet_turn, ship, to_movement

FRIGATE = {"class": "frigate"}


def astern(**kw):
    """Essex (blue) in the hex astern of Guerriere (red), both facing north, Essex with a point to spend."""
    return battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                  ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"), **kw)


class TestRunningAfoul:
    def test_entering_through_a_rear_hexside_she_faces_the_same_way(self):
        state = astern()
        to_movement(state, Essex=4, Guerriere=0)
        assert RanAfoul("Essex", "Guerriere", "1009") in state.apply(Move("Essex"), 0)
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert essex.hex == guerriere.hex and essex.afoul == "Guerriere" and guerriere.afoul == "Essex"
        assert essex.facing == HexDir.N
        assert guerriere.afoul_side == "starboard" and essex.afoul_side == "port"  # Decision: astern -> starboard
        assert essex.left == 0

    def test_a_ship_afoul_named_in_movement_is_told_she_stays_until_she_cuts_loose(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE),
                       ship("Wasp", "blue", 18, "0420", "N", 4), wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0, Wasp=1)
        state.apply(Move("Essex"), 0)
        hold_windows(state)
        quiet_turn(state)
        to_movement(state, Essex=0, Guerriere=0, Wasp=3)  # blue moves first: Wasp has points, Essex lies afoul
        assert state.stage == "move" and state.legal_actions(0, piece="Wasp")
        assert not state.legal_actions(0, piece="Essex")
        reason = state.idle_reason("essex", 0)
        assert reason.rule == "running-afoul"
        assert reason.message == ("Essex is afoul of Guerriere: she stays in her hex until she cuts loose at a "
                                  "Movement Declaration")
        assert state.idle_reason("Guerriere", 0).rule == "ownership" and state.idle_reason("Nobody", 0) is None
        # the browser's helm says the same of both ships afoul, and nothing of Wasp, who may sail
        idle = games.get("frigate").hook("board_notes")(state)["idle"]
        assert idle == {"Essex": str(reason), "Guerriere": "Guerriere is afoul of Essex: she stays in her hex until "
                        "she cuts loose at a Movement Declaration [rule: running-afoul]"}

    def test_entering_through_a_front_hexside_she_faces_the_opposite_way(self):
        state = battle(ship("Essex", "blue", 44, "1110", "SW", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1010", "N", 0, **FRIGATE), wind=(3, "moderate"))
        assert near(state, "Guerriere", "NE") == "1110"
        to_movement(state, Essex=4, Guerriere=0)
        hold_windows(state)
        state.apply(Move("Essex"), 0)
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert essex.facing == HexDir.S  # opposite to Guerriere
        assert guerriere.afoul_side == "starboard" and essex.afoul_side == "starboard"

    def test_afoul_ships_fire_only_at_each_other_with_the_side_alongside(self):
        state = astern()
        to_movement(state, Essex=4, Guerriere=0)
        state.apply(Move("Essex"), 0)
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert {(f.battery, f.target) for f in combat.fire_options(state, essex)} == {("port", "Guerriere")}
        assert {(f.battery, f.target) for f in combat.fire_options(state, guerriere)} == {("starboard", "Essex")}
        attack = combat.describe_attack(state, essex, "port", guerriere)
        assert attack.range == 0 and attack.gunnery == 6 and attack.rake == ""

    def test_the_ship_alongside_screens_her(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE),
                       ship("Hornet", "blue", 20, "1309", "N", 0), ship("Wasp", "blue", 20, "0809", "N", 0),
                       wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0, Hornet=0, Wasp=0)
        state.apply(Move("Essex"), 0)
        guerriere = state.ships["Guerriere"]
        # Essex lies along Guerriere's starboard side: Hornet, to starboard, is screened; Wasp is not.
        assert combat.target_problem(state, state.ships["Hornet"], "port", guerriere)[0] == "screened"
        assert combat.target_problem(state, state.ships["Wasp"], "starboard", guerriere) is None

    def test_melee_and_capture_of_a_crippled_ship(self):
        state = astern()
        to_movement(state, Essex=4, Guerriere=0)
        state.ships["Guerriere"].crew = 2
        state.apply(Move("Essex"), 0)
        while state.windows[0] != "Essex" or not state.end_round:  # on to the segment's end round
            state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
        state.apply(Melee("Essex"), 0)
        # Essex: 4 + round(44/10)=4 crew points + 1 (Crack? no: Average 0) = 8; Guerriere 1 + round(4 x 1/3)=1 = 2.
        state.apply(Roll((4, 1)))
        assert ("Guerriere", "crew", "Essex") in state.pending
        events = []
        while state.windows:
            events += state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
        guerriere = state.ships["Guerriere"]
        assert guerriere.crew == 3 and guerriere.owner == 0  # crippled alongside an enemy that boarded
        assert Crippled("Guerriere", "1009") in events and Captured("Guerriere", "1009", "Essex") in events

    @pytest.mark.parametrize(("facing", "start", "heading", "faces", "sides"), [
        ("S", "1009", "S", "S", ("starboard", "port")),  # over her stern (facing south): the same way
        ("N", "1111", "NW", "N", ("starboard", "port")),  # over her starboard quarter: the same way
        ("N", "0911", "NE", "N", ("port", "starboard")),  # over her port quarter: the same way
        ("N", "0910", "SE", "S", ("port", "port")),  # over her port bow: the opposite way
        ("NE", "0911", "NE", "NE", ("starboard", "port")),  # over the stern of a ship heading north-east
    ])
    def test_the_hexside_she_comes_in_by_sets_her_facing_and_the_sides_alongside(
            self, facing, start, heading, faces, sides):
        """Seed, Movement 6: through one of the three rear hexsides she conforms the same way, through a
        front one the opposite way; the sides that touch follow from where she came in (Decision)."""
        wind = HexDir[heading].opposite().number  # the wind astern of her: she has way on
        state = battle(ship("Essex", "blue", 44, start, heading, 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1010", facing, 0, **FRIGATE), wind=(wind, "moderate"))
        to_movement(state, Essex=4, Guerriere=0)
        state.apply(Move("Essex"), 0)
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert essex.afoul == "Guerriere" and essex.facing == HexDir[faces]
        assert (guerriere.afoul_side, essex.afoul_side) == sides

    def test_a_hex_with_two_ships_alongside_takes_no_third(self):
        state = battle(ship("Essex", "blue", 44, "1011", "N", 4, **FRIGATE),
                       ship("Hornet", "blue", 20, "1111", "NW", 4),
                       ship("Guerriere", "red", 38, "1010", "N", 0, **FRIGATE), wind=(4, "moderate"))
        to_movement(state, Essex=4, Hornet=4, Guerriere=0)
        state.apply(Move("Essex"), 0)
        hold_windows(state)
        assert Move("Hornet") not in state.legal_actions(0)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Move("Hornet"), 0)
        assert refused.value.rule == "stacking" and "already holds two ships" in str(refused.value)
        assert state.grid.name(state.ships["Hornet"].hex) == "1111"


def melee_declared(guerriere_crew_hits: int = 0, **kw):
    """Essex alongside Guerriere at the segment's end round, melee declared: the dice are due."""
    state = astern(**kw)
    to_movement(state, Essex=4, Guerriere=0)
    state.ships["Guerriere"].crew = guerriere_crew_hits
    state.apply(Move("Essex"), 0)
    while state.windows[0] != "Essex" or not state.end_round:
        state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
    state.apply(Melee("Essex"), 0)
    return state


class TestMelee:
    def test_crew_points_are_a_tenth_of_the_rating_less_a_third_for_each_crew_hit(self):
        """Reconstructed melee: round(rating / 10) x (3 - crew hits) / 3, to the nearest, half to even:
        Essex (44 guns) 4, then 3, 1 and 0 as her crew hits mount."""
        state = astern()
        essex = state.ships["Essex"]
        points = []
        for hits in range(4):
            essex.crew = hits
            points.append(prizes.melee_points(state, essex))
        assert points == [4, 3, 1, 0]

    @pytest.mark.parametrize(("dice", "hit"), [((2, 2), {"Essex", "Guerriere"}), ((1, 6), {"Essex"}),
                                                ((6, 1), {"Guerriere"})])
    def test_the_lower_total_takes_a_crew_hit_and_both_on_a_tie(self, dice, hit):
        """1d6 + crew points each (Essex 4, Guerriere round(3.8) = 4): the lower takes a crew hit."""
        state = melee_declared()
        state.apply(Roll(dice))
        assert {name for name, kind, _ in state.pending if kind == "crew"} == hit

    def test_a_crack_crew_adds_one_and_the_dice_are_shown_with_both_totals(self):
        """Reconstructed melee: 1d6 + crew points + 1 for a Crack force; the lower total takes a crew hit."""
        state = melee_declared(efficiency="crack")
        events = state.apply(Roll((3, 2)))
        assert Meleed("Essex", "Guerriere", 8, 7) in events  # 3 + 4 + 1 against 2 + 4 + 1
        (rolled,) = [e.describe() for e in events if isinstance(e, DieRolled)]
        assert rolled == ("rolled 3 and 2 for the melee of Essex: Essex 3 + 5 = 8 against Guerriere 2 + 5 = 7: "
                          "Guerriere takes a crew hit")

    def test_a_tie_is_shown_as_both_taking_a_crew_hit(self):
        state = melee_declared()
        (rolled,) = [e.describe() for e in state.apply(Roll((2, 2))) if isinstance(e, DieRolled)]
        assert rolled.endswith("Essex 2 + 4 = 6 against Guerriere 2 + 4 = 6: Essex and Guerriere take a crew hit")

    def test_a_pair_melees_once_a_segment(self):
        """Reconstructed boarding: at a segment's end an owner may melee with the ship she is afoul of;
        once Essex has boarded, neither ship may board again that segment, though both may still fire."""
        state = melee_declared()
        state.apply(Roll((2, 2)))
        for name, seat in (("Essex", 0), ("Guerriere", 1)):
            assert state.end_round and state.windows[0] == name
            actions = state.legal_actions(seat)
            assert Melee(name) not in actions and any(isinstance(a, Fire) for a in actions)
            state.apply(Hold(name), seat)

    def test_the_pair_that_meleed_is_recorded_in_name_order(self):
        state = melee_declared()
        assert state.to_json()["melees"] == [["Essex", "Guerriere"]]


class TestCuttingLoose:
    def afoul(self, essex_masts=0):
        state = astern()
        to_movement(state, Essex=4, Guerriere=0)
        state.apply(Move("Essex"), 0)
        state.ships["Essex"].masts = essex_masts
        quiet_turn(state)
        return state

    def test_a_die_of_one_to_three_frees_the_pair(self):
        state = self.afoul()
        state.apply(Declare("Guerriere", 0), 1)  # red declares first on even turns
        assert Cut("Essex", 2) in state.legal_actions(0)
        state.apply(Cut("Essex", 2), 0)
        assert CutLoose("Essex", "Guerriere", True) in state.apply(Roll((3,)))
        essex, guerriere = state.ships["Essex"], state.ships["Guerriere"]
        assert not essex.afoul and essex.ma == 2 and essex.must_leave
        assert guerriere.ma == 0 and not guerriere.must_leave  # she did not ask: she lies where she is

    def test_a_four_keeps_them_fast(self):
        state = self.afoul()
        state.apply(Declare("Guerriere", 0), 1)
        state.apply(Cut("Essex", 2), 0)
        assert CutLoose("Essex", "Guerriere", False) in state.apply(Roll((4,)))
        assert state.ships["Essex"].afoul == "Guerriere" and state.ships["Essex"].ma == 0

    def test_both_owners_asking_frees_them_at_once(self):
        state = self.afoul()
        state.apply(Cut("Guerriere", 1), 1)
        events = state.apply(Cut("Essex", 1), 0)
        assert CutLoose("Essex", "Guerriere", True) in events
        assert not state.ships["Essex"].afoul and not state.ships["Guerriere"].afoul
        assert not any(purpose == "cut" for purpose, _, _ in state.rolls)  # no die needed

    def test_every_pair_that_asks_rolls_whatever_lies_before_it(self):
        state = battle(ship("Wasp", "blue", 20, "2020", "N", 0), ship("Hornet", "blue", 20, "1510", "N", 4),
                       ship("Sloop", "red", 20, "1509", "N", 0), ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Wasp=0, Hornet=4, Sloop=0, Essex=4, Guerriere=0)
        state.apply(Move("Hornet"), 0)
        hold_windows(state)
        state.apply(Move("Essex"), 0)
        quiet_turn(state)
        for name in ("Sloop", "Guerriere"):
            state.apply(Declare(name, 0), 1)
        state.apply(Declare("Wasp", 0), 0)
        state.apply(Declare("Hornet", 0), 0)  # this pair stays fast
        state.apply(Cut("Essex", 2), 0)
        assert state.rolls[:1] == [("cut", "Essex", 1)]

    def test_a_ship_cuts_loose_under_way_never_at_rest(self):
        # freed at MA 0 she could not leave the hex, and two ships no longer afoul would share it
        state = self.afoul()
        state.apply(Declare("Guerriere", 0), 1)
        assert Cut("Essex", 0) not in state.legal_actions(0)
        with pytest.raises(IllegalAction) as refused:
            state.apply(Cut("Essex", 0), 0)
        assert refused.value.rule == "cutting-loose" and "under way" in str(refused.value)
        assert not state.ships["Essex"].declared

    def test_a_ship_striking_alongside_stays_alongside_her_captor(self):
        """Seed, Movement 6 d: the captor MAY break away from a captured ship; the prize does not cut loose."""
        state = self.afoul()
        guerriere = state.ships["Guerriere"]
        guerriere.hull = 1
        state.apply(Strike("Guerriere"), 1)
        state.apply(Declare("Guerriere", 0), 1)
        state.apply(Declare("Essex", 0), 0)
        assert guerriere.owner == 0 and guerriere.afoul == "Essex" and state.ships["Essex"].afoul == "Guerriere"

    def test_in_a_calm_she_cuts_loose_at_one(self):
        """Decision (ours): from rest, with the wind on her side-front as she pays off: a frigate's calm
        side-front maximum is 1."""
        state = self.afoul()
        state.velocity = "calm"
        state.apply(Declare("Guerriere", 0), 1)
        assert [a for a in state.legal_actions(0) if isinstance(a, Cut)] == [Cut("Essex", 1)]
        state.apply(Cut("Essex", 1), 0)
        state.apply(Roll((2,)))
        assert state.ships["Essex"].must_leave  # under way at 1: her point takes her out of the hex

    def test_a_dismasted_ship_cannot_get_under_way_to_cut_loose(self):
        state = self.afoul()
        state.ships["Essex"].masts = 3
        state.apply(Declare("Guerriere", 0), 1)
        assert not any(isinstance(a, Cut) for a in state.legal_actions(0))
        with pytest.raises(IllegalAction) as refused:
            state.apply(Cut("Essex", 1), 0)
        assert refused.value.rule == "cutting-loose" and "cannot get under way" in str(refused.value)

    def test_a_ship_that_cannot_cut_loose_asks_for_nothing(self):
        """Cutting loose (reconstructed): a die only for a ship that asks; dismasted Essex has MA 0 as her
        one declaration, made for her, and that is no request: no die, the pair stays alongside."""
        state = self.afoul(essex_masts=3)
        assert state.ships["Essex"].declared and state.ships["Essex"].ma == 0
        events = state.apply(Declare("Guerriere", 0), 1)
        assert not any(isinstance(e, CutLoose) for e in events)
        assert not any(purpose == "cut" for purpose, _, _ in state.rolls)
        assert state.ships["Essex"].afoul == "Guerriere" and state.ships["Guerriere"].afoul == "Essex"

    def test_a_freed_ship_first_leaves_the_hex(self):
        state = self.afoul()
        state.apply(Declare("Guerriere", 0), 1)
        state.apply(Cut("Essex", 2), 0)
        state.apply(Roll((1,)))
        while state.current_player() == CHANCE:
            state.apply(Roll((6, 1)) if state.rolls[0][2] == 2 else Roll((6,)))
        state.apply(Order((0, 0, 0, 0)), 0)
        hold_windows(state)
        while state.ships["Essex"].left == 0:
            hold_windows(state)
        assert state.legal_actions(0) == [Move("Essex")]


class TestPrizes:
    def merchant(self, captor_rating=20):
        return battle(ship("Vengeur", "blue", captor_rating, "1010", "N", 4),
                      ship("Mary", "red", 14, "1009", "N", 0, **{"class": "merchantman"}), wind=(3, "moderate"))

    def test_entering_a_merchantmans_hex_at_one_to_one_takes_her(self):
        state = self.merchant()
        to_movement(state, Vengeur=4, Mary=0)
        state.apply(Move("Vengeur"), 0)
        mary = state.ships["Mary"]
        assert mary.owner == 0 and mary.prize and not mary.afoul and not state.ships["Vengeur"].afoul

    def test_a_prize_taken_this_turn_sails_only_from_the_next(self):
        state = battle(ship("Vengeur", "blue", 20, "1010", "N", 4),
                       ship("Mary", "red", 14, "1009", "N", 0, **{"class": "merchantman"}),
                       ship("Java", "red", 38, "3020", "N", 0), wind=(3, "moderate"))
        to_movement(state, Vengeur=4, Mary=2, Java=0)
        state.apply(Move("Vengeur"), 0)  # takes Mary in segment 1
        quiet_turn(state)  # segments 2-4: Vengeur sails on, Mary lies where she was taken
        mary = state.ships["Mary"]
        assert mary.owner == 0 and state.grid.name(mary.hex) == "1009" and mary.facing == HexDir.N
        mary.hull = 1
        assert Strike("Mary") not in state.declarations(0)  # her prize crew cannot strike her colours
        assert state.grid.name(state.ships["Vengeur"].hex) != "1009"

    def test_a_crippled_ship_cannot_take_a_merchantman(self):
        """Seed, Prizes 1-2: capture needs an attack at 1-1 or better, and a crippled ship fires no
        broadside (only a recapture needs no odds)."""
        state = self.merchant(captor_rating=44)
        state.ships["Vengeur"].crew = 3
        to_movement(state, Vengeur=4, Mary=0)
        state.apply(Move("Vengeur"), 0)
        assert state.ships["Mary"].owner == 1 and state.ships["Vengeur"].afoul == "Mary"

    def test_the_capture_reads_the_broadside_alongside(self):
        """Reconstructed: the capture test is the full broadside at no range (alongside): with a
        player's tables that cut every gun to a quarter from 1 hex on, the 20-gun ship still takes her."""
        data = standard_tables_data()
        data["combat"]["range_factors"] = [[0, 0, 1, 1], [1, 10, 1, 4]]
        state = battle(ship("Vengeur", "blue", 20, "1010", "N", 4),
                       ship("Mary", "red", 14, "1009", "N", 0, **{"class": "merchantman"}), wind=(3, "moderate"),
                       tables=data)
        to_movement(state, Vengeur=4, Mary=0)
        state.apply(Move("Vengeur"), 0)
        assert state.ships["Mary"].owner == 0

    def test_below_one_to_one_she_only_runs_afoul(self):
        state = self.merchant(captor_rating=1)  # GS 1 against the merchantman's DS 2
        to_movement(state, Vengeur=4, Mary=0)
        state.apply(Move("Vengeur"), 0)
        assert state.ships["Mary"].owner == 1 and state.ships["Vengeur"].afoul == "Mary"

    def test_even_a_crippled_ship_recaptures(self):
        state = battle(ship("Constitution", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Mary", "blue", 14, "1009", "N", 0, **{"class": "merchantman"}),
                       ship("Java", "red", 38, "2020", "N", 0), wind=(3, "moderate"))
        mary = state.ships["Mary"]
        mary.owner, mary.captured_turn = 1, 0  # a prize of red's
        state.ships["Constitution"].crew = 3
        to_movement(state, Constitution=4, Java=0, Mary=0)
        state.apply(Move("Constitution"), 0)
        assert mary.owner == 0 and not mary.prize

    def alongside_own_prize(self, *more, **mas):
        """Java (red) run alongside Mary, a prize red holds, at the next Declaration (with `more` ships
        declaring `mas`)."""
        state = battle(ship("Java", "red", 38, "1010", "N", 4),
                       ship("Mary", "blue", 14, "1009", "N", 0, **{"class": "merchantman"}),
                       ship("Essex", "blue", 44, "2020", "N", 0, **FRIGATE), *more, wind=(3, "moderate"))
        state.ships["Mary"].owner = 1  # Java's side holds her
        state.ships["Java"].last_ma = 4
        to_movement(state, (1, 1, 1, 1), Essex=0, Java=4, Mary=0, **mas)
        state.apply(Move("Java"), 1)  # alongside her own prize, deliberately
        assert state.ships["Java"].afoul == "Mary"
        quiet_turn(state)
        return state

    def test_a_prize_is_destroyed_after_four_turns_afoul(self):
        state = self.alongside_own_prize()
        mary = state.ships["Mary"]
        state.apply(Destroy("Mary"), 1)
        for _ in range(3):
            assert mary.afloat
            quiet_turn(state)
        declare(state, Java=0, Mary=0, Essex=2)  # in the fourth turn Essex, listed after Mary, gathers way
        quiet_turn(state)
        assert mary.status == "sunk" and state.ships["Java"].afoul == ""  # Java lies free of the wreck
        # The game-turn ends as usual for the ships after her (momentum: Essex's 2), and the saved
        # state shows the wreck with no points to spend.
        assert state.ships["Essex"].last_ma == 2
        saved = next(entry for entry in state.to_json()["ships"] if entry["name"] == "Mary")
        assert (saved["status"], saved["left"]) == ("sunk", 0)

    def test_blue_destroys_a_prize_of_hers_too(self):
        """Seed, Prizes 3: the intention is announced once (at a Declaration); asked again later in
        that game-turn, the refusal names the announcement."""
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Java", "red", 38, "1009", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "2020", "N", 0, **FRIGATE), ship("Wasp", "blue", 20, "0520", "N"),
                       wind=(3, "moderate"))
        state.ships["Java"].owner = 0  # a prize blue holds
        to_movement(state, Essex=4, Java=0, Guerriere=0, Wasp=0)
        state.apply(Move("Essex"), 0)  # alongside her, deliberately
        quiet_turn(state)
        state.apply(Declare("Guerriere", 0), 1)  # red declares first on even turns
        state.apply(Destroy("Java"), 0)
        to_movement(state, Essex=0, Java=0, Wasp=2)
        assert state.segment == 2 and state.mover == 0  # Wasp's first point
        with pytest.raises(IllegalAction) as refused:
            state.apply(Destroy("Java"), 0)
        assert refused.value.rule == "destroying-prizes" and "already announced" in str(refused.value)
        quiet_turn(state)
        assert state.to_json()["ships"][1]["destroying"] == 1

    def test_cutting_loose_from_the_prize_ends_her_destruction(self):
        """Seed, Prizes 3: four CONSECUTIVE game-turns afoul; parting from her stops the count."""
        state = self.alongside_own_prize()
        state.apply(Destroy("Mary"), 1)
        quiet_turn(state)
        assert state.to_json()["ships"][1]["destroying"] == 1  # one game-turn afoul since the announcement
        state.apply(Declare("Essex", 0), 0)
        state.apply(Cut("Java", 1), 1)  # from her own prize: freed without a die
        state.apply(Declare("Mary", 0), 1)
        mary = state.to_json()["ships"][1]
        assert mary["afoul"] == "" and mary["destroying"] == -1

    def test_when_the_ship_alongside_strikes_the_destruction_is_called_off(self):
        """Seed, Prizes 3: her captors destroy her after four consecutive game-turns alongside; when
        Java strikes, no ship of red's lies alongside: the record shows no destruction under way."""
        state = self.alongside_own_prize(ship("Guerriere", "red", 38, "0520", "N", 0, **FRIGATE), Guerriere=0)
        state.apply(Destroy("Mary"), 1)
        quiet_turn(state)
        assert state.to_json()["ships"][1]["destroying"] == 1
        declare(state, Essex=0)  # blue declares first on odd turns
        state.ships["Java"].hull = 1
        state.apply(Strike("Java"), 1)
        declare(state, Java=0, Mary=0, Guerriere=0)
        assert state.ships["Java"].owner == 0 and state.ships["Mary"].afoul == "Java"
        quiet_turn(state)
        mary = state.to_json()["ships"][1]
        assert mary["status"] == "active" and mary["destroying"] == -1

    def test_a_prize_sails_at_half_her_maximum(self):
        """Decision: a prize crew sails her at half the schedule's maximum (rounded down)."""
        state = self.merchant()
        mary = state.ships["Mary"]
        whole = mary.max_ma(state.tables, state.velocity, state.wind_from)
        mary.owner = 0
        assert state.to_json()["ships"][1]["max_ma"] == whole // 2 == 3

    def test_striking_hands_her_to_the_enemy(self):
        state = astern()
        state.ships["Guerriere"].hull = 1
        with pytest.raises(IllegalAction):
            state.apply(Strike("Essex"), 0)  # untouched: Decision (ours), no one strikes her
        state.apply(Declare("Essex", 4), 0)
        state.apply(Strike("Guerriere"), 1)
        state.apply(Declare("Guerriere", 0), 1)  # red has nothing more to decide: the phase ends
        assert state.is_terminal() and state.ships["Guerriere"].owner == 0
        assert state.outcome.result == "blue" and state.outcome.returns == (1.0, -1.0)

    def test_when_blue_strikes_her_last_ship_red_wins(self):
        state = astern()
        state.ships["Essex"].hull = 1
        state.apply(Strike("Essex"), 0)
        state.apply(Declare("Essex", 4), 0)
        state.apply(Declare("Guerriere", 0), 1)
        assert state.outcome.result == "red" and state.outcome.returns == (-1.0, 1.0)
        assert state.outcome.reason.startswith("blue has no ship left in the fight: Essex taken;")
        assert state.ships["Essex"].ma == 0  # the allowance she declared went down with her colours


class TestVictoryPoints:
    """Reconstructed victory: each side scores the preservation points it inflicted (1 per hit, plus the
    remaining hull boxes of a ship sunk, struck or captured), + round(rating / 10) per enemy sunk,
    + round(rating / 5) per prize held, + the scenario's objectives."""

    def test_every_hit_is_a_preservation_point_for_the_enemy(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Java", "red", 38, "2010", "N", 0))
        essex = state.ships["Essex"]
        essex.hull, essex.crew, essex.guns, essex.masts = 1, 2, 3, 1
        seen = state.to_json()
        assert [force["lost"] for force in seen["forces"]] == [7, 0]
        assert seen["score"] == [0, 7]

    def test_ships_sunk_and_prizes_held(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Java", "red", 38, "2010", "N", 0, **FRIGATE),
                       ship("Guerriere", "red", 38, "2020", "N", 0, **FRIGATE))
        java, guerriere = state.ships["Java"], state.ships["Guerriere"]
        java.owner, java.hull, java.crew = 0, 1, 1  # struck to Essex: 2 hits and 5 of her 6 hull boxes left
        guerriere.status, guerriere.hull = "sunk", 6  # every hull box gone
        seen = state.to_json()
        assert [force["lost"] for force in seen["forces"]] == [0, 2 + 5 + 6]
        assert seen["score"] == [13 + 8 + 4, 0]  # + round(38 / 5) for the prize, + round(38 / 10) for the wreck

    def test_a_ship_of_blue_sunk_scores_for_red(self):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), ship("Java", "red", 38, "2010", "N", 0))
        state.ships["Essex"].status, state.ships["Essex"].hull = "sunk", 2
        assert state.to_json()["score"] == [0, 2 + 4 + 4]  # 2 hits, 4 hull boxes left, round(44 / 10)

    def test_a_fleet_out_of_the_fight_is_counted_by_fate_and_a_small_force_named_ship_by_ship(self):
        ships = [ship(name, "red", 38, f"{20 + i}10", "N", 0) for i, name in enumerate(("Java", "Macedonian",
                                                                                      "Guerriere", "Levant"))]
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), *ships)
        for name, status in (("Java", "sunk"), ("Macedonian", "sunk"), ("Guerriere", "escaped")):
            state.ships[name].status = status
        state.ships["Levant"].owner = 0  # a prize
        assert turn.check_end(state, [])
        assert state.outcome.reason.startswith("red has no ship left in the fight: 1 escaped, 2 sunk, 1 taken;")
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE), *ships[:3])
        state.ships["Java"].status, state.ships["Guerriere"].status = "sunk", "escaped"
        state.ships["Macedonian"].owner = 0
        assert turn.check_end(state, [])
        assert state.outcome.reason.startswith(
            "red has no ship left in the fight: Java sunk, Macedonian taken, Guerriere escaped;")

    def test_the_scenarios_objectives_for_ships_leaving_the_map(self):
        objectives = [{"side": "blue", "edge": "north", "points": 5},
                      {"side": "blue", "edge": "any", "points": 2, "class": "merchantman"},
                      {"side": "red", "edge": "south", "points": -3}]
        state = battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                       ship("Mary", "blue", 14, "1020", "N", 0, **{"class": "merchantman"}),
                       ship("Sally", "blue", 14, "1220", "N", 0, **{"class": "merchantman"}),
                       ship("Java", "red", 38, "2010", "N", 0),
                       ship("Macedonian", "red", 38, "2210", "N", 0), objectives=objectives)
        for name, edge in (("Essex", "north"), ("Mary", "west"), ("Java", "south"), ("Macedonian", "north")):
            state.ships[name].status, state.ships[name].edge = "escaped", edge
        # Essex off the north edge 5 (not a merchantman); Mary off the west 2; Sally still sailing
        # nothing; Java quitting by the south edge costs red 3; Macedonian off the north edge scores
        # nothing: that objective is blue's.
        assert state.to_json()["score"] == [7, -3]
