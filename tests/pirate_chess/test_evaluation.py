"""The evaluation hook used by the greedy agent: material, anchored safety, Pirate threats."""

from quarterdeck.ai.agents import make_agent

from .helpers import GAME, layout, new_game, play

EVALUATE = GAME.hook("evaluate")


def test_evaluate_material_by_rank():
    stronger = layout({"a1": "blue Frigate", "h8": "red Dhow"})
    assert EVALUATE(stronger, 0) > 0 > EVALUATE(stronger, 1)
    assert EVALUATE(stronger, 0) == -EVALUATE(stronger, 1)


def test_evaluate_is_zero_at_the_symmetric_start():
    assert EVALUATE(new_game(), 0) == 0


def test_evaluate_rewards_anchored_safety():
    anchored = layout({"a1": "blue Barque anchored", "h8": "red Barque"})
    assert EVALUATE(anchored, 0) > 0


def test_evaluate_rewards_pirate_threats():
    threatening = layout({"a1": "blue Pirate", "b3": "red Pirate", "h8": "blue Dhow", "f5": "red Dhow"})
    assert EVALUATE(threatening, 0) == 0  # each Pirate threatens the other
    threatening = layout({"a1": "blue Pirate", "b3": "red Frigate anchored", "h7": "red Pirate"})
    quiet = layout({"a1": "blue Pirate", "c3": "red Frigate anchored", "h7": "red Pirate"})
    assert EVALUATE(threatening, 0) > EVALUATE(quiet, 0)


def test_evaluate_a_won_game():
    state = layout({"a1": "blue Barque", "a2": "red Dhow"})
    play(state, "move Barque a1xa2 sink")
    assert EVALUATE(state, 0) > 100 and EVALUATE(state, 1) < -100


def test_greedy_agent_takes_the_free_frigate():
    state = layout({"a1": "blue Pirate", "b3": "red Frigate anchored", "h8": "red Dhow"})
    action = make_agent("greedy", seed=1).act(state, 0)
    assert state.action_to_text(action) == "move Pirate a1xb3 capture"


def test_greedy_agent_plays_legal_turns():
    # On the small board, every action the greedy agent picks is one the rules offer the fleet to
    # move, and forty of them carry the game out of its opening into play.
    state = new_game(size=6)
    agent = make_agent("greedy", seed=3)
    played = 0
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        action = agent.act(state, player)
        assert action in state.legal_actions(player)
        state.apply(action, player)
        played += 1
    assert played == 40 or state.outcome is not None
    assert not state.in_opening(0) and not state.in_opening(1)
