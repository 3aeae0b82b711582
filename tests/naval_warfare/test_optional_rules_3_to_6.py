"""Seed 003, optional rules 3 (towing), 4 (oared vessels), 5 (crews) and 6 (surrender and prizes),
where the book says more than the first tests covered: prizes sailed and retaken, the extra move a
boarded ship stays grappled, dishonour when her own side comes up, a broken crew still under the
enemy's guns, men kept at the guns in a boarding fight, the towed ship casting off, and an
abandoned galley rowed for the beach."""

from __future__ import annotations

import pytest

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Captured, DieRolled, Drifted, Escaped, Marked, Moved, Struck, Wrecked
from quarterdeck.games.naval_warfare import fire, prizes, victory
from quarterdeck.games.naval_warfare.actions import END_FIRE, END_MOVE, Choose, Fire, Gunners, Move
from quarterdeck.games.naval_warfare.wind import LIGHT

from .helpers import boarded, distant_enemy, due, passive, play, position, roll, secured, ship, start_move, to_movement


def frigate(name, side, x, y, heading, **data):
    return ship(name, side, x, y, heading, **{"class": "38 frigate", **data})


def carried(prize_rules=True, extra=(), events=None):
    """Revenge (45) boards San Martin (20 left) alongside and carries her in the first round; the
    events of the boarding go into `events` when given."""
    ships = [
        ship("Revenge", "english", 10, 10, 90),
        ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
        *extra,
    ]
    state = to_movement(position(ships, options={"prizes": prize_rules}))
    state.ships["San Martin"].crew = 20
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)  # grappled
    for value in [6] * 9 + [1] * 4:  # round 1: Revenge's 9 dice kill 4 each, San Martin's 4 dice none
        thrown = roll(state, value)
        if events is not None:
            events += thrown
    return state


def struck_chesapeake(shannon_y: float = 10):
    """Chesapeake struck of her own accord at the end of the first move; the second has begun, the
    English (Shannon, 4" astern of her and `shannon_y` across) to move. Essex, far off, fights on."""
    ships = [
        frigate("Shannon", "english", 8, shannon_y, 90),
        frigate("Chesapeake", "spanish", 12, 10.6, 90),
        frigate("Essex", "spanish", 60, 30, 90),
    ]
    state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W"))
    play(state, "move Shannon turn 0 run 1.00 turn 0")
    play(state, "move Chesapeake turn 0 run 1.00 turn 0")
    play(state, "move Essex turn 0 run 1.00 turn 0")
    play(state, "end-move")
    play(state, "surrender Chesapeake")
    play(state, "end-move")
    start_move(state)
    return state


def dishonoured_and_struck_again():
    """Chesapeake, struck of her own accord, dishonours her surrender in the second move and strikes
    again at its end: the English to accept or refuse."""
    state = struck_chesapeake()
    play(state, "move Shannon turn 0 run 1.00 turn 0")
    play(state, "move Chesapeake dishonour")
    play(state, "move Essex turn 0 run 1.00 turn 0")
    while due(state) == ("decide", "fire"):
        play(state, "end-fire")
    play(state, "end-move")
    play(state, "surrender Chesapeake")
    return state


def essex_rakes_the_prize(state):
    """Shannon sails on; Essex turns to lay her port broadside on the prize Chesapeake (offered the shot)
    and rakes her, both dice 5 (four hits). The events of the volley."""
    play(state, "move Shannon turn 0 run 1.00 turn 0", 0)
    play(state, "move Essex turn +90 run 1.00 turn 0", 1)
    assert due(state) == ("decide", "fire") and state.current_player() == 1
    assert state.legal_actions() == [Fire("Essex", "port", "Chesapeake"), END_FIRE]
    play(state, "fire Essex port at Chesapeake", 1)
    return roll(state, 5) + roll(state, 5)


