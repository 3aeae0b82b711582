"""Alternative initial dispositions: Attack at Dawn (secret, simultaneous) and Marching Orders."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import PhaseChanged, Placed, Revealed, Submitted
from quarterdeck.core.protocol import SIMULTANEOUS
from quarterdeck.games.napoleonic_chess.actions import Place

from .helpers import BLACK, GAME, RED, battle, events_of, legal_texts, play


def deploy(state, player: int, count: int | None = None, last: bool = False) -> list:
    """Place `count` units (all that are left by default), each on the first or last free square."""
    events = []
    while state.phase.endswith("deployment") and player in state.acting_players() and count != 0:
        actions = state.legal_actions(player)
        events += state.apply(actions[-1] if last else actions[0], player)
        count = None if count is None else count - 1
    return events


# --- Attack at Dawn ------------------------------------------------------------------------------
def test_attack_at_dawn_both_sides_deploy_at_once():
    state = GAME.new_initial_state("attack-at-dawn")
    assert state.current_player() == SIMULTANEOUS
    assert state.acting_players() == [RED, BLACK]
    with pytest.raises(IllegalAction) as error:
        state.legal_actions()
    assert error.value.rule == "turn-order"
    red_squares = {action.square for action in state.legal_actions(RED)}
    assert {state.scenario.square_name(s) for s in red_squares} == {f"{f}{r}" for f in "abcdefgh" for r in (2, 3)}
    assert {action.kind for action in state.legal_actions(BLACK)} == {"infantry", "cavalry", "artillery", "guards"}


def test_attack_at_dawn_a_placement_is_secret_until_both_commit():
    state = GAME.new_initial_state("attack-at-dawn")
    black_view = state.to_json(viewer=BLACK)
    black_observation = state.observe(BLACK).to_json()
    events = deploy(state, RED, count=5)
    assert events == []  # nothing public happens
    assert state.to_json(viewer=BLACK) == black_view
    assert state.observe(BLACK).to_json() == black_observation
    assert len(state.to_json(viewer=RED)["hidden"]["red"]) == 5
    assert state.to_json()["hidden"]["red"]  # the omniscient save keeps everything
    assert not state.board


def test_attack_at_dawn_committing_is_public_but_the_plan_is_not():
    state = GAME.new_initial_state("attack-at-dawn")
    events = deploy(state, RED)
    assert events == [Submitted("red")]
    assert state.acting_players() == [BLACK]
    assert state.legal_actions(RED) == []
    view = state.to_json(viewer=BLACK)
    assert view["hidden"]["red"] == [] and view["to_place"]["red"] == {}
    with pytest.raises(IllegalAction) as error:
        state.apply(Place("infantry", (0, 1)), RED)
    assert error.value.rule == "turn-order"


def test_attack_at_dawn_plans_are_revealed_together_and_battle_begins_red_first():
    state = GAME.new_initial_state("attack-at-dawn")
    deploy(state, BLACK, last=True)
    events = deploy(state, RED)
    assert events_of(events, Submitted) == [Submitted("red")]
    assert events_of(events, Revealed) == [Revealed(("red", "black"))]
    assert len(events_of(events, Placed)) == 30
    assert len(state.board) == 30
    assert state.current_player() == RED and state.phase == "move"
    assert events_of(events, PhaseChanged)[-1].player == "red"


def test_attack_at_dawn_deployment_rules():
    state = GAME.new_initial_state("attack-at-dawn")
    for text, rule in (("place infantry d4", "deployment-zone"), ("place infantry d6", "deployment-zone")):
        with pytest.raises(IllegalAction) as error:
            play(state, text, player=RED)
        assert error.value.rule == rule
    play(state, "place guards d2", player=RED)
    with pytest.raises(IllegalAction) as error:
        play(state, "place guards e2", player=RED)
    assert error.value.rule == "deployment-roster"
    with pytest.raises(IllegalAction) as error:
        play(state, "place infantry d2", player=RED)
    assert error.value.rule == "no-sharing"


def test_attack_at_dawn_each_side_places_every_unit_of_its_roster():
    state = GAME.new_initial_state("attack-at-dawn")
    deploy(state, RED, last=True)
    deploy(state, BLACK)
    for army in (RED, BLACK):
        kinds = [unit.kind.name for unit in state.board.values() if unit.army == army]
        assert sorted(kinds) == sorted(["infantry"] * 8 + ["cavalry"] * 4 + ["artillery"] * 2 + ["guards"])


# --- Marching Orders -----------------------------------------------------------------------------
def test_marching_orders_sides_alternate_one_unit_at_a_time():
    state = GAME.new_initial_state("marching-orders")
    order = []
    while state.phase == "deployment":
        player = state.current_player()
        order.append(player)
        events = state.apply(state.legal_actions()[0])
        assert len(events_of(events, Placed)) == 1  # placements are public
        if state.phase == "deployment":  # each hand-over is announced to the army that places next
            assert events_of(events, PhaseChanged) == [
                PhaseChanged(state.players[state.current_player()], "deployment", 0)
            ]
    assert order == [RED, BLACK] * 15
    assert state.phase == "move" and state.current_player() == RED
    assert len(state.board) == 30


def test_marching_orders_option_places_more_per_turn():
    state = GAME.new_initial_state("marching-orders", {"placements_per_turn": 3})
    order = []
    while state.phase == "deployment":
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order[:9] == [RED] * 3 + [BLACK] * 3 + [RED] * 3
    assert len(order) == 30


def test_marching_orders_the_larger_army_finishes_alone():
    units = [
        {"army": "red", "type": "guards"},
        {"army": "red", "type": "infantry"},
        {"army": "black", "type": "guards"},
        {"army": "black", "type": "infantry", "count": 3},
    ]
    state = battle({}, units=units, deployment="alternate")
    order = []
    while state.phase == "deployment":
        order.append(state.current_player())
        state.apply(state.legal_actions()[-1])
    assert order == [RED, BLACK, RED, BLACK, BLACK, BLACK]


def test_marching_orders_placement_stays_in_the_armys_ranks():
    state = GAME.new_initial_state("marching-orders")
    assert all(action.square[1] in (1, 2) for action in state.legal_actions())
    play(state, "place artillery a2")
    assert all(action.square[1] in (5, 6) for action in state.legal_actions())
    assert "place artillery a7" in legal_texts(state)


def test_marching_orders_a_save_before_the_battle_counts_nothing_and_the_last_placement_opens_turn_1():
    state = GAME.new_initial_state("marching-orders")
    assert state.describe() == "deployment: red to place"
    saved = state.to_json()
    assert (saved["turn"], saved["quiet_turns"], saved["turn_eliminations"], saved["history"]) == (0, 0, 0, {})
    while state.phase == "deployment":
        events = state.apply(state.legal_actions()[0])
    assert events_of(events, PhaseChanged) == [PhaseChanged("red", "move", 1)]
    assert state.describe() == "turn 1: red to move"
