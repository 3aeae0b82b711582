"""Napoleonic Chess knowledge for the agents: the evaluation plays out the attacks that are sure to
succeed, pulls the line forward and marks a lead down as the draw by quiet turns comes near, so that
a search forces progress instead of drifting into the draw."""

from __future__ import annotations

import random

from quarterdeck.ai import make_agent
from quarterdeck.ai.knowledge import WIN_VALUE
from quarterdeck.games.napoleonic_chess.evaluate import _next_turn_key, _strikers, _sure_kills, evaluate, evaluate_all

from ..napoleonic_chess.helpers import BLACK, GAME, GUARDS, RED, battle, play

# The book's worked example: Black's artillery on d6 with infantry on c6, e6 and d7 around it.
DEFENDERS = {"d6": "black artillery", "c6": "black infantry", "e6": "black infantry", "d7": "black infantry"}


def square(state, name):
    return state.scenario.grid.parse(name)


def red(state):
    return state.scenario.armies[RED].alliance


def test_a_lone_unit_under_a_heavy_enough_attack_is_a_sure_kill():
    state = battle({**GUARDS, "d4": "red artillery", "c5": "red infantry", "d5": "black infantry"})
    assert _sure_kills(state, red(state), declared=False) == {square(state, "d5")}


def test_supporters_hold_a_target_unless_attacks_pin_them():
    held = battle({**GUARDS, **DEFENDERS, "d5": "red artillery", "e5": "red cavalry"})
    assert square(held, "d6") not in _sure_kills(held, red(held), declared=False)
    pinned = battle(
        {**GUARDS, **DEFENDERS, "d5": "red artillery", "e5": "red cavalry", "c5": "red infantry", "f5": "red cavalry"}
    )
    assert square(pinned, "d6") in _sure_kills(pinned, red(pinned), declared=False)


def test_the_side_to_strike_is_credited_with_its_sure_kills():
    layout = {**GUARDS, **DEFENDERS, "e5": "red cavalry", "c5": "red infantry", "f5": "red cavalry"}
    striking = battle({**layout, "d5": "red artillery"})
    out_of_reach = battle({**layout, "d4": "red artillery"})
    assert evaluate(striking, RED) > evaluate(out_of_reach, RED) + 1.0
    assert evaluate(striking, BLACK) == -evaluate(striking, RED)


def test_units_nearer_the_enemy_ranks_score_better():
    forward = battle({**GUARDS, "d5": "red infantry"})
    back = battle({**GUARDS, "d2": "red infantry"})
    assert evaluate(forward, RED) > evaluate(back, RED)


def test_a_lead_is_marked_down_as_the_quiet_turns_run_out():
    state = battle({**GUARDS, "b2": "red artillery", "c2": "red cavalry"})
    fresh = evaluate(state, RED)
    state.quiet_turns = state.scenario.quiet_turn_limit - 2
    assert 0 < evaluate(state, RED) < fresh


def test_after_the_attacks_the_other_side_strikes_next():
    state = battle(
        {**GUARDS, **DEFENDERS, "d5": "red artillery", "e5": "red cavalry", "c5": "red infantry", "f5": "red cavalry"}
    )
    assert _strikers(state) == (red(state), state.scenario.armies[BLACK].alliance)
    play(state, "end-move", "attack d5xd6", "attack e5xd6", "attack c5xc6", "attack f5xe6")
    if state.phase == "support":  # every attacker has attacked: the attack phase ended by itself
        play(state, "end-support")
    assert state.phase == "advance"
    assert _strikers(state) == (state.scenario.armies[BLACK].alliance, red(state))


def test_a_search_declares_the_attacks_that_break_the_line():
    state = battle(
        {**GUARDS, **DEFENDERS, "d5": "red artillery", "e5": "red cavalry", "c5": "red infantry", "f5": "red cavalry"}
    )
    play(state, "end-move")
    agent = make_agent("mcts:iterations=150", seed=3)
    while state.current_player() == RED and state.phase == "attack":
        state.apply(agent.act(state, RED), RED)
    attacked = set(state.attacks.values())
    assert square(state, "d6") in attacked
    assert {square(state, "c6"), square(state, "e6")} <= attacked


def test_the_evaluation_is_zero_sum_in_the_standard_battle():
    state = GAME.new_initial_state("standard")
    assert evaluate(state, BLACK) == -evaluate(state, RED)


