"""What the computer captains know of seed 003 (evaluate.py): the fight to come (rules 9, 10 and 12
over the moves left), a lead that can sail away (rulings, "Victory"), the wish for action, and the
moves and boardings the search tries first."""

from __future__ import annotations

import itertools
import random

import pytest

from quarterdeck.ai import make_agent
from quarterdeck.ai.knowledge import Knowledge
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.naval_warfare import boarding
from quarterdeck.games.naval_warfare import evaluate as knowledge
from quarterdeck.games.naval_warfare.evaluate import Body, Limits, candidates, evaluate, evaluate_all, fight_to_come

from .helpers import GAME, boarded, distant_enemy, due, play, position, roll, secured, ship, to_movement


def duel(english: dict, *spanish: dict, **kw):
    return to_movement(position([english, *spanish], wind="W", **kw))


def future(state, name: str) -> float:
    """The fight to come of one ship on the other, guns only."""
    me = state.ships[name]
    other = next(s for s in state.ships.values() if s is not me)
    return fight_to_come(
        state, Body(me), [Body(other)], knowledge.future_moves(state), Limits(state), boarding_too=False
    )


def test_the_longer_guns_gain_more_from_closing_to_long_range():
    """White Bear's four culverins a side (long range 8-16 in) tell at 20 inches before the San
    Martin's short and medium pieces can (both make 6 in a move); closing six inches raises the White
    Bear's fire to come by more than the Spaniard's."""
    far = duel(
        ship("White Bear", "english", 10, 18, 90, type="White Bear"),
        ship("San Martin", "spanish", 34, 18, 270, type="San Martin"),
    )
    near = duel(
        ship("White Bear", "english", 16, 18, 90, type="White Bear"),
        ship("San Martin", "spanish", 34, 18, 270, type="San Martin"),
    )
    assert future(far, "White Bear") > future(far, "San Martin")
    gain_english = future(near, "White Bear") - future(far, "White Bear")
    gain_spanish = future(near, "San Martin") - future(far, "San Martin")
    assert gain_english > gain_spanish > 0


def test_a_bigger_crew_within_a_run_counts_its_boarding():
    """San Martin (100 men) one run from the Revenge (45 men) may board her next move if she moves
    first (half the time) and grapple on 4-6: the fight is the Spaniard's, worth the Revenge's 23
    flotation (rule 12). The Revenge gains next to nothing from boarding the San Martin."""
    state = duel(ship("Revenge", "english", 20, 18, 0), ship("San Martin", "spanish", 24, 18, 0, type="San Martin"))
    limits, later = Limits(state), knowledge.future_moves(state)
    martin, revenge = Body(state.ships["San Martin"]), Body(state.ships["Revenge"])
    boarding = fight_to_come(state, martin, [revenge], later, limits) - fight_to_come(
        state, martin, [revenge], later, limits, boarding_too=False
    )
    assert boarding == pytest.approx(knowledge.FUTURE * 0.5 * 23)
    assert fight_to_come(state, revenge, [martin], later, limits) == pytest.approx(
        fight_to_come(state, revenge, [martin], later, limits, boarding_too=False), abs=0.01
    )
    far = duel(ship("Revenge", "english", 20, 18, 0), ship("San Martin", "spanish", 50, 18, 0, type="San Martin"))
    martin = Body(far.ships["San Martin"])
    assert fight_to_come(far, martin, [Body(far.ships["Revenge"])], later, Limits(far)) == fight_to_come(
        far, martin, [Body(far.ships["Revenge"])], later, Limits(far), boarding_too=False
    )


