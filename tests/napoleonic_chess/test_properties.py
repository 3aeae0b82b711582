"""Property tests: random legal play from every scenario keeps the rules' invariants, saves and
notation round-trip, records replay, illegal actions change nothing, secrets never leak."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Placed, Submitted
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.napoleonic_chess.actions import Advance, Attack, EndPhase, Move, Place, Support

from .helpers import GAME

SCENARIOS = [info.name for info in GAME.scenarios()]
# Every scenario as shipped, plus option variants that reach rarer rules in short games.
SETUPS = [(name, {}) for name in SCENARIOS] + [
    ("terrain", {"redoubt_turns": 1}),
    ("standard", {"deployment": "secret"}),
    ("three-armies", {"deployment": "alternate", "placements_per_turn": 2}),
]
PLAYOUT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 300
setups = st.sampled_from(SETUPS)
# A lazy player ends phases early now and then, so units stand still (redoubts, repetitions).
laziness = st.sampled_from([0.0, 0.3])


def choose(state, rng: random.Random, lazy: float):
    """A random acting player and one of its legal actions."""
    player = rng.choice(state.acting_players())
    legal = state.legal_actions(player)
    if rng.random() < lazy and isinstance(legal[-1], EndPhase):
        return player, legal[-1]
    return player, rng.choice(legal)


@PLAYOUT
@given(setup=setups, lazy=laziness, seed=st.integers(0, 2**32))
def test_random_play_keeps_the_invariants(setup, lazy, seed):
    rng = random.Random(seed)
    state = GAME.new_initial_state(*setup)
    grid = state.scenario.grid
    used: dict[tuple[int, str], set[str]] = {}  # (turn, kind of act) -> units that did it
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        for player in state.acting_players():  # never a dead end: something is always legal
            assert state.legal_actions(player)
        turn = state.turn
        player, action = choose(state, rng, lazy)
        actor = state.action_piece(action)
        state.apply(action, player)
        if isinstance(action, Move | Attack | Support | Advance):
            acted = used.setdefault((turn, type(action).__name__), set())
            assert actor not in acted, f"{actor} did {type(action).__name__} twice in turn {turn}"
            acted.add(actor)
        ids = [unit.id for unit in state.board.values()]
        assert len(ids) == len(set(ids))  # a unit stands on one square, a square holds one unit
        assert all(grid.contains(square) for square in state.board)
        assert all(unit_id in ids for unit_id in state.attacks)


@PLAYOUT
@given(setup=setups, lazy=laziness, seed=st.integers(0, 2**32))
def test_json_and_notation_round_trip_for_every_legal_action(setup, lazy, seed):
    rng = random.Random(seed)
    state = GAME.new_initial_state(*setup)
    for step in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        for player in state.acting_players():
            for action in state.legal_actions(player):
                assert state.parse_action(state.action_to_text(action), player) == action
        if step % 15 == 0:
            data = state.to_json()
            restored = GAME.state_from_json(data)
            assert restored.to_json() == data
            assert restored.acting_players() == state.acting_players()
            for player in state.acting_players():
                assert restored.legal_actions(player) == state.legal_actions(player)
                viewed = GAME.state_from_json(state.to_json(viewer=player))
                assert viewed.to_json() == state.to_json(viewer=player)
        player, action = choose(state, rng, lazy)
        state.apply(action, player)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, lazy=laziness, seed=st.integers(0, 2**32))
def test_a_match_record_replays_to_the_same_state(setup, lazy, seed):
    rng = random.Random(seed)
    match = Match(GAME, *setup, seed=seed)
    for _ in range(MAX_ACTIONS):
        if match.state.is_terminal():
            break
        player, action = choose(match.state, rng, lazy)
        match.play(action, player)
    text = match.record().to_text()
    replayed = Record.parse(text).final_state(GAME)
    assert replayed.to_json() == match.state.to_json()


def random_action(state, rng: random.Random):
    """Any action of the game's kinds, legal or not, on random squares."""
    grid = state.scenario.grid

    def square():
        return (rng.randrange(grid.width), rng.randrange(grid.height))

    kind = rng.randrange(6)
    if kind == 0:
        return Place(rng.choice(list(state.scenario.unit_types)), square())
    if kind == 5:
        return EndPhase(rng.choice(["move", "attack", "support", "advance"]))
    return (Move, Attack, Support, Advance)[kind - 1](square(), square())


@PLAYOUT
@given(setup=setups, seed=st.integers(0, 2**32))
def test_illegal_actions_change_nothing(setup, seed):
    rng = random.Random(seed)
    state = GAME.new_initial_state(*setup)
    for _ in range(120):
        if state.is_terminal():
            break
        player = rng.choice(state.acting_players())
        legal = state.legal_actions(player)
        before = state.to_json()
        for _ in range(5):
            action = random_action(state, rng)
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                state.apply(action, player)
            assert state.to_json() == before
        other = rng.randrange(len(state.players))
        if other not in state.acting_players():
            with pytest.raises(IllegalAction):
                state.apply(rng.choice(legal), other)
            assert state.to_json() == before
        state.apply(rng.choice(legal), player)


def views_of(state, viewer: int) -> tuple:
    """Everything `viewer` can learn through the protocol."""
    observed = state.observe(viewer)
    return (
        observed.to_json(),
        state.to_json(viewer=viewer),
        [state.action_to_text(a) for a in state.legal_actions(viewer)],
        [observed.action_to_text(a) for a in observed.legal_actions(viewer)],
        state.acting_players(),
        state.current_player(),
        state.describe(),
    )


SECRET_SETUPS = [("attack-at-dawn", {}), ("three-armies", {"deployment": "secret"})]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SECRET_SETUPS),
    first_plan=st.lists(st.integers(0, 10_000), max_size=30),
    second_plan=st.lists(st.integers(0, 10_000), max_size=30),
    others_plan=st.lists(st.integers(0, 10_000), max_size=12),
    commit=st.booleans(),
)
def test_hidden_deployments_never_leak(setup, first_plan, second_plan, others_plan, commit):
    """Two different secret plans of the first army look the same to every other army."""
    scenario, options = setup
    views = []
    for plan in (first_plan, second_plan):
        state = GAME.new_initial_state(scenario, options)
        secret_army = state.scenario.turn_order[0]
        others = [p for p in range(len(state.players)) if p != secret_army]
        for choice in others_plan:  # the same partial plans for the others, never complete
            for other in others:
                actions = state.legal_actions(other)
                if sum(state.to_place[other].values()) > 1:
                    state.apply(actions[choice % len(actions)], other)
        events = []
        roster_size = sum(state.to_place[secret_army].values())
        placements = plan + [0] * roster_size if commit else plan[: roster_size - 1]
        for choice in placements:
            actions = state.legal_actions(secret_army)
            if not actions:
                break
            events += state.apply(actions[choice % len(actions)], secret_army)
        assert all(isinstance(event, Submitted) for event in events)  # no square, no unit, no count
        assert not any(isinstance(event, Placed) for event in events)
        assert (secret_army in state.acting_players()) != commit
        views.append({other: views_of(state, other) for other in others})
    assert views[0] == views[1]