class TestOptionalRule6SurrenderAndPrizes:
    def test_a_struck_ship_must_not_move_but_may_change_her_mind(self):
        """Optional rule 6: "A surrendered ship must not move, fire ..."; one that struck of her own
        accord and is not yet secured "may change its mind"."""
        state = struck_chesapeake()
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        offered = [a for a in state.legal_actions() if a.ship == "Chesapeake"]
        assert offered == [Move("Chesapeake", extra="hold"), Move("Chesapeake", extra="dishonour")]
        with pytest.raises(IllegalAction) as error:
            play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        assert error.value.message == "Chesapeake has surrendered: she must not move or fire"
        held = state.clone()
        play(held, "move Chesapeake hold")
        with pytest.raises(IllegalAction) as error:  # that was her move: she makes no other until the next
            play(held, "move Chesapeake dishonour")
        assert (error.value.rule, error.value.message) == ("rule 3", "Chesapeake has already moved this move")
        events = play(state, "move Chesapeake dishonour")
        assert state.ships["Chesapeake"].status == "afloat" and state.ships["Chesapeake"].dishonoured
        assert Marked("Chesapeake", "dishonours her surrender", "optional rule 6") in events
        assert state.to_json()["ships"][1]["captor"] == -1

    def test_a_ship_that_dishonoured_her_surrender_strikes_again_only_if_the_enemy_accepts(self):
        """Optional rule 6: the opponent "is not obliged to accept any future surrender by that ship"."""
        state = dishonoured_and_struck_again()
        assert due(state) == ("decide", "accept") and state.current_player() == 0
        idle = state.idle_reason("shannon", 0)  # the choice is made for Chesapeake, not by a ship of hers
        assert idle.rule == "optional rule 6"
        assert idle.message == "Shannon has no choice in english's accepting a surrender"
        play(state, "refuse Chesapeake")
        assert state.ships["Chesapeake"].status == "afloat"

    def test_a_ship_that_dishonoured_and_struck_again_may_be_secured_next_move(self):
        """Optional rule 6: the British accept Chesapeake's second surrender; nothing of her first is
        left on her, and next move Shannon, come alongside, secures her as a prize."""
        state = dishonoured_and_struck_again()
        play(state, "accept Chesapeake")
        play(state, "end-move")
        start_move(state)
        chesapeake, shannon = state.ships["Chesapeake"], state.ships["Shannon"]
        run = (chesapeake.x - shannon.x) / 100 - 1.5  # to lie close astern of her
        play(state, f"move Shannon turn 0 run {run:.2f} turn 0 secure Chesapeake")
        assert chesapeake.status == "prize" and chesapeake.captor == 0

    def test_a_grappled_ship_that_struck_of_her_own_accord_fights_no_boarding_on_when_she_dishonours(self):
        """Optional rule 6: only a ship carried by boarders, held, attacks her boarder when she rises
        (dishonour 1). Revenge, repelled from San Martin with the grapples kept, strikes of her own
        accord at the move's end; when she changes her mind next move she is under her colours again,
        still grappled, and no boarding fight is due."""
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
            ship("Hope", "english", 40, 30, 90, type="Hope"),
        ]
        state = to_movement(position(ships, options={"prizes": True}))
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)  # grappled
        while due(state) == ("roll", "boarding"):
            roll(state, 1)  # nobody falls
        play(state, "fight-on Revenge")
        roll(state, 4)  # 4 - 2 (45 men against 100): the boarders are repelled
        play(state, "keep-grapples San Martin")
        play(state, "move Hope turn 0 run 1.00 turn 0")
        play(state, "move San Martin hold")
        while due(state) == ("decide", "fire"):
            play(state, "end-fire")
        play(state, "surrender Revenge")
        while due(state) == ("decide", "end"):
            play(state, "end-move")
        start_move(state)
        play(state, "move Revenge dishonour")
        revenge = state.ships["Revenge"]
        assert (revenge.status, revenge.grappled, state.continuing) == ("afloat", "San Martin", [])

    @pytest.mark.parametrize(
        ("target", "options", "message"),
        [
            ("Essex", {"prizes": True}, "Essex is not an enemy that has surrendered"),
            ("Chesapeake", {}, "surrender and prizes is not in use in this battle"),
        ],
    )
    def test_only_a_struck_enemy_is_secured_and_only_with_the_prizes_rule(self, target, options, message):
        ships = [
            frigate("Shannon", "english", 8, 10, 90),
            frigate("Chesapeake", "spanish", 12, 10.6, 90),
            frigate("Essex", "spanish", 12, 9.4, 90),
        ]
        state = to_movement(position(ships, period="nelson", options=options, wind="W"))
        state.ships["Chesapeake"].status = "surrendered"
        with pytest.raises(IllegalAction) as error:
            play(state, f"move Shannon turn 0 run 4.00 turn 0 secure {target}")
        assert error.value.rule == "optional rule 6" and error.value.message == message

    def test_any_ship_may_offer_surrender_at_the_end_of_a_move(self):
        # "A ship may surrender at the end of any move": the book sets no condition on her state
        ships = [frigate("Shannon", "english", 10, 10, 90), frigate("Chesapeake", "spanish", 40, 30, 90)]
        state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W"))
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        with pytest.raises(IllegalAction):
            play(state, "surrender Chesapeake")  # not during movement: at the end of the move
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        play(state, "end-move")
        # her own ships only, after ending the move: a player who answers `1` to the list ends it
        assert state.legal_actions() == [END_MOVE, Choose("surrender", "Chesapeake")]
        events = play(state, "surrender Chesapeake")  # undamaged, full crew
        assert events[0] == Struck("Chesapeake", state.where(state.ships["Chesapeake"].point))
        assert state.ships["Chesapeake"].status == "surrendered"
        assert victory.scores(state) == (50, 0)

    @pytest.mark.parametrize(
        ("shannon_y", "lost", "prize_crew"), [(10, 25, 30), (9, 20, 20), (9, 25, None), (8, 0, None)]
    )
    def test_a_surrender_is_secured_alongside_or_by_boats(self, shannon_y, lost, prize_crew):
        """Optional rule 6: "a prize is secured by an opposing ship running alongside, or, if within two
        drift units and less than 1/2 damaged, by sending boats over. Up to 1/5th of a ship's surviving
        crew can be sent in boats"; the prize crew is a fifth of the 100 captives plus the sailing
        minimum, 10 (rulings). Shannon runs alongside Chesapeake, or to 1.6" off her (boats: with 20 of
        her 50 flotation lost, not when half damaged), or to 2.6" off her (too far). Essex, far off,
        keeps the Americans in the fight. The boats go from where her run ends."""
        state = struck_chesapeake(shannon_y)
        shannon, chesapeake = state.ships["Shannon"], state.ships["Chesapeake"]
        shannon.flotation -= lost
        secure = "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake"
        if prize_crew is None:
            with pytest.raises(IllegalAction) as error:
                play(state, secure)
            assert error.value.rule == "optional rule 6" and "by boats within two drift moves" in error.value.message
            return
        events = play(state, secure)
        assert chesapeake.status == "prize" and chesapeake.prisoners == 100
        assert (chesapeake.crew, shannon.crew) == (prize_crew, 100 - prize_crew)
        assert Captured("Chesapeake", state.where(chesapeake.point), "Shannon") in events
        assert due(state) != ("roll", "escape")  # a fifth of the captives or more guard them

    @pytest.mark.parametrize(("value", "status"), [(4, "afloat"), (3, "prize")])
    def test_captives_guarded_by_fewer_than_a_fifth_of_them_try_once_to_escape(self, value, status):
        """Optional rule 6, dishonour 2: "If the prize crew is less than 1/5 of the captive crew the
        captives may attempt to escape by throwing a single die. If they throw a 4-6 they escape, and the
        prize crew become captives": Shannon, down to 60 men, sends 12 in her boats for 100 captives."""
        state = struck_chesapeake(9)
        state.ships["Shannon"].crew = 60
        play(state, "move Shannon turn 0 run 4.00 turn 0 secure Chesapeake")
        assert due(state) == ("roll", "escape")
        events = roll(state, value)
        assert events[0] == DieRolled("the captives of Chesapeake try to escape (optional rule 6)", value)
        chesapeake = state.ships["Chesapeake"]
        assert chesapeake.status == status and chesapeake.escape_tried
        if value >= 4:
            assert (chesapeake.crew, chesapeake.prisoners, chesapeake.dishonoured) == (100, 12, True)
            assert Marked("Chesapeake", "is retaken by her captives", "optional rule 6") in events

    def test_a_secured_prize_stays_on_the_table_and_her_captor_sails_her(self):
        state = secured(prize_crew=40)  # 100 captives: a fifth (20) plus the sailing minimum (10) can sail her
        assert state.ships["Chesapeake"].controller == 0
        assert victory.scores(state) == (50, 0)
        assert any(isinstance(a, Move) and a.ship == "Chesapeake" for a in state.legal_actions(0))
        play(state, "move Chesapeake turn 0 run 4.00 turn 0", 0)
        assert state.ships["Chesapeake"].x == 1650
        with pytest.raises(IllegalAction):
            play(state, "move Chesapeake turn 0 run 4.00 turn 0", 1)  # not her own side's any more

    def test_a_prize_cannot_be_fought_and_a_small_prize_crew_cannot_sail_her(self):
        state = secured(prize_crew=40)
        with pytest.raises(IllegalAction) as error:
            play(state, "move Chesapeake turn 0 run 1.00 turn 0 heave-to", 0)
        assert error.value.rule == "optional rule 6"
        assert not any(isinstance(a, Fire) and a.ship == "Chesapeake" for a in state.legal_actions())
        state = secured(prize_crew=20)  # 20 men for 100 captives: fewer than 20 + 10
        with pytest.raises(IllegalAction) as error:
            play(state, "move Chesapeake turn 0 run 1.00 turn 0", 0)
        assert error.value.rule == "optional rule 6" and "prize crew" in error.value.message

    @pytest.mark.parametrize(("prize_crew", "sails"), [(30, True), (29, False)])
    def test_a_prize_crew_of_a_fifth_of_the_captives_plus_the_sailing_minimum_sails_her(self, prize_crew, sails):
        """Optional rule 6: "if the prize crew is equal to 1/5 of the prisoners plus 1/100 of the original
        crew it can be sailed": 20 for 100 captives, plus 10 for a ship of 1,000 tons."""
        state = secured(prize_crew=prize_crew, captives=100)
        assert any(isinstance(a, Move) and a.ship == "Chesapeake" for a in state.legal_actions(0)) == sails

    def test_her_own_side_may_fire_on_a_prize_and_kill_her_prize_crew_to_free_her(self):
        """Optional rule 6: "a ship with captives may be fired on": Essex, of Chesapeake's own side, turns
        to lay her port broadside on the prize Shannon's one man holds and is offered the shot. Her four
        hits (raking) fall on him and the 100 captives alike; with the prize crew gone the captives have
        her again, not dishonoured (they broke no surrender)."""
        state = secured(prize_crew=1, captives=100)
        events = essex_rakes_the_prize(state)
        assert Marked("Chesapeake", "is retaken by her captives: her prize crew is gone", "optional rule 6") in events
        chesapeake = state.ships["Chesapeake"]
        assert (chesapeake.status, chesapeake.crew, chesapeake.prisoners, chesapeake.captor) == ("afloat", 98, 0, -1)
        assert not chesapeake.dishonoured

    def test_fire_that_kills_her_prize_crew_and_every_captive_leaves_her_abandoned(self):
        """Optional rule 6 ("casualties are divided equally" between crew and prisoners) and rule 9 (no
        crew left, the ship is lost): Essex's four hits kill Chesapeake's two-man prize crew and her two
        captives; nobody is left to retake her, and she is abandoned."""
        state = secured(prize_crew=2, captives=2)
        events = essex_rakes_the_prize(state)
        chesapeake = state.ships["Chesapeake"]
        assert (chesapeake.status, chesapeake.crew, chesapeake.prisoners) == ("abandoned", 0, 0)
        assert not any(isinstance(event, Marked) and "retaken" in event.marker for event in events)

    def test_her_own_side_may_board_and_retake_a_prize(self):
        state = secured(prize_crew=12, captives=60)  # too few to sail her: she lies where she is
        chesapeake = state.ships["Chesapeake"]
        play(state, "move Shannon turn 0 run 1.00 turn 0", 0)
        assert state.current_player() == 1  # the English have nothing else to move
        board = Move("Essex", 0, 150, 0, "board", "Chesapeake")  # Essex runs on until alongside her
        assert board in state.legal_actions(1)
        state.apply(board, 1)
        roll(state, 5)  # grappled
        for value in [6] * 20 + [1] * 2:  # Essex's 20 dice kill 4 each; the prize crew's 2 dice none
            roll(state, value)
        assert chesapeake.status == "afloat" and chesapeake.crew == 60 and chesapeake.captor == -1
        assert victory.scores(state)[0] == 0  # she no longer counts as taken

    def test_a_prize_whose_captives_were_all_killed_is_retaken_empty_and_abandoned(self):
        """Optional rule 6 and rule 9: fire killed every captive aboard the prize; Essex, of her own side,
        boards her and kills the prize crew of 9, but nobody of hers is left to sail her: she is abandoned,
        and the English still score her as taken."""
        state = secured(prize_crew=9, captives=0)  # too few to sail her (her sailing minimum is 10)
        taken = victory.scores(state)[0]
        play(state, "move Shannon turn 0 run 1.00 turn 0", 0)
        state.apply(Move("Essex", 0, 150, 0, "board", "Chesapeake"), 1)
        roll(state, 5)  # grappled
        events = []
        while due(state) == ("roll", "boarding"):
            events += roll(state, 6)
        chesapeake = state.ships["Chesapeake"]
        assert Marked("Chesapeake", "is retaken by Essex", "optional rule 6") in events
        assert (chesapeake.status, chesapeake.crew) == ("abandoned", 0)
        assert not chesapeake.fighting and victory.scores(state)[0] == taken > 0

    @staticmethod
    def essex_grapples_the_prize(essex_crew: int | None = None, prize_crew: int = 12, options=None, events=None):
        """Chesapeake lies a prize under `prize_crew` of Shannon's men (12 unless given) with 60 captives;
        Shannon moves, then Essex (with `essex_crew` men when given) runs alongside the prize and grapples
        her (a 5), the grapple's events into `events` when given."""
        state = secured(prize_crew=prize_crew, captives=60, options=options)
        if essex_crew is not None:
            state.ships["Essex"].crew = essex_crew
        play(state, "move Shannon turn 0 run 1.00 turn 0", 0)
        state.apply(Move("Essex", 0, 150, 0, "board", "Chesapeake"), 1)
        thrown = roll(state, 5)
        if events is not None:
            events += thrown
        return state

    def test_a_prize_with_no_prize_crew_aboard_is_retaken_as_soon_as_her_own_side_grapples_her(self):
        """Optional rule 6 and rule 12 (rulings: a side with no crew yields at once): Shannon, with no man
        to spare over her sailing minimum, put nobody aboard; Essex grapples the prize and her captives
        have her again at once. With the crews rule nobody is asked to keep men at the guns for a fight
        nobody is there to fight."""
        events = []
        state = self.essex_grapples_the_prize(prize_crew=0, options={"crews": True}, events=events)
        chesapeake = state.ships["Chesapeake"]
        assert Marked("Chesapeake", "is carried by Essex's boarders", "rule 12") in events
        assert (chesapeake.status, chesapeake.crew, chesapeake.captor) == ("afloat", 60, -1)
        assert due(state) != ("decide", "gunners") and not state.ships["Essex"].grappled

    def test_a_prize_retaken_by_her_own_side_is_free_of_the_grapples_and_of_any_dishonour(self):
        """Optional rule 6: a prize is "retaken by her own side's boarders": her crew have her again,
        the fight is over (no grapples left between Essex and her) and, taken back by force, her crew
        broke no surrender of their own: she is not dishonoured."""
        state = self.essex_grapples_the_prize()
        for value in [6] * 20 + [1] * 2:  # Essex's 20 dice kill the prize crew of 12
            roll(state, value)
        chesapeake, essex = state.ships["Chesapeake"], state.ships["Essex"]
        assert chesapeake.status == "afloat" and not chesapeake.grappled and not essex.grappled
        assert not chesapeake.dishonoured and state.continuing == []

    def test_a_prize_crew_that_repels_her_own_side_may_cut_the_grapples(self):
        """Rule 12 and optional rule 6: Essex (12 men) boards the prize and fights on; the morale 2 goes
        against her, the attacker counting as the smaller side with equal crews: repelled. The prize's
        captor, the English, may then cut the grapples."""
        state = self.essex_grapples_the_prize(essex_crew=12)
        while due(state) == ("roll", "boarding"):
            roll(state, 1)  # nobody killed
        play(state, "fight-on Essex", 1)
        events = roll(state, 2)
        assert Marked("Essex", "is repelled by Chesapeake", "rule 12") in events
        assert due(state) == ("decide", "repel") and state.current_player() == 0
        assert state.legal_actions() == [Choose("cut", "Chesapeake"), Choose("keep-grapples", "Chesapeake")]
        play(state, "cut Chesapeake", 0)
        events = roll(state, 4)
        assert Marked("Chesapeake", "cuts the grapples from Essex", "rule 12") in events
        assert not state.ships["Chesapeake"].grappled and not state.ships["Essex"].grappled
        assert state.ships["Chesapeake"].status == "prize"

    def test_captives_guarded_by_too_few_try_once_to_escape(self):
        state = secured(prize_crew=12, captives=100)
        state.agenda.insert(0, ("roll", "escape", "Chesapeake"))
        roll(state, 4)
        chesapeake = state.ships["Chesapeake"]
        assert chesapeake.status == "afloat" and chesapeake.dishonoured and chesapeake.crew == 100
        assert chesapeake.prisoners == 12 and chesapeake.escape_tried

    def test_carried_by_boarders_she_stays_grappled_an_extra_move_then_is_secured(self):
        events = []
        state = carried(extra=[ship("San Cristobal", "spanish", 60, 30, 90, type="San Cristobal")], events=events)
        martin, revenge = state.ships["San Martin"], state.ships["Revenge"]
        assert martin.status == "surrendered" and martin.grappled == "Revenge" and revenge.grappled == "San Martin"
        assert (
            Marked("San Martin", "is held by Revenge's boarders until the end of the next move", "optional rule 6")
            in events
        )
        assert martin.captor == 0
        assert martin.held_until == state.move_number + 1
        first = state.move_number
        while state.move_number == first or due(state)[1] not in ("move",):
            if state.current_player() == -1:
                roll(state, 2, 2) if due(state)[1] == "wind" else roll(state, 9, 4) if due(state)[
                    1
                ] == "initiative" else roll(state, 3)
            else:
                state.apply(passive(state))
        assert state.legal_actions(0) == [Move("Revenge", extra="hold")]  # she must stay grappled
        with pytest.raises(IllegalAction):
            play(state, "move Revenge cut", 0)
        play(state, "move Revenge hold", 0)
        while martin.status == "surrendered":
            state.apply(state.sample_chance() if state.current_player() == -1 else passive(state))
        assert martin.status == "prize" and not martin.grappled and martin.captor == 0
        # all 20 of her crew fell: no prisoners; Revenge put the sailing minimum (1000 tons: 10) aboard
        assert martin.prisoners == 0 and martin.crew == 10 and revenge.crew == 35

    def test_her_own_side_coming_up_lets_the_boarded_crew_dishonour_and_fight_on(self):
        state = carried(extra=[ship("San Cristobal", "spanish", 9, 10.6, 90, type="San Cristobal")])
        martin = state.ships["San Martin"]
        martin.crew = 5  # carried with men left alive (as a lost morale throw leaves them)
        assert state.current_player() == 1 and {a.ship for a in state.legal_actions()} == {"San Cristobal"}
        with pytest.raises(IllegalAction):
            play(state, "move San Martin dishonour", 1)  # nobody of hers alongside yet
        play(state, "move San Cristobal turn 0 run 1.00 turn 0", 1)  # comes up alongside San Martin
        assert prizes.reinforced(state, martin)
        play(state, "move San Martin dishonour", 1)
        assert martin.status == "afloat" and martin.dishonoured and martin.grappled == "Revenge"
        assert ("San Martin", "Revenge") in state.continuing

    def test_a_ship_carried_with_no_man_left_cannot_dishonour_her_surrender(self):
        """Optional rule 6 and the rulings (a ship with no crew left is lost): every man of San Martin
        fell to Revenge's boarders. San Cristobal comes up alongside, but nobody aboard San Martin is
        left to rise: she is not offered the dishonour, and asking for it is refused."""
        state = carried(extra=[ship("San Cristobal", "spanish", 9, 10.6, 90, type="San Cristobal")])
        martin = state.ships["San Martin"]
        play(state, "move San Cristobal turn 0 run 1.00 turn 0", 1)
        assert martin.crew == 0 and prizes.reinforced(state, martin)
        assert Move("San Martin", extra="dishonour") not in state.legal_actions(1)
        with pytest.raises(IllegalAction) as error:
            play(state, "move San Martin dishonour", 1)
        assert (error.value.rule, error.value.message) == (
            "optional rule 6",
            "San Martin has no crew left to dishonour her surrender",
        )
        assert martin.status == "surrendered" and not martin.dishonoured

    def test_without_prizes_a_carried_ship_leaves_play_as_taken(self):
        state = carried(prize_rules=False)
        assert state.ships["San Martin"].status == "taken" and not state.ships["Revenge"].grappled
        assert state.to_json()["ships"][1]["captor"] == 0  # taken by the English