def test_attacks_beyond_the_sure_kills_overload_the_supports():
    state = battle(
        {**GUARDS, "d5": "red artillery", "e5": "red artillery", "d6": "black infantry", "e6": "black infantry"}
    )
    # Planned one target at a time, the second artillery only pins e6 so that d6 falls; attacking
    # costs nothing, and with both attacked neither can support the other: both fall.
    assert _sure_kills(state, red(state), declared=False) == {square(state, "d6")}
    both = {square(state, "d6"), square(state, "e6")}
    assert _sure_kills(state, red(state), declared=False, overload=True) == both


def test_a_turn_ending_in_a_position_seen_before_gives_up_the_lead():
    state = battle({**GUARDS, "b2": "red artillery", "c2": "red cavalry"})
    fresh = evaluate(state, RED)
    state.history = {**state.history, _next_turn_key(state): 1}
    once = evaluate(state, RED)
    assert 0 < once < fresh
    state.history = {**state.history, _next_turn_key(state): 2}
    assert evaluate(state, RED) == 0.0  # a third time: the draw by repetition


def test_units_closing_on_the_enemy_guards_score_better():
    near = battle({**GUARDS, "g6": "red infantry"})
    far = battle({**GUARDS, "b6": "red infantry"})
    assert evaluate(near, RED) > evaluate(far, RED)


def test_once_the_enemy_guards_leave_their_ranks_the_line_pursues_them():
    # Red's Guards have fled into Black's half: Black's line, on Red's empty ranks, goes after them
    # (pulled back to the ranks, a side five units up drew by 50 quiet turns against the Guards alone)
    fled = {"g7": "red guards", "e8": "black guards"}
    on_the_ranks = battle({**fled, "d3": "black infantry"})
    in_pursuit = battle({**fled, "e4": "black infantry"})
    assert evaluate(in_pursuit, BLACK) > evaluate(on_the_ranks, BLACK)
    # while the Guards stand in their ranks or just behind them, the ranks are where the line goes
    home = {"e1": "red guards", "e8": "black guards"}
    on_the_ranks = battle({**home, "a3": "black infantry"})
    ahead_of_them = battle({**home, "d4": "black infantry"})
    assert evaluate(on_the_ranks, BLACK) > evaluate(ahead_of_them, BLACK)


def test_a_sure_strike_on_the_last_guards_reads_as_the_battle_won():
    # Red to move, two artillery orthogonal to Black's Guards: 4 against 2, nothing to support them
    guns = {"a1": "red guards", "e4": "red artillery", "d5": "red artillery"}
    doomed = battle({**guns, "e5": "black guards"})
    assert evaluate(doomed, RED) == WIN_VALUE and evaluate(doomed, BLACK) == -WIN_VALUE
    # a supporter the second gun cannot pin holds the Guards at 2 against 3: a strike, not the battle
    held = battle({"a1": "red guards", "e4": "red artillery", "e5": "black guards", "e6": "black infantry"})
    assert abs(evaluate(held, RED)) < WIN_VALUE
    # an army with a second Guards out of reach fights on after losing the first
    second = battle({**guns, "e5": "black guards", "h8": "black guards"})
    assert abs(evaluate(second, RED)) < WIN_VALUE
    # once Red's turn has passed without the attacks, Black moves first and the verdict is gone
    play(doomed, "end-move", "end-attack")
    assert abs(evaluate(doomed, RED)) < WIN_VALUE


def test_every_army_is_evaluated_at_once_exactly_as_on_its_own():
    """The search scores each leaf for every seat in one pass: two alliances share one evaluation
    negated, and the three-army battle's coalition partners share theirs."""
    for scenario in ("standard", "three-armies"):
        rng = random.Random(7)
        state = GAME.new_initial_state(scenario, {}, 7)
        scored = []
        while not state.is_terminal() and len(scored) < 200:
            seats = len(state.players)
            if state.current_player() >= 0:
                scored.append([evaluate(state, seat) for seat in range(seats)])
                assert evaluate_all(state) == scored[-1]
            state.apply(rng.choice(state.legal_actions(state.current_player())), state.current_player())
        assert len(scored) >= 100 and sum(1 for values in scored if values[0]) >= 90  # positions with a lead