def boarding_by_every_throw(attacker: int, defender: int, rounds=(1, 2)) -> float:
    """Rule 12 thrown out die by die: the chance the defender is carried this move (two rounds, each
    side one die per five men, 2 or 3 off each die, then the defender's morale die)."""
    if attacker <= 0:
        return 0.0
    if defender <= 0:
        return 1.0
    if not rounds:
        lopsided = max(attacker, defender) > 2 * min(attacker, defender)
        faces = [face - 2 * lopsided for face in range(1, 7)]
        smaller_yields, larger_yields = sum(f <= 2 for f in faces) / 6, sum(f >= 6 for f in faces) / 6
        return larger_yields if attacker <= defender else smaller_yields
    a_off, d_off = boarding.MODIFIERS[rounds[0]]
    chance = 0.0
    for a_faces in itertools.product(range(1, 7), repeat=boarding.dice_for(attacker)):
        for d_faces in itertools.product(range(1, 7), repeat=boarding.dice_for(defender)):
            killed_d = min(defender, sum(max(0, f - a_off) for f in a_faces))
            killed_a = min(attacker, sum(max(0, f - d_off) for f in d_faces))
            p = 6.0 ** -(len(a_faces) + len(d_faces))
            if attacker - killed_a <= 0:
                continue  # an attacker with no men left is repelled, whatever the defender has left
            chance += p * boarding_by_every_throw(attacker - killed_a, defender - killed_d, rounds[1:])
    return chance


@pytest.mark.parametrize("attacker, defender", [(5, 5), (9, 6), (6, 9), (3, 12), (12, 3), (10, 11), (14, 10)])
def test_a_boarding_fight_is_priced_by_its_own_dice(attacker, defender):
    """The chance of carrying a ship in one move is the dice's own, to the last throw."""
    assert knowledge.carried(attacker, defender, (1, 2), 1) == pytest.approx(
        boarding_by_every_throw(attacker, defender), abs=1e-9
    )


def test_near_equal_crews_the_boarders_have_the_better_of_it_by_a_little():
    """Rule 12 with equal crews: the boarders' first round takes 2 off each die and the defenders' 3,
    and at the morale die the attacker counts as the smaller side; one man more or less changes the
    odds by a few points, not by a sixth of the whole."""
    even = knowledge.carried(70, 70)
    assert 0.55 < even < 0.7
    assert knowledge.carried(69, 70) < even < knowledge.carried(70, 69)
    assert knowledge.carried(70, 69) - knowledge.carried(69, 70) < 0.2
    assert knowledge.carried(35, 70) < 0.05 < 0.95 < knowledge.carried(70, 35)


def test_the_search_boards_first_where_the_crews_favour_it_and_not_where_they_do_not():
    state = to_movement(
        position(
            [ship("San Martin", "spanish", 10, 10, 90, type="San Martin"), ship("Revenge", "english", 14, 10, 0)],
            wind="W",
        ),
        first=1,
    )
    first = candidates(state, 1, state.legal_actions(1))[0]
    assert first.extra == "board" and first.target == "Revenge"
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 14, 10, 0, type="San Martin")],
            wind="W",
        )
    )
    moves = state.legal_actions(0)
    assert any(m.extra == "board" for m in moves)  # she could, but 45 men against 100 lose the fight
    assert candidates(state, 0, moves)[0].extra != "board"


def test_the_move_the_evaluation_likes_best_is_among_those_searched():
    """Pique, moving first, can grapple Blanche (69 men to 70 in 32s, where the boarders' first round
    tells): one decision ahead the evaluation likes that best, though the quick ranking of moves puts
    it outside the eight it keeps. The search tries it all the same."""
    frigate = {"class": "32 frigate", "year": 1786}
    state = to_movement(
        position(
            [
                ship("Blanche", "english", 35.06, 17.44, 183, **frigate),
                ship("Pique", "spanish", 43, 17, 180, **frigate),
            ],
            wind="NE",
            period="nelson",
            options={"crews": True, "prizes": True},
            victory={"off-table": "struck"},
        ),
        first=1,
    )
    state.ships["Pique"].flotation -= 1
    state.ships["Pique"].crew -= 1
    moves = state.legal_actions(1)
    liked = max(moves, key=lambda move: Knowledge.of(GAME).value_after(state, 1, move))
    assert liked.extra == "board" and liked.target == "Blanche"
    assert liked in candidates(state, 1, moves)


