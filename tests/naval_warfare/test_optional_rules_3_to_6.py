"""Seed 003, optional rules 3 (towing), 4 (oared vessels), 5 (crews) and 6 (surrender and prizes),
where the book says more than the first tests covered: prizes sailed and retaken, the extra move a
boarded ship stays grappled, dishonour when her own side comes up, crews that must break off and
men kept at the guns, the towed ship casting off, both ships drifting while a tow is rigged, and
an abandoned galley rowed for the beach."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.games.naval_warfare import prizes, victory
from quarterdeck.games.naval_warfare.actions import Fire, Move

from .helpers import due, play, position, roll, ship, to_movement


def frigate(name, side, x, y, heading, **data):
    return ship(name, side, x, y, heading, **{"class": "38 frigate", **data})


def carried(prize_rules=True, extra=()):
    """Revenge (45) boards San Martin (20 left) alongside and carries her in the first round."""
    ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin"),
             *extra]
    state = to_movement(position(ships, options={"prizes": prize_rules}))
    state.ships["San Martin"].crew = 20
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)  # grappled
    for value in [6] * 9 + [1] * 4:  # round 1: Revenge's 9 dice kill 4 each, San Martin's 4 dice none
        roll(state, value)
    return state


def secured(prize_crew: int, captives: int = 100):
    """Shannon has secured Chesapeake: `prize_crew` of her men aboard, `captives` prisoners."""
    ships = [frigate("Shannon", "english", 30, 30, 90), frigate("Chesapeake", "spanish", 12.5, 10.6, 90),
             frigate("Essex", "spanish", 9, 10.6, 90)]
    state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W"))
    chesapeake = state.ships["Chesapeake"]
    chesapeake.status, chesapeake.captor = "prize", 0
    chesapeake.crew, chesapeake.prisoners, chesapeake.prize_crew = prize_crew, captives, prize_crew
    state._cand = {}
    return state


class TestOptionalRule6SurrenderAndPrizes:
    def test_any_ship_may_offer_surrender_at_the_end_of_a_move(self):
        # "A ship may surrender at the end of any move": the book sets no condition on her state
        ships = [frigate("Shannon", "english", 10, 10, 90), frigate("Chesapeake", "spanish", 40, 30, 90)]
        state = to_movement(position(ships, period="nelson", options={"prizes": True}, wind="W"))
        play(state, "move Shannon turn 0 run 1.00 turn 0")
        with pytest.raises(IllegalAction):
            play(state, "surrender Chesapeake")  # not during movement: at the end of the move
        play(state, "move Chesapeake turn 0 run 1.00 turn 0")
        play(state, "end-move")
        play(state, "surrender Chesapeake")  # undamaged, full crew
        assert state.ships["Chesapeake"].status == "surrendered"
        assert victory.scores(state) == (50, 0)

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

    def test_captives_guarded_by_too_few_try_once_to_escape(self):
        state = secured(prize_crew=12, captives=100)
        state.agenda.insert(0, ("roll", "escape", "Chesapeake"))
        roll(state, 4)
        chesapeake = state.ships["Chesapeake"]
        assert chesapeake.status == "afloat" and chesapeake.dishonoured and chesapeake.crew == 100
        assert chesapeake.prisoners == 12 and chesapeake.escape_tried

    def test_carried_by_boarders_she_stays_grappled_an_extra_move_then_is_secured(self):
        state = carried(extra=[ship("San Cristobal", "spanish", 60, 30, 90, type="San Cristobal")])
        martin, revenge = state.ships["San Martin"], state.ships["Revenge"]
        assert martin.status == "surrendered" and martin.grappled == "Revenge" and revenge.grappled == "San Martin"
        assert martin.held_until == state.move_number + 1
        first = state.move_number
        while state.move_number == first or due(state)[1] not in ("move",):
            if state.current_player() == -1:
                roll(state, 2, 2) if due(state)[1] == "wind" else roll(state, 9, 4) if due(state)[1] == \
                    "initiative" else roll(state, 3)
            else:
                state.apply(state.legal_actions()[-1])
        assert state.legal_actions(0) == [Move("Revenge", extra="hold")]  # she must stay grappled
        with pytest.raises(IllegalAction):
            play(state, "move Revenge cut", 0)
        play(state, "move Revenge hold", 0)
        while martin.status == "surrendered":
            state.apply(state.sample_chance() if state.current_player() == -1 else state.legal_actions()[-1])
        assert martin.status == "prize" and not martin.grappled and martin.captor == 0
        # all 20 of her crew fell: no prisoners; Revenge put the sailing minimum (1000 tons: 10) aboard
        assert martin.prisoners == 0 and martin.crew == 10 and revenge.crew == 35

    def test_her_own_side_coming_up_lets_the_boarded_crew_dishonour_and_fight_on(self):
        state = carried(extra=[ship("San Cristobal", "spanish", 9, 10.6, 90, type="San Cristobal")])
        martin = state.ships["San Martin"]
        with pytest.raises(IllegalAction):
            play(state, "move San Martin dishonour", 1)  # nobody of hers alongside yet
        play(state, "move San Cristobal turn 0 run 1.00 turn 0", 1)  # comes up alongside San Martin
        assert prizes.reinforced(state, martin)
        play(state, "move San Martin dishonour", 1)
        assert martin.status == "afloat" and martin.dishonoured and martin.grappled == "Revenge"
        assert ("San Martin", "Revenge") in state.continuing

    def test_without_prizes_a_carried_ship_leaves_play_as_taken(self):
        state = carried(prize_rules=False)
        assert state.ships["San Martin"].status == "taken" and not state.ships["Revenge"].grappled
