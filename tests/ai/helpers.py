"""Playing a game between agents, checking every action, for the agent tests."""

from __future__ import annotations

from quarterdeck import games
from quarterdeck.ai.agents import Agent
from quarterdeck.core.protocol import CHANCE, Game, State


def real_games() -> list[Game]:
    """Whatever rule books are registered now, so the tests pick up each game as it lands."""
    return [games.get(name) for name in games.names()]


def play_checking_legality(game: Game, agents: list[Agent], seed: int = 0, limit: int = 400) -> tuple[State, list[str]]:
    """Play until the end or `limit` decisions; every action must be legal when it is chosen."""
    state = game.new_initial_state(None, {}, seed)
    texts: list[str] = []
    while not state.is_terminal() and len(texts) < limit:
        if state.current_player() == CHANCE:
            outcome = state.sample_chance()
            texts.append(state.text_of(outcome))
            state.apply(outcome, CHANCE)
            continue
        for seat in list(state.acting_players()):
            action = agents[seat].act(state, seat)
            assert action in state.legal_actions(seat), f"{agents[seat].name} chose {action!r}"
            texts.append(state.text_of(action))
            state.apply(action, seat)
    return state, texts