def ahead_by_the_edge(martin_flotation_lost: int = 2):
    """The Revenge three inches from the table's edge with a westerly she may turn across; the San
    Martin in the middle of the table, two flotation down."""
    state = duel(ship("Revenge", "english", 36, 3, 90), ship("San Martin", "spanish", 36, 20, 90, type="San Martin"))
    state.ships["San Martin"].flotation -= martin_flotation_lost
    return state


def test_a_lead_that_can_sail_off_the_table_is_worth_more_than_its_points():
    """Once her side's last ship is gone the battle ends and the lead wins it (rulings, "Victory")."""
    state = ahead_by_the_edge()
    assert evaluate(state, 0) >= 2 + knowledge.HOLD + knowledge.seek_action(_sides(state))
    first = candidates(state, 0, state.legal_actions(0))[0]
    after = state.clone()
    after.apply(first, 0)
    assert after.is_terminal() and after.outcome.result == "english"


def test_a_level_ship_does_not_run_and_a_behind_one_never_does():
    level = ahead_by_the_edge(0)
    assert not _leaves(level, candidates(level, 0, level.legal_actions(0))[0])
    behind = ahead_by_the_edge(0)
    behind.ships["Revenge"].flotation -= 1
    assert not any(_leaves(behind, m) for m in candidates(behind, 0, behind.legal_actions(0)))


def test_where_the_battle_is_fought_to_a_finish_a_lead_stays_on_the_table():
    """In a scenario where leaving the table counts as struck, the Revenge two points ahead by the
    edge gains nothing by sailing off (she would give the Spaniard her 50 flotation): no escape
    bound on the evaluation, and no run off the table among the moves the search tries."""
    state = duel(
        ship("Revenge", "english", 36, 3, 90),
        ship("San Martin", "spanish", 36, 20, 90, type="San Martin"),
        victory={"off-table": "struck"},
    )
    state.ships["San Martin"].flotation -= 2
    assert knowledge.can_escape(state, 0, Limits(state))
    assert evaluate(state, 0) < 2 + knowledge.HOLD + knowledge.seek_action(_sides(state))
    assert not any(_leaves(state, m) for m in candidates(state, 0, state.legal_actions(0)))
    off = next(m for m in state.legal_actions(0) if _leaves(state, m))
    scorer = knowledge.MoveScorer(state, state.ships["Revenge"])
    assert scorer.score(off) <= -state.ships["Revenge"].flotation - scorer.stays


def test_the_enemy_who_can_sail_away_level_makes_a_good_position_worth_no_more_than_a_draw():
    """A San Martin who has lost every battery is at the Revenge's mercy in mid-table; three inches
    from the edge she leaves the table next move at 0-0 and the battle ends a draw."""

    def with_martin_at(y: float):
        state = duel(
            ship("Revenge", "english", 30, 18, 90), ship("San Martin", "spanish", 44, y, 90, type="San Martin")
        )
        state.ships["San Martin"].batteries = []
        return state

    trapped = with_martin_at(18)
    assert not knowledge.can_escape(trapped, 1, Limits(trapped))
    assert evaluate(trapped, 0) - knowledge.seek_action(_sides(trapped)) > 0
    free = with_martin_at(33)
    assert knowledge.can_escape(free, 1, Limits(free))
    assert evaluate(free, 0) - knowledge.seek_action(_sides(free)) == pytest.approx(0)


def test_both_sides_wish_for_action_and_one_pass_gives_both_evaluations():
    far = duel(
        ship("Hope", "english", 5, 18, 90, type="Hope"), ship("San Martin", "spanish", 65, 18, 90, type="San Martin")
    )
    near = duel(
        ship("Hope", "english", 25, 18, 90, type="Hope"), ship("San Martin", "spanish", 45, 18, 90, type="San Martin")
    )
    assert knowledge.seek_action(_sides(far)) == pytest.approx(-knowledge.SEEK * 2 * (60 - 16))
    assert knowledge.seek_action(_sides(near)) == pytest.approx(-knowledge.SEEK * 2 * (20 - 16))
    for state in (far, near):
        assert evaluate_all(state) == pytest.approx((evaluate(state, 0), evaluate(state, 1)))