def boarding_with_crews(revenge_gunners: int, martin_gunners: int = 0, crew: int = 20):
    """Crews rule on: Revenge boards San Martin alongside (both down to `crew` men) and grapples; San
    Cristobal lies 4" off, to come up under Revenge's side. Each keeps the men named at her guns."""
    ships = [
        ship("Revenge", "english", 10, 10, 90),
        ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
        ship("San Cristobal", "spanish", 10, 6, 90, type="San Cristobal"),
    ]
    state = to_movement(position(ships, options={"crews": True}))
    state.ships["Revenge"].crew = state.ships["San Martin"].crew = crew
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)  # grappled
    play(state, f"gunners Revenge {revenge_gunners}")
    play(state, f"gunners San Martin {martin_gunners}")
    return state


def fight_on_and_move(state):
    """Both rounds kill nobody (all ones), the boarders fight on, morale 4 (the fight goes on next
    move); the Spaniards move: San Martin holds, San Cristobal comes up 1" under Revenge's side."""
    for _ in range(state.fight["a"] + state.fight["d"]):
        roll(state, 1)
    for _ in range(state.fight["a"] + state.fight["d"]):
        roll(state, 1)
    play(state, "fight-on Revenge")
    roll(state, 4)
    play(state, "move San Martin hold")
    play(state, "move San Cristobal turn 0 run 1.00 turn 0")
    assert state.phase == "fire-first"


