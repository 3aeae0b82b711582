"""Optional terrain: hills, redoubts and square-border obstacles."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Attacked, Eliminated, Survived
from quarterdeck.games.napoleonic_chess.terrain import RedoubtBuilt

from .helpers import BLACK, GAME, GUARDS, RED, battle, events_of, legal_texts, play


def rule_of(state, text: str) -> str:
    with pytest.raises(IllegalAction) as error:
        play(state, text)
    return error.value.rule


def fate(events, square: str):
    return next(e for e in events if isinstance(e, Eliminated | Survived) and e.square == square)


def pass_turns(state, count: int) -> list:
    """Both sides end their movement `count` times each (nothing attacks in these positions)."""
    events = []
    for _ in range(count):
        events += play(state, "end-move", player=RED)
        events += play(state, "end-move", player=BLACK)
    return events


# --- hills ---------------------------------------------------------------------------------------
def test_hill_adds_one_to_the_defence():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, terrain={"hills": ["d5"]})
    events = play(state, "end-move", "attack d4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 2)
    assert isinstance(fate(events, "d5"), Survived)


def test_hill_bonus_lost_when_an_attacker_stands_on_an_adjacent_hill():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, terrain={"hills": ["d4", "d5"]})
    events = play(state, "end-move", "attack d4xd5")
    assert isinstance(fate(events, "d5"), Eliminated)


def test_hill_bonus_lost_when_at_least_one_of_several_attackers_is_on_a_hill():
    state = battle(
        {**GUARDS, "c5": "red infantry", "d4": "red infantry", "d5": "black guards"}, terrain={"hills": ["d5", "c5"]}
    )
    events = play(state, "end-move", "attack c5xd5", "attack d4xd5")
    assert fate(events, "d5").defence == 2


def test_hill_no_unit_moves_on_and_off_a_hill_in_one_move():
    state = battle({**GUARDS, "c3": "red cavalry", "d3": "red cavalry"}, terrain={"hills": ["c4", "e4", "e5"]})
    assert rule_of(state, "move c3-c5") == "hill-movement"
    assert "move c3-c5" not in legal_texts(state)
    assert {"move c3-c4", "move d3-e4", "move d3-f5"} - set(legal_texts(state)) == {"move d3-f5"}
    play(state, "move c3-c4")  # going onto the hill is fine


def test_hill_leaving_a_hill_is_free_when_the_move_did_not_come_onto_it():
    state = battle({**GUARDS, "d4": "red cavalry"}, terrain={"hills": ["d4", "d5"]})
    assert {"move d4-d6", "move d4-f6", "move d4-d5"} <= set(legal_texts(state))


def test_hill_a_unit_that_came_onto_a_hill_this_turn_may_not_advance_off_it():
    state = battle({**GUARDS, "d3": "red artillery", "d5": "black infantry"}, terrain={"hills": ["d4"]})
    play(state, "move d3-d4", "end-move", "attack d4xd5")
    assert state.phase == "move" and state.current_player() == BLACK  # the only advance was barred


# --- redoubts ------------------------------------------------------------------------------------
def test_redoubt_is_built_after_three_turns_of_uninterrupted_occupation():
    state = battle({**GUARDS, "d4": "red infantry"}, redoubts={})
    events = pass_turns(state, 2)
    assert not events_of(events, RedoubtBuilt)
    events = play(state, "end-move", player=RED)
    built = events_of(events, RedoubtBuilt)
    assert {(b.piece, b.square) for b in built} == {("red-infantry-1", "d4"), ("red-guards-1", "a1")}
    assert (3, 3) in state.redoubts


def test_redoubt_building_is_interrupted_when_the_unit_leaves():
    state = battle({**GUARDS, "d4": "red infantry"}, redoubts={"sites": ["d4", "d5"]})
    pass_turns(state, 2)
    play(state, "move d4-d5", "end-move", player=RED)
    play(state, "end-move", player=BLACK)
    play(state, "move d5-d4", "end-move", player=RED)
    assert not state.redoubts
    assert state.works[(3, 3)] == ("red-infantry-1", 1)


def test_redoubt_only_on_its_sites_and_after_the_agreed_number_of_turns():
    state = battle({**GUARDS, "d4": "red infantry"}, redoubts={"sites": ["d4"]}, options={"redoubt_turns": 1})
    events = play(state, "end-move")
    assert [b.square for b in events_of(events, RedoubtBuilt)] == ["d4"]
    assert state.redoubts == {(3, 3)}


def test_redoubt_once_built_is_no_longer_work_in_progress_so_stepping_off_and_back_repeats():
    # Built after two turns on d4; then the infantry steps off and back, Black standing still. The
    # position with Black to play and the infantry in its redoubt comes back every other Red turn,
    # the first time right after the redoubt was built: the third time is a draw.
    state = battle({**GUARDS, "d4": "red infantry"}, redoubts={"turns": 2, "sites": ["d4"]})
    play(state, "end-move", player=RED)
    play(state, "end-move", player=BLACK)
    events = play(state, "end-move", player=RED)
    assert [b.square for b in events_of(events, RedoubtBuilt)] == ["d4"]
    for _ in range(2):
        play(state, "end-move", player=BLACK)
        play(state, "move d4-d5", "end-move", player=RED)
        play(state, "end-move", player=BLACK)
        assert not state.is_terminal()
        events = play(state, "move d5-d4", "end-move", player=RED)
    assert state.is_terminal() and "repetition" in state.outcome.reason


def test_redoubt_the_scenario_may_agree_on_a_single_turn_of_digging():
    state = battle({**GUARDS, "d4": "red infantry"}, redoubts={"turns": 1, "sites": ["d4"]})
    events = play(state, "end-move")
    assert [(b.piece, b.square) for b in events_of(events, RedoubtBuilt)] == [("red-infantry-1", "d4")]


def test_redoubt_every_unit_of_the_army_digs_wherever_the_enemy_and_other_redoubts_stand():
    # Black's infantry on b6 and the redoubt already on c2 lie between Red's Guards and d4 on the board.
    state = battle(
        {**GUARDS, "c2": "red infantry", "b6": "black infantry", "d4": "red infantry"},
        redoubts={"turns": 1, "sites": ["c2", "d4"], "built": ["c2"]},
    )
    events = play(state, "end-move")
    assert [b.square for b in events_of(events, RedoubtBuilt)] == ["d4"]
    assert state.redoubts == {(2, 1), (3, 3)}


def test_redoubt_functions_as_a_hill():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, redoubts={"built": ["d5"]})
    events = play(state, "end-move", "attack d4xd5")
    assert fate(events, "d5").defence == 2


def test_redoubt_dug_on_a_hill_still_gives_one_not_two():
    # A redoubt "functions as for Hills": on a hill it adds nothing more than the hill does.
    state = battle(
        {**GUARDS, "d4": "red infantry", "d5": "black infantry"}, terrain={"hills": ["d5"]}, redoubts={"built": ["d5"]}
    )
    events = play(state, "end-move", "attack d4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (1, 2)


def test_redoubt_artillery_attacking_into_a_redoubt_attacks_at_1():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, redoubts={"built": ["d5"]})
    events = play(state, "end-move", "attack d4xd5")
    assert events_of(events, Attacked)[0].value == 1


def test_redoubt_artillery_cannot_enter_the_enemy_redoubt_that_falls():
    state = battle(
        {**GUARDS, "d4": "red artillery", "c4": "red cavalry", "e4": "red cavalry", "d5": "black infantry"},
        redoubts={"built": ["d5"]},
    )
    events = play(state, "end-move", "attack d4xd5", "attack c4xd5", "attack e4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (3, 2)
    assert legal_texts(state) == ["advance c4>d5", "advance e4>d5", "end-advance"]
    assert rule_of(state, "advance d4>d5") == "redoubt-advance"


def test_redoubt_does_not_weaken_other_arms():
    state = battle({**GUARDS, "c4": "red cuirassiers", "d5": "black infantry"}, redoubts={"built": ["d5"]})
    events = play(state, "end-move", "attack c4xd5")
    assert events_of(events, Attacked)[0].value == 2


# --- obstacles -----------------------------------------------------------------------------------
STREAM = {"obstacles": ["d4|d5"]}


def test_obstacle_adds_one_when_it_lies_between_the_defender_and_every_attacker():
    state = battle({**GUARDS, "d4": "red infantry", "c4": "red cavalry", "d5": "black infantry"}, terrain=STREAM)
    events = play(state, "end-move", "attack d4xd5", "attack c4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 2)


def test_obstacle_gives_nothing_when_one_attacker_is_not_across_it():
    state = battle({**GUARDS, "d4": "red infantry", "c5": "red infantry", "d5": "black infantry"}, terrain=STREAM)
    events = play(state, "end-move", "attack d4xd5", "attack c5xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 1)


def test_obstacle_a_diagonal_attack_crosses_it_only_on_the_defenders_side():
    state = battle({**GUARDS, "e6": "red cavalry", "d5": "black infantry"}, terrain=STREAM)
    events = play(state, "end-move", "attack e6xd5")
    assert fate(events, "d5").defence == 1


def test_obstacle_a_diagonal_attack_across_the_corner_of_the_defenders_side_edge():
    # The hedge runs along d5's west side; cavalry from c4 comes in over the corner it meets.
    state = battle({**GUARDS, "c4": "red cavalry", "d5": "black infantry"}, terrain={"obstacles": ["c5|d5"]})
    events = play(state, "end-move", "attack c4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (1, 2)
    # From e4 the cavalry comes in over d5's south-east corner, which the hedge does not touch.
    state = battle({**GUARDS, "e4": "red cavalry", "d5": "black infantry"}, terrain={"obstacles": ["c5|d5"]})
    events = play(state, "end-move", "attack e4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (1, 1)


def test_obstacle_a_diagonal_attack_from_the_north_east_crosses_the_hedges_meeting_that_corner():
    # d5's north and east sides each meet the corner that cavalry on e6 comes in over.
    for hedge in ("d5|d6", "d5|e5"):
        state = battle({**GUARDS, "e6": "red cavalry", "d5": "black infantry"}, terrain={"obstacles": [hedge]})
        events = play(state, "end-move", "attack e6xd5")
        assert (fate(events, "d5").attack, fate(events, "d5").defence) == (1, 2), hedge


def test_obstacle_artillery_attacks_across_it_at_1():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"}, terrain=STREAM)
    events = play(state, "end-move", "attack d4xd5")
    assert events_of(events, Attacked)[0].value == 1
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (1, 2)


def test_obstacle_and_hill_add_up():
    state = battle(
        {**GUARDS, "d4": "red artillery", "c5": "red horse-artillery", "d5": "black guards"},
        terrain={"obstacles": ["d4|d5", "c5|d5"], "hills": ["d5"]},
    )
    events = play(state, "end-move", "attack d4xd5", "attack c5xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 4)


def test_terrain_scenario_has_every_feature():
    state = GAME.new_initial_state("terrain")
    assert state.scenario.hills and state.scenario.obstacles and state.scenario.redoubts_enabled
    assert state.scenario.redoubt_turns == 3


def test_redoubt_counts_as_a_hill_for_movement_and_for_the_attacker():
    state = battle(
        {**GUARDS, "c3": "red cavalry", "d6": "red artillery", "d7": "black infantry"},
        redoubts={"built": ["c4", "d6", "d7"]},
    )
    assert rule_of(state, "move c3-c5") == "hill-movement"
    events = play(state, "end-move", "attack d6xd7")
    assert fate(events, "d7").defence == 1  # the attacker stands on high ground too


def test_redoubt_rules_for_artillery_apply_to_heavy_infantry():
    state = battle({**GUARDS, "d4": "red heavy-infantry", "d5": "black infantry"}, redoubts={"built": ["d5"]})
    events = play(state, "end-move", "attack d4xd5")
    assert events_of(events, Attacked)[0].value == 1