def _sides(state):
    sides = [[], []]
    for s in state.ships.values():
        if s.fighting:
            sides[s.side].append(Body(s))
    return sides


def _leaves(state, move) -> bool:
    x, y, _ = knowledge.end_pose(state.ships[move.ship], move)
    return not (0 <= x <= state.scenario.width and 0 <= y <= state.scenario.height)


def test_each_ship_sails_for_the_band_where_she_outguns_the_other():
    """Revenge's culverins outgun the San Martin at long range (8-16 in), the San Martin's short
    pieces the Revenge at short (rules 9 and 10): each sails for her own band, and whoever moves
    second (half the time, rule 3) has her way from where the first left the range. The Revenge,
    first in range, gains more from the fight to come."""
    state = duel(ship("Revenge", "english", 10, 18, 90), ship("San Martin", "spanish", 35, 18, 270, type="San Martin"))
    revenge, martin = Body(state.ships["Revenge"]), Body(state.ships["San Martin"])
    assert knowledge.preferred_band(revenge, martin) == (900, 1500)
    assert knowledge.preferred_band(martin, revenge) == (0, 300)
    mine, theirs = (800, knowledge.preferred_band(revenge, martin)), (600, knowledge.preferred_band(martin, revenge))
    reach, ranges = 2500.0, []
    for _ in range(3):
        reach = knowledge.next_range(reach, mine, theirs)
        ranges.append(reach)
    assert ranges == [1300, 800, 600]  # (1500 + 1100) / 2: the Revenge stops at long range, the Spaniard comes on
    assert knowledge.next_range(2500.0, theirs, mine) == ranges[0]  # the same whichever asks
    assert future(state, "Revenge") > future(state, "San Martin") > 0


def test_equal_ships_both_close_and_one_keeping_away_holds_the_range_only_when_faster():
    """Between equals the closest band (the fight decided soonest), closed at both runs; a ship that
    would keep out of range holds an equal one off, a slower one only slows the closing."""
    state = duel(ship("Hope", "english", 10, 18, 90, type="Hope"), ship("Hope 2", "spanish", 35, 18, 270, type="Hope"))
    hope, other = Body(state.ships["Hope"]), Body(state.ships["Hope 2"])
    assert knowledge.preferred_band(hope, other) == knowledge.preferred_band(other, hope) == (0, 300)
    closing, keeping_off = (500, (0, 300)), (500, knowledge.OUT_OF_RANGE)
    assert knowledge.next_range(2500.0, closing, closing) == 1500  # both runs
    assert knowledge.next_range(1000.0, closing, keeping_off) == 1000  # equal speeds: held
    assert knowledge.next_range(1000.0, (600, (0, 300)), keeping_off) == 900  # the difference
    assert knowledge.next_range(2000.0, closing, keeping_off) == 1600  # out of range she waits for him


def test_a_ship_the_wind_pins_against_the_edge_counts_as_leaving_the_fight():
    """San Cristobal close-hauled on a westerly (rule 2: no closer than 45 degrees), heading north-west
    half an inch from the north edge: every heading her 45-degree turn and the wind allow takes her
    shortest run off the table, so she must leave the fight. The evaluation counts it against her
    side while it is not ahead and fights on (the San Martin in mid-table cannot sail off with her),
    and her moves into such a place are the last the search tries."""

    def san_cristobal_at(y: float, heading: int):
        return duel(
            ship("Revenge", "english", 20, 18, 90),
            ship("San Cristobal", "spanish", 45, y, heading, type="San Cristobal"),
            ship("San Martin", "spanish", 40, 18, 270, type="San Martin"),
        )

    trapped, free = san_cristobal_at(35.5, 315), san_cristobal_at(35.5, 225)
    lim = Limits(trapped).now(trapped.ships["San Cristobal"])
    assert knowledge.pinned(trapped, Body(trapped.ships["San Cristobal"]), lim)
    assert not knowledge.pinned(free, Body(free.ships["San Cristobal"]), Limits(free).now(free.ships["San Cristobal"]))
    assert evaluate(trapped, 1) < evaluate(free, 1) - knowledge.PINNED / 2
    near_edge = to_movement(
        position(
            [
                ship("Revenge", "english", 20, 18, 90),
                ship("San Cristobal", "spanish", 45, 31, 315, type="San Cristobal"),
            ],
            wind="W",
        ),
        first=1,
    )
    best = candidates(near_edge, 1, near_edge.legal_actions(1))[0]
    after = near_edge.clone()
    after.apply(best, 1)
    moved = after.ships["San Cristobal"]
    assert not knowledge.pinned(after, Body(moved), Limits(after).next(moved))