class TestOptionalRule5Crews:
    def test_a_defender_of_one_man_has_none_to_spare_for_her_guns(self):
        # one man must stay in the fight, so only the boarder is asked how many men she keeps at her guns
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["Revenge"].crew, state.ships["San Martin"].crew = 20, 1
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)
        assert due(state) == ("decide", "gunners") and state.current_player() == 0
        assert play(state, "gunners Revenge 2")[0] == Marked("Revenge", "keeps 2 men at her guns", "optional rule 5")
        thrown = []
        while due(state) == ("roll", "boarding") and len(thrown) < 10:
            thrown += [e.purpose for e in roll(state, 1) if e.kind == "die-rolled"]
        # 18 fighting men throw 3 dice, the one defender 1
        assert thrown[:4] == ["Revenge in boarding round 1"] * 3 + ["San Martin in boarding round 1"]

    def test_a_defender_of_two_men_may_keep_one_at_her_guns(self):
        """Optional rule 5: "men may be allocated to repel boarders, and others to operate the guns":
        with two men San Martin may keep one at her guns and fight with the other."""
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["Revenge"].crew, state.ships["San Martin"].crew = 20, 2
        play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
        roll(state, 4)
        play(state, "gunners Revenge 0")
        assert due(state) == ("decide", "gunners") and state.current_player() == 1
        assert state.legal_actions() == [Gunners("San Martin", 0), Gunners("San Martin", 1)]
        play(state, "gunners San Martin 1")
        assert (state.fight["a"], state.fight["d"]) == (4, 1)  # Revenge's 20 throw four dice, the one fighter one

    def test_men_kept_at_the_guns_do_not_fight_the_boarders(self):
        # "if a ship is boarded, men may be allocated to repel boarders, and others to operate the guns.
        # Similarly, the boarding ship may leave men behind to operate its guns": the attacker first
        state = boarded({"crews": True})
        assert due(state) == ("decide", "gunners") and state.current_player() == 0
        # up to a man for each of her ten batteries, always leaving someone to fight
        assert state.legal_actions() == [Gunners("Revenge", men) for men in range(11)]
        with pytest.raises(IllegalAction) as error:
            play(state, "gunners Revenge 11")
        assert error.value.rule == "optional rule 5" and state.ships["Revenge"].gunners == 0
        play(state, "gunners Revenge 5")
        assert due(state) == ("decide", "gunners") and state.current_player() == 1
        play(state, "gunners San Martin 19")
        # one die per five fighting men: Revenge 40 of 45 (8 dice), San Martin 81 of 100 (16 dice)
        assert (state.fight["a"], state.fight["d"]) == (8, 16)
        for value in [6] * 8 + [1] * 16:
            roll(state, value)  # Revenge's 8 dice kill 4 each; San Martin's none
        martin = state.ships["San Martin"]
        assert martin.crew == 68 and martin.gunners == 19  # the gunners were not in the fight

    def test_boarders_who_lose_every_man_are_repelled_and_their_ship_is_lost(self):
        """Rule 12 with optional rule 5 (rulings: a side with no crew yields at once) and rule 9 (a ship
        with not a man left is lost, as to gunfire): Revenge's five boarders all fall. She is repelled,
        and with nobody aboard she is abandoned: San Martin is free of her grapples, and nobody is asked
        to keep men at the guns for a fight nobody is left to fight."""
        state = boarded({"crews": True}, crew=5)
        play(state, "gunners Revenge 0")
        play(state, "gunners San Martin 0")
        events = []
        for value in (1, 6, 1, 6):  # each round Revenge's die kills nobody, San Martin's 3 and then the last 2
            events += roll(state, value)
        revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
        assert Marked("Revenge", "is repelled by San Martin", "rule 12") in events
        assert (revenge.crew, revenge.status, revenge.grappled, martin.grappled) == (0, "abandoned", "", "")
        assert not revenge.in_play and due(state) != ("decide", "gunners")

    def test_without_the_crews_rule_every_man_fights(self):
        state = boarded()
        assert due(state) == ("roll", "boarding") and (state.fight["a"], state.fight["d"]) == (9, 20)

    def test_a_fight_that_goes_on_asks_again_who_keeps_to_the_guns_with_one_boarder_left(self):
        """Optional rule 5 with rule 12 (rulings: a fight that goes on starts again from round one):
        Revenge's boarders are cut down to one man and fight on; next move San Martin says again how
        many of her men stay at her guns (Revenge's last man has none to spare) before any die."""
        state = boarding_with_crews(revenge_gunners=0)
        for value in [1] * 4 + [6] * 4:  # round 1: Revenge's 4 dice kill none; San Martin's 3 each
            roll(state, value)
        for value in [1] * 1 + [6, 5, 1, 1]:  # round 2: Revenge's 8 men throw 1 die; San Martin's kill 7
            roll(state, value)
        assert state.ships["Revenge"].crew == 1 and state.ships["San Martin"].crew == 20
        play(state, "fight-on Revenge")
        roll(state, 6)  # 6 - 2 (twenty against one): 4, the fight goes on next move
        play(state, "move San Martin hold")
        play(state, "move San Cristobal turn 0 run 1.00 turn 0")
        while due(state) != ("roll", "wind"):
            head = due(state)
            if head[0] == "roll":
                roll(state, 3)  # the broken crews hold on
            else:
                state.apply(END_FIRE if head[1] == "fire" else END_MOVE)
        roll(state, 2, 2)
        roll(state, 9, 4)
        assert state.phase == "fights" and due(state) == ("decide", "gunners") and state.current_player() == 1
        assert state.legal_actions()[:2] == [Gunners("San Martin", 0), Gunners("San Martin", 1)]

    def test_grappled_ships_fire_only_with_the_men_kept_at_the_guns(self):
        state = boarding_with_crews(revenge_gunners=2)
        assert (state.fight["a"], state.fight["d"]) == (3, 4)  # 18 and 20 fighting men
        fight_on_and_move(state)
        play(state, "fire Revenge port at San Martin")
        assert len(state.volley["shots"]) == 2  # five port batteries bear, two are manned
        for _ in range(2):
            roll(state, 1)
        assert state.current_player() == 1  # her two gun crews have fired: nothing else of hers may
        assert fire.gun_crews(state, state.ships["Revenge"]) == 0
        with pytest.raises(IllegalAction) as error:
            play(state, "fire San Martin starboard at Revenge")  # she kept every man to repel boarders
        assert error.value.rule == "optional rule 5" and "kept no men at her guns" in error.value.message

    def test_fire_on_a_boarding_action_kills_only_the_crews_of_destroyed_guns(self):
        # "During a boarding action, either ship may be fired on ... the only crew killed are the gun
        # crews, if any, of the destroyed guns"
        for kept, crew_after in ((10, 19), (9, 20), (2, 20)):
            state = boarding_with_crews(revenge_gunners=kept)
            fight_on_and_move(state)
            state.apply(END_FIRE, 0)
            play(state, "fire San Cristobal port at Revenge")
            for value in [6, 4] + [1] * (len(state.volley["shots"]) - 2):
                roll(state, value)  # two hits, one of them a six
            revenge = state.ships["Revenge"]
            assert (revenge.flotation, revenge.crew) == (21, 20)  # the hits themselves kill nobody
            assert due(state) == ("decide", "damage") and state.current_player() == 0
            play(state, "remove Revenge starboard long")
            # all ten batteries manned: the lost one's crew dies; nine or two men at ten guns: an unmanned one is lost
            assert revenge.crew == crew_after and revenge.gunners == min(kept, 9)

    @pytest.mark.parametrize(("martin_y", "value", "status"), [(21, 2, "taken"), (21, 3, "afloat"), (26, 1, "taken")])
    def test_a_broken_crew_still_under_the_enemy_guns_surrenders_on_1_or_2(self, martin_y, value, status):
        # "When reduced to a 1/4, casualties from gunfire cease, but the crew will attempt to break off the
        # action. If this is not possible, throw a die. On a 1-2, surrender": Revenge's 11 of 45 run 1"
        # and end the move 10" from San Martin, inside the reach of her long guns, or exactly 16" off, at
        # the edge of it (rulings: range bands include their upper edge)
        ships = [
            ship("Revenge", "english", 10, 10, 90),
            ship("San Martin", "spanish", 10, martin_y, 90, type="San Martin"),
        ]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["Revenge"].crew = 11
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        while due(state) == ("decide", "fire"):
            state.apply(END_FIRE)
        assert due(state) == ("roll", "crew") and state.agenda[0][2] == "Revenge"
        events = roll(state, value)
        assert events[0] == DieRolled("Revenge's broken crew (optional rule 5)", value)
        assert state.ships["Revenge"].status == status

    def test_a_broken_crew_that_breaks_off_out_of_range_throws_nothing(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 27, 90, type="San Martin")]
        state = to_movement(position(ships, options={"crews": True}))
        state.ships["Revenge"].crew = 11
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move San Martin turn 0 run 1.00 turn 0")  # 17" apart: beyond every battery's reach
        assert due(state) == ("roll", "wind") and state.move_number == 2  # the next move: no throw came
        assert state.ships["Revenge"].status == "afloat"


