"""A secret decision is never visible to the other side's agent."""

from __future__ import annotations

import pytest

from quarterdeck.ai import make_agent
from quarterdeck.core.protocol import State

from .toy_games import Goofspiel, GoofspielState

AGENT_SPECS = ["random", "greedy", "mcts:iterations=60", "alphabeta:depth=2", "ai:2:budget=iterations"]
OPEN_ATTRIBUTES = {"observe", "current_player", "acting_players", "players", "game", "__class__"}


class Sealed(GoofspielState):
    """The true state with red's card in it: an agent may only ask for its own view (and whose turn
    it is); anything else that could read red's card fails the test."""

    def __getattribute__(self, name: str):
        # Python's own dunder protocol passes; a private attribute (`_data`) is the true state too.
        if name.startswith("__") and name.endswith("__") or name in OPEN_ATTRIBUTES:
            return super().__getattribute__(name)
        raise AssertionError(f"the agent looked at the true state: .{name}")

    def observe(self, player: int) -> State:
        data, dice = object.__getattribute__(self, "data"), object.__getattribute__(self, "dice")
        view = GoofspielState(self.game, data, dice).observe(player)
        assert view.data["secret"][1 - player] is None
        return view


def secret_played(card: int) -> GoofspielState:
    state = Goofspiel().new_initial_state()
    state.apply(card, player=1)  # red decides first, in secret
    return state


@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_agents_only_ever_read_their_own_view(spec):
    state = secret_played(4)
    sealed = Sealed(state.game, state.data, state.dice)
    action = make_agent(spec, seed=3).act(sealed, 0)
    assert action in state.legal_actions(0)


@pytest.mark.parametrize("peek", ["data", "_data", "_legal_cache", "legal_actions", "clone"])
def test_the_seal_catches_an_agent_that_reads_the_true_state(peek):
    state = secret_played(4)
    sealed = Sealed(state.game, state.data, state.dice)
    with pytest.raises(AssertionError, match=f"looked at the true state: .{peek}"):
        getattr(sealed, peek)
    assert sealed.observe(0).data["secret"][1] is None  # its own view stays open


@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_the_decision_does_not_depend_on_the_other_secret(spec):
    decisions = {make_agent(spec, seed=5).act(secret_played(card), 0) for card in (1, 2, 3, 4)}
    assert len(decisions) == 1


def test_to_json_for_a_viewer_hides_the_secret():
    assert secret_played(3).to_json(viewer=0)["data"]["secret"] == [None, None]