def test_a_side_behind_stays_to_fight_for_the_points_it_lacks():
    """Leaving while behind loses the battle by one point as surely as by ten (rulings, "Victory"):
    the Revenge two flotation down and with no battery left, by an edge she could sail off, is
    valued by the fight to come, worse than the two points she is down, and the San Martin's value
    is not capped at her lead by an escape that would hand her the battle."""
    state = ahead_by_the_edge(0)
    state.ships["Revenge"].flotation -= 2
    state.ships["Revenge"].batteries = []
    assert knowledge.can_escape(state, 0, Limits(state))
    seek = knowledge.seek_action(_sides(state))
    assert evaluate(state, 0) - seek < -2
    assert evaluate(state, 1) - seek > 2


def broadside_due(options=None):
    """Revenge and San Martin have sailed 1" each, San Martin 5" off Revenge's port beam: fire is due."""
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 90, type="San Martin")],
            options=options,
        )
    )
    play(state, "move Revenge turn 0 run 1.00 turn 0")
    play(state, "move San Martin turn 0 run 1.00 turn 0")
    return state


def six_struck():
    """Revenge's port broadside scores one six on San Martin: her owner is to remove a battery."""
    state = broadside_due()
    play(state, "fire Revenge port at San Martin")
    for value in (6, 1, 1, 1, 1):
        roll(state, value)
    return state


def boarders_to_choose():
    """Revenge's boarders have fought both rounds (every die a 1): she withdraws or fights on (rule 12)."""
    state = boarded()
    while state.current_player() == CHANCE:
        roll(state, 1)
    return state


def end_of_move_with_prizes():
    """Both sides have sailed 1" apart, nothing in range: the English say whether Revenge strikes."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], options={"prizes": True}))
    play(state, "move Revenge turn 0 run 1.00 turn 0")
    play(state, "move San Martin turn 0 run 1.00 turn 0")
    return state


@pytest.mark.parametrize(
    ("step", "setup", "player"),
    [
        ("fire", broadside_due, 0),
        ("gunners", lambda: boarded({"crews": True}), 0),
        ("damage", six_struck, 1),
        ("withdraw", boarders_to_choose, 0),
        ("end", end_of_move_with_prizes, 0),
    ],
)
def test_the_searching_captain_decides_every_kind_of_step(step, setup, player):
    """The computer plays every decision of the book by searching over the actions offered: a broadside
    (rule 9), the men kept at the guns in a boarding (optional rule 5), the battery a six takes (rule 11),
    whether boarders withdraw or fight on (rule 12) and whether to strike at the end of the move
    (optional rule 6)."""
    state = setup()
    assert due(state) == ("decide", step) and state.current_player() == player
    choice = make_agent("mcts:iterations=30", seed=1).act(state.clone(), player)
    assert choice in state.legal_actions(player)


def test_playouts_sail_a_prize_for_her_captor_and_never_for_her_own_side():
    """Optional rule 6: a prize moves for the side that took her. Shannon has secured Chesapeake;
    in the search's playouts the Americans move Essex, never Chesapeake, and the British may sail
    their prize (a playout once moved her for her own side and the search stopped on it)."""
    state = secured(prize_crew=40)
    rng = random.Random(3)
    spanish_moves = {knowledge.rollout_policy(state, 1, rng).ship for _ in range(20)}
    english_moves = {knowledge.rollout_policy(state, 0, rng).ship for _ in range(20)}
    assert spanish_moves == {"Essex"}
    assert english_moves <= {"Shannon", "Chesapeake"}