COAST = [{"name": "Cape Passaro", "kind": "land", "points": [[0, 30], [72, 30], [72, 36], [0, 36]]}]
FAR_SHORE = {"name": "Cape Spartivento", "kind": "land", "points": [[0, 0], [72, 0], [72, 2], [0, 2]]}


def galley_abandoned(land=COAST, strength="light airs", extra=(), events=None):
    """Light airs from the north: Revenge's port broadside kills the last man of the galley Capitana,
    4" off, with the coast of Cape Passaro 12" beyond her; the volley's events into `events` when given."""
    ships = [
        ship("Revenge", "english", 20, 14, 90),
        ship("Capitana", "spanish", 20, 18, 90, type="Galley"),
        ship("San Juan", "spanish", 60, 6, 90, type="San Cristobal"),
        *extra,
    ]
    state = to_movement(position(ships, strength=strength, land=land, options={"oared": True}))
    state.ships["Capitana"].crew = 1
    play(state, "move Revenge turn 0 run 1.00 turn 0")
    for other in [s for s in state.ships.values() if s.side == 0 and not s.moved]:
        play(state, f"move {other.name} hold")
    play(state, "move Capitana turn 0 run 1.00 turn 0")
    play(state, "move San Juan turn 0 run 1.00 turn 0")
    play(state, "fire Revenge port at Capitana")
    for value in [4] + [1] * (len(state.volley["shots"]) - 1):
        thrown = roll(state, value)  # one hit: her last man
        if events is not None:
            events += thrown
    return state


def next_move(state) -> list[str]:
    """Play the rest of the move quietly (each ship the first move offered, nobody fires) up to the next
    move's movement; what happened, in words."""
    said, new_move = [], False
    while not (new_move and due(state) == ("decide", "move")):
        head = due(state)
        if head == ("roll", "wind"):
            events = roll(state, 2, 2)
            new_move = True
        elif head == ("roll", "initiative"):
            events = roll(state, 9, 4)
        elif head[0] == "roll":
            events = roll(state, 3)
        elif head == ("decide", "move"):
            events = state.apply(next(a for a in state.legal_actions() if isinstance(a, Move)))
        else:
            events = state.apply(END_FIRE if head == ("decide", "fire") else passive(state))
        said += [event.describe() for event in events]
    return said


