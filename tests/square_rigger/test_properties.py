"""Property tests: random legal play from every scenario never breaks an invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.square_rigger.turn import MOVE

from .helpers import GAME

SCENARIOS = [info.name for info in GAME.scenarios()]


def touching_friends(state):
    ships = [n for n in state.setup.ships if state.is_active(n)]
    for i, a in enumerate(ships):
        for b in ships[i + 1:]:
            if state.side_of(a) != state.side_of(b):
                continue
            sa, sb = state.square[a], state.square[b]
            if max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1])) == 1:
                if not (state.setup.terrain_at(sa) == "H" == state.setup.terrain_at(sb)):
                    yield a, b


def check_invariants(state, previous_turn_state):
    for name in state.hits:
        assert all(f >= 0 for f in state.factors(name))
    occupied = {sq: n for n, sq in state.square.items() if n not in state.escaped}
    assert len(occupied) == len(state.setup.ships) - len(state.escaped)
    for square in occupied:
        assert state.setup.terrain_at(square) != "#"
    if state.phase == MOVE and not state.moved:
        # At the start of every side's movement, the non-adjacency rule holds for every side.
        assert list(touching_friends(state)) == []
    for name in state.setup.ships:
        if previous_turn_state is not None and previous_turn_state.is_struck(name):
            assert state.square[name] == previous_turn_state.square[name]  # struck ships are inert
            assert state.is_struck(name)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIOS), seed=st.integers(0, 10_000))
def test_random_legal_play_keeps_every_invariant(scenario, seed):
    rng = random.Random(seed)
    match = Match(GAME, scenario, {}, seed)
    previous = None
    for _ in range(250):
        state = match.state
        if state.is_terminal():
            break
        actions = state.legal_actions()
        assert actions, "a live game always offers a legal action"
        action = rng.choice(actions)
        text = state.action_to_text(action)
        assert state.parse_action(text) == action
        previous = state.clone()
        match.play(action)
        check_invariants(match.state, previous)
    data = match.state.to_json()
    assert GAME.state_from_json(data).to_json() == data
    replayed = Record.parse(match.record().to_text()).final_state(GAME)
    assert replayed.to_json() == data


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_illegal_actions_never_change_the_state(seed):
    rng = random.Random(seed)
    match = Match(GAME, "blockade", {}, seed)
    for _ in range(80):
        if match.state.is_terminal():
            break
        match.play(rng.choice(match.state.legal_actions()))
    state = match.state
    before = state.to_json()
    for text in ("move Hercule a1 N", "fire Superb fore 9", "defend Fort-West N 1", "end-defence", "escape Niger S"):
        try:
            state.apply(state.parse_action(text))
        except Exception:  # noqa: BLE001 - any rejection is fine; the state must be untouched
            assert state.to_json() == before
        else:
            before = state.to_json()