class TestOptionalRule4AbandonedGalley:
    @pytest.mark.parametrize("land", [COAST, [*COAST, FAR_SHORE]])
    def test_her_slaves_row_her_for_the_nearest_beach_and_beach_her(self, land):
        # "If a galley or galleass is abandoned, the slaves will immediately row for the nearest beach and
        # beach the vessel": Cape Passaro, 12" north of her, not the far shore 16" south
        events = []
        state = galley_abandoned(land, events=events)
        capitana = state.ships["Capitana"]
        assert capitana.status == "rowing" and capitana.in_play and capitana.crew == 0
        assert Marked("Capitana", "is abandoned: her slaves row her for the nearest beach", "optional rule 4") in events
        assert victory.scores(state) == (10, 0)  # lost to Spain while she is rowed away: 1 taken + 9 left
        said = next_move(state)
        # before anyone moves she turns for the coast (her oar turn, 90 degrees) and rows 6" in light airs
        assert (capitana.x, capitana.y, capitana.heading) == (2100, 2400, 0)
        assert Moved("Capitana", "(21.00, 18.00)", "(21.00, 24.00)", "0").describe() in said
        assert not any(a.ship == "Capitana" for a in state.legal_actions() if isinstance(a, Move))
        said = next_move(state)
        # her bow touches the coast 5.5" on: beached, out of the battle, still Spain's loss
        assert (capitana.status, capitana.y) == ("beached", 2950) and not capitana.in_play
        assert Marked("Capitana", "is beached on Cape Passaro by her slaves", "optional rule 4").describe() in said
        assert victory.scores(state) == (10, 0)

    def test_abandoned_against_the_shore_she_is_beached_where_she_lies(self):
        shore = [{"name": "Cape Passaro", "kind": "land", "points": [[0, 18.2], [72, 18.2], [72, 36], [0, 36]]}]
        state = galley_abandoned(shore)
        next_move(state)
        capitana = state.ships["Capitana"]
        assert capitana.status == "beached" and capitana.point == (2100, 1800)

    def test_nobody_fires_on_her_but_she_blocks_runs_and_shots(self):
        state = galley_abandoned(extra=[ship("Hope", "english", 19.6, 24, 90, type="Hope")])
        next_move(state)  # Capitana lies at 21, 24, heading north: just off Hope's bow
        with pytest.raises(IllegalAction) as error:
            play(state, "move Hope turn 0 run 1.00 turn 0")
        assert error.value.rule == "hulls" and "Capitana" in error.value.message
        play(state, "move Hope hold")
        play(state, "move Revenge hold")
        state.ships["San Juan"].x, state.ships["San Juan"].y = 2100, 2800  # beyond her, in Revenge's port fan
        play(state, "move San Juan hold")
        assert state.phase == "fire-first"
        for target, rule in (("Capitana", "rule 9"), ("San Juan", "line of fire")):
            with pytest.raises(IllegalAction) as error:
                state.apply(Fire("Revenge", "port", target), 0)
            assert error.value.rule == rule

    def test_a_ship_in_her_way_stops_her_unharmed_and_she_rows_on(self):
        state = galley_abandoned(extra=[ship("Hope", "english", 21, 21, 90, type="Hope")])
        assert "Capitana is stopped by Hope's hull (optional rule 4)" in next_move(state)
        capitana, hope = state.ships["Capitana"], state.ships["Hope"]
        # stopped with her bow against Hope's side (Hope's beam is a quarter inch): a decision
        assert (capitana.x, capitana.heading) == (2100, 0) and capitana.y == pytest.approx(2037, abs=1)
        assert capitana.status == "rowing" and not hope.adrift and hope.status == "afloat"
        hope.x = 3000  # Hope sails clear
        next_move(state)
        assert capitana.y == pytest.approx(2637, abs=1)

    def test_while_the_wind_forbids_oars_she_drifts(self):
        # only galleasses row in medium winds (optional rule 4): a galley's slaves cannot row her
        state = galley_abandoned(strength="medium")
        next_move(state)
        capitana = state.ships["Capitana"]
        assert (capitana.x, capitana.y, capitana.heading) == (2100, 1700, 90)  # 1" downwind from the north
        assert capitana.status == "rowing"

    def test_with_no_land_on_the_table_she_is_simply_abandoned(self):
        state = galley_abandoned(land=[])
        assert state.ships["Capitana"].status == "abandoned" and not state.ships["Capitana"].in_play

    @staticmethod
    def rowed(x, y, heading, land, strength="light airs", extra=(), period="armada", on_fire=0):
        """The galley Capitana lies abandoned at `x`, `y` (no crew: her slaves row her; `on_fire` as
        given), Revenge and San Juan out of her way; the first move's dice thrown: her row (or drift)
        comes before anyone moves. The state and the events of that throw."""
        ships = [
            ship("Capitana", "spanish", x, y, heading, type="Galley"),
            ship("Revenge", "english", 10, 8, 90),
            ship("San Juan", "spanish", 10, 26, 90, type="San Cristobal"),
            *extra,
        ]
        state = position(ships, strength=strength, land=land, period=period, options={"oared": True})
        capitana = state.ships["Capitana"]
        capitana.status, capitana.crew, capitana.on_fire = "rowing", 0, on_fire
        return state, start_move(state)

    def test_carried_off_the_table_by_the_drift_she_is_lost_abandoned(self):
        """Optional rule 4 (a decision): while the wind forbids her oars she drifts like any drifting ship
        (rule 6); carried off the table she is lost, abandoned, not disengaged."""
        state, events = self.rowed(20, 0.8, 90, COAST, strength="medium")
        capitana = state.ships["Capitana"]
        why = "is abandoned and drifts while her oars cannot be used (optional rule 4)"
        assert Drifted("Capitana", "(20.00, 0.80)", "(20.00, -0.20)", why) in events
        assert Marked("Capitana", "is carried off the table, abandoned", "optional rule 4") in events
        assert capitana.status == "abandoned" and not capitana.in_play

    def test_rowed_off_the_table_she_is_lost_abandoned(self):
        """Optional rule 4 (decisions): heading south by the east edge, her slaves turn her the full
        90 degrees of her oar turn for the beach to the north (a shade east of north: she turns east)
        and row her 6" in light airs, off the table: she is lost, abandoned."""
        beach = [{"name": "Cape Bon", "kind": "land", "points": [[69, 30], [72, 30], [72, 36], [69, 36]]}]
        state, events = self.rowed(68, 2, 180, beach)
        capitana = state.ships["Capitana"]
        assert Marked("Capitana", "is carried off the table, abandoned", "optional rule 4") in events
        assert capitana.status == "abandoned" and not capitana.in_play and capitana.x == 7400

    def test_her_turn_for_the_beach_passes_through_north(self):
        """Optional rule 4: heading north, the beach due west: she turns 90 degrees to port, to 270, and
        rows 6" due west."""
        west_shore = [{"name": "Cape Spartel", "kind": "land", "points": [[0, 0], [2, 0], [2, 36], [0, 36]]}]
        state, events = self.rowed(30, 18, 0, west_shore)
        assert Moved("Capitana", "(30.00, 18.00)", "(24.00, 18.00)", "270") in events
        assert state.ships["Capitana"].heading == 270

    def test_with_her_bow_within_a_tenth_of_an_inch_of_the_shore_she_is_beached_where_she_lies(self):
        """Optional rule 4 and the rulings ("in contact" = hulls within 0.1"): her bow 0.1" off Cape
        Passaro, she touches the land and is beached before she rows."""
        state, events = self.rowed(21, 29.4, 0, COAST)
        capitana = state.ships["Capitana"]
        assert capitana.status == "beached" and capitana.point == (2100, 2940)
        assert not any(isinstance(e, Moved) and e.piece == "Capitana" for e in events)

    def test_a_shoal_on_her_way_to_the_beach_wrecks_her(self):
        """Optional rule 4 with rule 6 (a shoal wrecks): the Skerki Bank lies across her row for Cape
        Passaro; she rows onto it and is wrecked, out of the battle, not beached."""
        bank = {"name": "Skerki Bank", "kind": "shoal", "points": [[0, 21], [72, 21], [72, 22], [0, 22]]}
        state, events = self.rowed(21, 18, 0, [*COAST, bank])
        capitana = state.ships["Capitana"]
        assert Wrecked("Capitana", "Skerki Bank") in events
        assert capitana.status == "wrecked" and not capitana.in_play

    def test_a_burning_galley_her_slaves_beach_burns_no_more(self):
        """Optional rule 4 with Nelson rule 3: a galley set on fire while she is rowed away is out of the
        battle once beached; her fire is no longer hers to fight, nor shown."""
        state, _ = self.rowed(21, 29.4, 0, COAST, on_fire=1)
        capitana = state.ships["Capitana"]
        assert capitana.status == "beached" and capitana.on_fire == 0

    @pytest.mark.parametrize(
        ("period", "hope_y", "stop_y"),
        [("armada", 24, 2337), ("nelson", 25.2, 2395)],
        ids=["a-1-inch-galley", "a-2-inch-galley-of-the-nelson-period"],
    )
    def test_a_hull_near_the_end_of_her_row_stops_her(self, period, hope_y, stop_y):
        """Optional rule 4 (a decision): Hope lies across her course near the end of her 6" row; she stops
        with her bow against Hope's side: 5.37" on (hulls of 1" by 1/4"), or 5.95" on in a Nelson battle
        (hulls of 2" by 1/2", the rulings)."""
        hope = ship("Hope", "english", 21, hope_y, 90, type="Hope")
        state, events = self.rowed(21, 18, 0, COAST, extra=[hope], period=period)
        capitana = state.ships["Capitana"]
        assert Marked("Capitana", "is stopped by Hope's hull", "optional rule 4") in events
        assert capitana.point == (2100, stop_y) and capitana.status == "rowing"

    def test_rowing_her_full_run_up_to_a_hull_she_is_not_stopped(self):
        """Optional rule 4: her 6" row ends with her bow just touching Hope's bow (hulls that only touch
        do not overlap): she rowed her full run, nothing stopped her."""
        state, events = self.rowed(21, 18, 0, COAST, extra=[ship("Hope", "english", 21, 25, 180, type="Hope")])
        assert Moved("Capitana", "(21.00, 18.00)", "(21.00, 24.00)", "0") in events
        assert not any(isinstance(e, Marked) and e.piece == "Capitana" for e in events)

    def test_no_turn_for_the_beach_that_would_swing_her_into_a_hull(self):
        """Optional rule 4 (a decision): the beach lies due east; Swallow alongside her starboard side
        keeps her from turning at the start, so she rows 6" north, and Hope, alongside where she stops,
        keeps her from turning at the end: she ends heading north."""
        east_shore = [{"name": "Cape Bon", "kind": "land", "points": [[40, 0], [72, 0], [72, 36], [40, 36]]}]
        alongside = [
            ship("Swallow", "english", 30.26, 18, 180, type="Hope"),
            ship("Hope", "english", 30.26, 24, 180, type="Hope"),
        ]
        state, events = self.rowed(30, 18, 0, east_shore, extra=alongside)
        assert Moved("Capitana", "(30.00, 18.00)", "(30.00, 24.00)", "0") in events
        assert state.ships["Capitana"].heading == 0


def in_tow():
    """Light airs from the north: the frigate Pallas has come to the bow of the 74 Calcutta and taken
    her in tow (a 3); the next move has begun, the English to move."""
    ships = [
        frigate("Pallas", "english", 12, 10, 90),
        ship("Calcutta", "english", 10, 10, 90, **{"class": "74"}),
        ship("Beagle", "spanish", 60, 30, 270, **{"class": "sloop"}),
    ]
    state = to_movement(position(ships, period="nelson", wind="N", strength="light airs", options={"towing": True}))
    play(state, "move Calcutta hold")
    play(state, "move Pallas turn 0 run 0.10 turn 0 tow Calcutta")
    roll(state, 3)
    play(state, "move Beagle turn 0 run 1.00 turn 0")
    roll(state, 2, 2)
    roll(state, 9, 4)
    return state


def tow_attempt(tower: dict, towed: dict, move: str):
    """Light airs from the north, the towing rule on: `towed` holds, then `tower` makes `move`."""
    ships = [tower, towed, ship("Beagle", "spanish", 60, 30, 270, **{"class": "sloop"})]
    state = to_movement(position(ships, period="nelson", wind="N", strength="light airs", options={"towing": True}))
    play(state, f"move {towed['name']} hold")
    play(state, move)
    return state


class TestOptionalRule3Towing:
    def test_no_tow_without_the_towing_rule_and_never_an_enemy(self):
        calcutta = ship("Calcutta", "english", 10, 10, 90, **{"class": "74"})
        move = "move Pallas turn 0 run 0.10 turn 0 tow Calcutta"
        ships = [
            frigate("Pallas", "english", 12, 10, 90),
            calcutta,
            ship("Beagle", "spanish", 60, 30, 270, **{"class": "sloop"}),
        ]
        state = to_movement(position(ships, period="nelson", wind="N", strength="light airs"))
        play(state, "move Calcutta hold")
        with pytest.raises(IllegalAction) as error:
            play(state, move)
        assert error.value.message == "towing is not in use in this battle"
        with pytest.raises(IllegalAction) as error:
            tow_attempt(frigate("Pallas", "spanish", 12, 10, 90), calcutta, move)
        assert error.value.rule == "optional rule 3" and "a ship of her own side" in error.value.message

    def test_a_fifty_gun_ship_may_not_tow_more_than_twice_her_tonnage(self):
        """Optional rule 3: a ship tows one "not greater than twice its tonnage"; only a frigate (under
        50 guns, Nelson rule 4) may tow a ship of the line regardless. Leander, 50 guns and 1,052 tons,
        may not take the first rate Victory (2,142 tons) in tow; the 38-gun Pallas of 1,000 tons may."""
        victory = ship("Victory", "english", 10, 10, 90, **{"class": "first rate"})
        leander = ship("Leander", "english", 12, 10, 90, armament={"24-pdr": 22, "12-pdr": 22, "6-pdr": 6}, tons=1052)
        with pytest.raises(IllegalAction) as error:
            tow_attempt(leander, victory, "move Leander turn 0 run 0.10 turn 0 tow Victory")
        assert error.value.rule == "optional rule 3" and "twice her tonnage" in error.value.message
        state = tow_attempt(
            frigate("Pallas", "english", 12, 10, 90), victory, "move Pallas turn 0 run 0.10 turn 0 tow Victory"
        )
        assert due(state) == ("roll", "tow")

    @pytest.mark.parametrize("pallas_x", [10, 10.8])
    def test_the_tow_is_taken_at_the_bow_not_alongside(self, pallas_x):
        """Optional rule 3: "the frigate moves to the front of the other ship": in contact abeam of
        Calcutta, or alongside her forward half with her bow 0.9" short of Calcutta's, Pallas may not
        take her in tow."""
        calcutta = ship("Calcutta", "english", 10, 10, 90, **{"class": "74"})
        with pytest.raises(IllegalAction) as error:
            tow_attempt(
                frigate("Pallas", "english", pallas_x, 10.6, 90),
                calcutta,
                "move Pallas turn 0 run 0.10 turn 0 tow Calcutta",
            )
        assert error.value.rule == "optional rule 3" and "must end at her bow" in error.value.message

    def test_a_ship_may_tow_one_of_exactly_twice_her_tonnage_and_no_more(self):
        """Optional rule 3: "not greater than twice its tonnage": Revenge, 450 tons, may take a hulk of
        900 tons in tow, not one of 901."""
        move = "move Revenge turn 0 run 0.10 turn 0 tow Hulk"
        state = tow_attempt(ship("Revenge", "english", 12, 10, 90), ship("Hulk", "english", 10, 10, 90, tons=900), move)
        assert due(state) == ("roll", "tow")
        with pytest.raises(IllegalAction) as error:
            tow_attempt(ship("Revenge", "english", 12, 10, 90), ship("Hulk", "english", 10, 10, 90, tons=901), move)
        assert "twice her tonnage" in error.value.message

    def test_a_ship_with_no_tow_has_none_to_cast_off(self):
        state = to_movement(
            position(
                [frigate("Pallas", "english", 12, 10, 90), distant_enemy()], period="nelson", options={"towing": True}
            )
        )
        with pytest.raises(IllegalAction) as error:
            play(state, "move Pallas cast-off")
        assert (error.value.rule, error.value.message) == ("optional rule 3", "Pallas has no tow to cast off")
        assert not state.ships["Pallas"].moved

    def test_the_towed_ship_holds_and_her_tower_moves_her(self):
        state = in_tow()
        assert Move("Pallas", extra="cast-off") in state.legal_actions()  # either may cast off
        calcutta = state.ships["Calcutta"]
        assert [a for a in state.legal_actions() if isinstance(a, Move) and a.ship == "Calcutta"] == [
            Move("Calcutta", extra="hold"),
            Move("Calcutta", extra="cast-off"),
        ]
        with pytest.raises(IllegalAction) as error:
            play(state, "move Calcutta turn 0 run 1.00 turn 0")
        assert error.value.rule == "optional rule 3"
        play(state, "move Calcutta hold")
        play(state, "move Pallas turn 0 run 1.00 turn 0")
        assert calcutta.tow == "Pallas" and calcutta.x == state.ships["Pallas"].x - 210  # astern, 0.1" apart

    def test_the_towed_ship_may_cast_off_before_her_tower_moves(self):
        # rulings: "either may cast off at the start of a move"
        state = in_tow()
        calcutta, pallas = state.ships["Calcutta"], state.ships["Pallas"]
        where = calcutta.point
        play(state, "move Calcutta cast-off")
        assert not calcutta.tow and not pallas.tow and not pallas.towing
        assert {a.ship for a in state.legal_actions()} == {"Pallas"}  # casting off was Calcutta's move
        play(state, "move Pallas turn 0 run 1.00 turn 0")
        assert calcutta.point == where  # she lies where she cast off
        assert pallas.x == 1310  # and Pallas sails her own light-airs move

    @pytest.mark.parametrize("strength, run, need", [("medium", 1, 4), ("strong", 2, 6)])
    def test_a_tow_is_taken_on_a_four_in_a_medium_wind_or_a_six_in_a_strong_one(self, strength, run, need):
        """Optional rule 3 (rulings: 4-6 in a medium wind, 6 in a strong one): Pallas, sailing west, ends
        at Calcutta's bow and takes her in tow with the throw it needs; Calcutta follows 0.1" astern of
        her on her heading. One less fails and Calcutta lies where she was."""

        def attempt(value):
            ships = [
                frigate("Pallas", "english", 12 + run, 10, 270),
                ship("Calcutta", "english", 10, 10, 90, **{"class": "74"}),
                ship("Beagle", "spanish", 60, 30, 270, **{"class": "sloop"}),
            ]
            state = to_movement(position(ships, period="nelson", strength=strength, options={"towing": True}))
            play(state, f"move Pallas turn 0 run {run}.00 turn 0 tow Calcutta")
            return state, roll(state, value)

        state, events = attempt(need - 1)
        calcutta = state.ships["Calcutta"]
        assert not calcutta.tow and (calcutta.point, calcutta.heading) == ((1000, 1000), 90)
        assert not any(isinstance(e, Marked) for e in events)
        state, events = attempt(need)
        calcutta = state.ships["Calcutta"]
        assert events[0] == DieRolled("Pallas takes Calcutta in tow", need)  # the throw is told
        assert Marked("Pallas", "has Calcutta in tow", "optional rule 3") in events
        assert calcutta.tow == "Pallas" and (calcutta.point, calcutta.heading) == ((1410, 1000), 270)

    def test_a_ship_tows_or_is_towed_by_one_ship_at_a_time(self):
        """Optional rule 3: Thames comes to the bow of Pallas, who has Calcutta in tow, and may not take
        her in tow as well; nor may Pallas take a second ship."""
        state = self.towing_pair(90, (9.9, 10), extra=[frigate("Thames", "english", 13.25, 12, 180)])
        to_movement(state)
        with pytest.raises(IllegalAction) as error:
            play(state, "move Thames turn 0 run 2.00 turn 0 tow Pallas")
        assert error.value.message == "a ship tows or is towed by one ship at a time"
        play(state, "move Thames turn 0 run 2.00 turn 0")  # Thames now lies across Pallas's bow
        with pytest.raises(IllegalAction) as error:
            play(state, "move Pallas turn 0 run 0.00 turn 0 tow Thames")
        assert error.value.message == "a ship tows or is towed by one ship at a time"

    def test_a_ship_towing_may_not_board(self):
        """Optional rule 3: "ships towing may not board": Pallas, Calcutta in tow, runs 1" to touch the
        Spanish sloop Fly lying across her course, and may not board her."""
        state = self.towing_pair(90, (9.9, 10), extra=[ship("Fly", "spanish", 14.25, 10, 180, **{"class": "sloop"})])
        to_movement(state)
        play(state, "move Calcutta hold")
        with pytest.raises(IllegalAction) as error:
            play(state, "move Pallas turn 0 run 1.00 turn 0 board Fly")
        assert error.value.message == "Pallas cannot board while towing"
        play(state, "move Pallas turn 0 run 1.00 turn 0")

    def test_a_ship_in_tow_grappled_by_an_enemy_is_cast_off_and_not_taken_in_tow_again(self):
        """Optional rule 3 with rule 12 (a decision: grappled ships drift together, so no tow may take one
        from her boarder's side): in light airs the Spanish sloop Fly runs alongside Calcutta, in tow of
        Pallas, and grapples her: the tow is cast off. While they fight on, Pallas, still at her bow, may
        not take her in tow again."""
        state = self.towing_pair(90, (9.9, 10), extra=[ship("Fly", "spanish", 9.9, 12, 90, **{"class": "sloop"})])
        state.strength = LIGHT
        to_movement(state, first=1)
        play(state, "move Fly turn +90 run 0.75 turn 0 board Calcutta")
        assert Marked("Calcutta", "casts off the tow with Pallas", "optional rule 3") in roll(state, 4)
        pallas, calcutta = state.ships["Pallas"], state.ships["Calcutta"]
        assert (pallas.tow, pallas.towing, calcutta.tow, calcutta.grappled) == ("", False, "", "Fly")
        while due(state) == ("roll", "boarding"):
            roll(state, 1)
        play(state, "fight-on Fly")
        roll(state, 6)  # 6 - 2 (Calcutta's crew more than twice Fly's): the fight goes on
        play(state, "move Beagle turn 0 run 1.00 turn 0")
        play(state, "move Calcutta hold")
        with pytest.raises(IllegalAction) as error:
            play(state, "move Pallas turn 0 run 0.00 turn 0 tow Calcutta")
        assert error.value.message == "Calcutta is grappled to Fly and cannot be taken in tow"

    @pytest.mark.parametrize(("speed", "masts_lost", "most", "turn"), [(3, 1, 100, 0), (8, 0, 400, 45)],
                             ids=["slow-tower-still-one-inch", "half-speed"])
    def test_a_tow_goes_at_half_the_towers_speed_and_at_least_one_inch(self, speed, masts_lost, most, turn):
        """Optional rule 3: a tow goes at half the tower's speed, and at least 1": Pallas, an 8" sailer,
        makes 4" with Calcutta in tow (turning as she starts, her stern swinging over the tow astern of
        her, which follows her round); a 3" sailer with a mast gone (1.5") would make 0.75", and makes 1"."""
        state = self.towing_pair(90, (9.9, 10), speed=speed)
        state.ships["Pallas"].masts_lost = masts_lost
        to_movement(state)
        play(state, "move Calcutta hold")
        with pytest.raises(IllegalAction) as error:
            play(state, f"move Pallas turn {turn} run {(most + 1) / 100:.2f} turn 0")
        assert f"at most {most / 100:.2f} inches" in error.value.message
        play(state, f"move Pallas turn {turn} run {most / 100:.2f} turn 0")
        pallas, calcutta = state.ships["Pallas"], state.ships["Calcutta"]
        assert round(plane.distance((1200, 1000), pallas.point)) == most
        assert calcutta.tow == "Pallas" and calcutta.heading == 90 + turn
        assert abs(plane.distance(pallas.point, calcutta.point) - 210) <= 1  # 0.1" astern of her, to the hundredth

    def test_a_tow_swung_off_the_table_leaves_the_battle_and_the_tow_is_cast_off(self):
        """Optional rule 3 with rule 2's table edge: Pallas, close to the west edge, sails north with
        Calcutta astern and turns east; Calcutta, swung astern of her, is off the table: she leaves the
        battle and the tow is cast off."""
        state = self.towing_pair(0, (1.5, 7.9), wind="W", at=(1.5, 10))
        to_movement(state)
        play(state, "move Calcutta hold")
        events = play(state, "move Pallas turn 0 run 1.00 turn 90")
        calcutta = state.ships["Calcutta"]
        assert Escaped("Calcutta", "(-0.60, 11.00)", "table") in events
        assert calcutta.status == "disengaged" and not calcutta.tow and not state.ships["Pallas"].towing

    def test_a_tower_that_sails_off_the_table_casts_off_her_tow(self):
        """Optional rule 3 with rule 2's table edge: Pallas, towing Calcutta west close to the west edge,
        runs off the table and leaves the battle; the tow is cast off and Calcutta stays, free of it."""
        state = self.towing_pair(270, (3.6, 10), at=(1.5, 10))
        to_movement(state)
        play(state, "move Calcutta hold")
        events = play(state, "move Pallas turn 0 run 2.00 turn 0")
        calcutta = state.ships["Calcutta"]
        assert state.ships["Pallas"].status == "disengaged"
        assert Marked("Pallas", "casts off the tow with Calcutta", "optional rule 3") in events
        assert calcutta.status == "afloat" and not calcutta.tow and calcutta.point == (360, 1000)

    @staticmethod
    def towing_pair(heading: int, astern: tuple[float, float], extra=(), wind="N", at=(12, 10), **pallas):
        """Medium wind (from the north unless `wind` says): Pallas, at `at`, has the 74 Calcutta in tow,
        0.1" astern of her at `astern`, both on `heading`."""
        ships = [
            frigate("Pallas", "english", *at, heading, **pallas),
            ship("Calcutta", "english", *astern, heading, **{"class": "74"}),
            *extra,
            ship("Beagle", "spanish", 60, 30, 180, **{"class": "sloop"}),
        ]
        state = position(ships, period="nelson", wind=wind, options={"towing": True})
        pallas, calcutta = state.ships["Pallas"], state.ships["Calcutta"]
        pallas.tow, pallas.towing, calcutta.tow = "Calcutta", True, "Pallas"
        return state

    def test_a_tower_that_drifts_takes_her_tow_with_her(self):
        """Rule 6 with optional rule 3: "a grappled or towing pair" drifts together: Pallas, dismasted,
        drifts 1" downwind and Calcutta, in tow astern of her, drifts with her."""
        state = self.towing_pair(90, (9.9, 10))
        state.ships["Pallas"].masts_lost = 2
        events = start_move(state)
        assert [e for e in events if isinstance(e, Drifted)] == [
            Drifted("Pallas", "(12.00, 10.00)", "(12.00, 9.00)", "is dismasted and drifts (rule 2)"),
            Drifted("Calcutta", "(9.90, 10.00)", "(9.90, 9.00)",
                    "drifts with Pallas, towing and towed together (optional rule 3)"),
        ]

    def test_a_wind_that_heads_a_tow_throws_for_the_tower_alone(self):
        """Rule 8 with optional rule 3 (a decision: the pair moves under the tower's wind limits): both
        point 20 degrees off a northerly, closer than the 45 now permitted; Pallas throws, and Calcutta,
        in tow, does not."""
        state = self.towing_pair(20, (11.28, 8.03))
        start_move(state)
        assert state.agenda[0] == ("roll", "rule8", "Pallas")
        roll(state, 3)
        assert due(state) != ("roll", "rule8")


def survivors_in_the_water():
    """Crews rule on: Revenge's port broadside sinks San Martin (one flotation point left) 1.5" off; her
    95 men leave 47 survivors in the water. San Cristobal lies 1.9" beyond the wreck and holds her fire,
    San Felipe is far off."""
    ships = [
        ship("Revenge", "english", 10, 10, 90),
        ship("San Martin", "spanish", 10, 11.5, 90, type="San Martin"),
        ship("San Cristobal", "spanish", 10.5, 13.3, 90, type="San Cristobal"),
        ship("San Felipe", "spanish", 40, 30, 270, type="San Martin"),
    ]
    state = to_movement(position(ships, options={"crews": True}))
    state.ships["San Martin"].flotation = 1
    play(state, "move Revenge turn 0 run 1.00 turn 0")
    for name in ("San Martin", "San Cristobal", "San Felipe"):
        play(state, f"move {name} turn 0 run 1.00 turn 0")
    play(state, "fire Revenge port at San Martin")
    for _ in range(5):
        roll(state, 5)
    assert state.ships["San Martin"].status == "sunk" and state.to_json()["survivors"] == {"San Martin": [11, 11.5, 47]}
    play(state, "end-fire")  # San Cristobal holds her fire
    return state


class TestOptionalRule5Survivors:
    def test_ships_within_two_drift_moves_may_pick_up_survivors_a_quarter_of_their_crew(self):
        """Optional rule 5: "any ship within two drift moves may stop, and drift, to pick up survivors,
        up to a 1/4 of the crew of the rescuing ship"; the enemy's men become prisoners (rulings), her
        own side's men join her crew. San Felipe, far off, is offered nothing."""
        state = survivors_in_the_water()
        assert state.legal_actions() == [END_MOVE, Choose("pick-up", "Revenge", "San Martin")]
        assert state.action_to_text(state.legal_actions()[1]) == "pick-up Revenge from San Martin"
        events = play(state, "pick-up Revenge from San Martin")
        revenge = state.ships["Revenge"]
        assert (revenge.prisoners, revenge.crew) == (11, 45)  # a quarter of her 45
        assert Marked("Revenge", "picks up 11 survivors of San Martin", "optional rule 5") in events
        assert state.current_player() == 1  # the English have nothing more to decide
        assert state.to_json()["survivors"] == {"San Martin": [11, 11.5, 47 - 11]}
        assert state.legal_actions() == [END_MOVE, Choose("pick-up", "San Cristobal", "San Martin")]
        play(state, "pick-up San Cristobal from San Martin")
        assert state.ships["San Cristobal"].crew == 70 + 17  # a quarter of her 70

    def test_a_rescuer_stops_and_drifts_the_next_move_and_then_sails_again(self):
        state = survivors_in_the_water()
        play(state, "pick-up Revenge from San Martin")
        play(state, "end-move")
        start_move(state)
        revenge = state.to_json()["ships"][0]
        assert revenge["limits"]["mode"] == "none" and state.current_player() == 1  # she drifts; the Spaniards move
        for name in ("San Cristobal", "San Felipe"):
            play(state, f"move {name} turn 0 run 1.00 turn 0")
        while due(state) in (("decide", "fire"), ("decide", "end")):  # nobody fires or strikes
            play(state, "end-fire" if due(state)[1] == "fire" else "end-move")
        start_move(state)
        play(state, "move Revenge turn 0 run 1.00 turn 0")
