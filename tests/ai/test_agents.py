"""Agents play legal actions, reproducibly, on every toy game and every registered game."""

from __future__ import annotations

import re

import pytest

from quarterdeck.ai import AGENTS, make_agent
from quarterdeck.ai.alphabeta import AlphaBetaAgent
from quarterdeck.ai.levels import LEVELS, LevelAgent
from quarterdeck.ai.mcts import SETTING_OPTIONS, MCTSAgent, Settings, _Search
from quarterdeck.core.protocol import State

from .helpers import play_checking_legality, real_games
from .toy_games import TOY_GAMES, Nim, NimWithEvaluation, NimWithItsOwnLevels, Pig, PigWithEvaluation, Truce

QUICK_AGENTS = ["random", "greedy", "mcts:iterations=30", "alphabeta:depth=2", "ai:1:budget=iterations"]
ALL_GAMES = list(TOY_GAMES) + real_games()


def _name(game) -> str:
    return game.name


@pytest.mark.parametrize("game", ALL_GAMES, ids=_name)
@pytest.mark.parametrize("spec", QUICK_AGENTS)
def test_agents_only_play_legal_actions(game, spec):
    limit = 400 if game in TOY_GAMES else 30  # a real game's opening is enough, and quick
    play_checking_legality(game, [make_agent(spec, seed=1), make_agent("random", seed=2)], seed=3, limit=limit)
    play_checking_legality(game, [make_agent("random", seed=4), make_agent(spec, seed=5)], seed=6, limit=limit)


@pytest.mark.parametrize("game", ALL_GAMES, ids=_name)
def test_the_same_seed_gives_the_same_game(game):
    def one_game(seed: int) -> list[str]:
        agents = [make_agent("mcts:iterations=20", seed), make_agent("ai:1:budget=iterations", seed + 1)]
        return play_checking_legality(game, agents, seed=seed, limit=60)[1]

    assert one_game(7) == one_game(7)


def test_the_agent_specs():
    assert {"random", "greedy", "mcts", "alphabeta", "ai"} <= set(AGENTS)
    level = make_agent("ai:3", seed=1)
    assert isinstance(level, LevelAgent) and level.level == LEVELS[3]
    mcts = make_agent("mcts:iterations=50,exploration=0.7", seed=1)
    assert isinstance(mcts, MCTSAgent) and mcts.budget.iterations == 50
    assert mcts.options == {"exploration": 0.7}
    assert isinstance(make_agent("alphabeta:depth=3"), AlphaBetaAgent)
    for bad in ("ai:9", "ai:three", "nobody", "mcts:fast", "ai:3:budget=forever"):
        with pytest.raises(ValueError):
            make_agent(bad)


@pytest.mark.parametrize(
    ("spec", "refusal"),
    [
        ("ai:3:iteratons=400", "ai has no option 'iteratons'; its options are budget, chance_leaves"),
        ("mcts:iterations=50,rollout=4", "mcts has no option 'rollout'"),
        ("alphabeta:depth=3,widen_base=2", "alphabeta has no option 'widen_base'; its options are contempt, depth"),
        ("greedy:depth=2", "greedy has no option 'depth'; it takes none"),
    ],
)
def test_a_misspelt_or_foreign_agent_option_is_refused_by_name_not_ignored(spec, refusal):
    with pytest.raises(ValueError, match=refusal):
        make_agent(spec)


@pytest.mark.parametrize(
    ("spec", "refusal"),
    [
        ("ai:3:movetime=0", "option 'movetime' takes a number above 0, not 0"),
        ("ai:3:iterations=-5", "option 'iterations' takes a whole number at least 1, not -5"),
        ("ai:3:iterations=2.5", "option 'iterations' takes a whole number at least 1, not 2.5"),
        ("mcts:exploration=abc", "option 'exploration' takes a number at least 0, not 'abc'"),
        ("mcts:exploration=nan", "option 'exploration' takes a number at least 0, not nan"),
        ("ai:3:movetime=inf", "option 'movetime' takes a number above 0, not inf"),
        ("alphabeta:depth=0", "option 'depth' takes a whole number at least 1, not 0"),
        ("ai:1:slip=2", "option 'slip' takes a number at least 0 and at most 1, not 2"),
        ("mcts:reuse_tree=maybe", "option 'reuse_tree' is 1 or 0"),
        ("ai:3:budget=forever", "option 'budget' is one of time, iterations, not 'forever'"),
    ],
)
def test_an_agent_option_out_of_its_range_is_refused_when_the_spec_is_read(spec, refusal):
    """Not moves into a game, where a move time of 0 or an exploration of "abc" would first be used,
    nor never: a move time of nan never runs out."""
    with pytest.raises(ValueError, match=re.escape(f"agent spec {spec!r}: {refusal}")):
        make_agent(spec)


def test_every_search_setting_is_checked_and_read_in_its_kind():
    assert set(SETTING_OPTIONS) == set(Settings.__dataclass_fields__)
    agent = make_agent("mcts:iterations=1e3,reuse_tree=false,chance_leaves=1,rollout_depth=4")
    assert agent.budget.iterations == 1000 and isinstance(agent.budget.iterations, int)
    assert agent.options == {"reuse_tree": False, "chance_leaves": True, "rollout_depth": 4}


def test_an_iteration_budget_is_exact():
    agent = make_agent("mcts:iterations=37", seed=1)
    state = Nim().new_initial_state()
    agent.act(state, 0)
    assert agent.last_iterations == 37


def test_where_a_roll_ends_the_descent_the_dice_drawn_never_swing_the_search():
    """`chance_leaves`, for a game whose evaluation prices the die in the air: the search stops at a
    roll and reads the evaluation there, so what it makes of a position is the same whatever dice
    its own generator would have drawn; drawing them, two seeds weigh the same choice differently."""
    state = PigWithEvaluation().new_initial_state(options={"target": 30})
    state.data.update(scores=[12, 15], turn_total=9)

    def root_visits(seed: int, **options) -> list[float]:
        search = _Search(state.clone(), 0, MCTSAgent(seed=seed, iterations=300, **options), None)
        search.run()
        return search.root.arms[0].visits

    assert root_visits(1, chance_leaves=True) == root_visits(2, chance_leaves=True)
    assert root_visits(1) != root_visits(2)


def test_levels_use_the_search_the_game_asks_for():
    agent = make_agent("ai:2:budget=iterations", seed=1)
    state = NimWithEvaluation().new_initial_state()
    agent.act(state, 0)
    assert list(agent._engines) == ["alphabeta"]
    agent.act(Nim().new_initial_state(), 0)
    assert "mcts" in agent._engines


@pytest.mark.parametrize("spec, iterations", [
    ("ai:2:budget=iterations", 7),  # the game's own count
    ("ai:5", 30),  # by move time too, the level stops at its count (5 s is far more than 30 iterations take)
    ("ai:3:budget=iterations", LEVELS[3].iterations),  # a level the game leaves alone keeps the default
    ("ai:2:iterations=11", 11),  # an explicit count outranks the game's
])
def test_a_game_may_set_its_levels_iteration_counts(spec, iterations):
    agent = make_agent(spec, seed=1)
    agent.act(NimWithItsOwnLevels().new_initial_state(), 0)
    assert agent._engines["mcts"].last_iterations == iterations


@pytest.mark.parametrize("spec, scale", [
    ("ai:5:budget=iterations", 3.0),  # the game's setting for its top level
    ("ai:4:budget=iterations", 0.0),  # every other level keeps the search's own (a scale learned while searching)
    ("ai:5:evaluation_scale=1.5", 1.5),  # an explicit option outranks the game's
])
def test_a_game_may_give_one_level_its_own_search_settings(spec, scale):
    agent = make_agent(spec, seed=1)
    state = NimWithItsOwnLevels().new_initial_state()
    agent.act(state, 0)
    assert agent._engines["mcts"].settings(state).evaluation_scale == scale


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "alphabeta:depth=3"])
def test_search_finds_a_win_that_takes_two_decisions(spec):
    """Piles 1 and 1: taking both (two decisions of one turn) wins; taking one loses."""
    state = Nim().new_initial_state(options={"piles": [1, 1, 0]})
    agent = make_agent(spec, seed=2)
    while state.current_player() == 0:
        state.apply(agent.act(state, 0), 0)
    assert state.outcome is not None and state.outcome.result == "blue"


def test_mcts_plays_dice_better_than_random():
    wins = 0
    for seed in range(6):
        seats = (make_agent("mcts:iterations=150", seed), make_agent("random", seed + 100))
        agents = list(seats) if seed % 2 == 0 else list(reversed(seats))
        state, _ = play_checking_legality(Pig(), agents, seed=seed)
        mcts_seat = 0 if seed % 2 == 0 else 1
        wins += state.returns()[mcts_seat] > 0
    assert wins >= 5


def test_mcts_keeps_its_tree_for_the_next_decision_of_the_same_turn():
    state = Nim().new_initial_state()
    agent = make_agent("mcts:iterations=200", seed=1)
    state.apply(agent.act(state, 0), 0)
    kept = agent._reusable(state.observe(0))
    assert kept is not None and kept.root.visits > 0


class OneCandidateNim(Nim):
    """Nim whose candidates hook keeps only the last legal action (a game's pruning down to one)."""

    name = "toy-nim-one-candidate"

    @staticmethod
    def hook_candidates(state, player, actions):
        return actions[-1:]


def test_mcts_plays_the_only_candidate_at_once():
    """Searching a single candidate cannot change the answer, so no time is spent on it."""
    state = OneCandidateNim().new_initial_state()
    agent = make_agent("mcts:iterations=200", seed=1)
    assert agent.act(state, 0) == state.legal_actions(0)[-1]
    assert agent.last_iterations == 0
    plain = make_agent("mcts:iterations=200", seed=1)
    plain.act(Nim().new_initial_state(), 0)
    assert plain.last_iterations == 200


class GreedyCandidatesNim(NimWithEvaluation):
    """Nim whose candidates come worst first (fewest stones taken) and whose evaluation counts the
    stones taken: only an evaluation of each candidate tells them apart."""

    name = "toy-nim-scored-candidates"
    hook_search = "mcts"

    @staticmethod
    def hook_candidates(state, player, actions):
        return sorted(actions, key=lambda action: action[2] if isinstance(action, tuple) else 0)

    def hook_evaluate(self, state: State, player: int) -> float:
        return 12.0 - sum(state.data["piles"])


def test_a_thin_search_falls_back_on_the_evaluation_of_the_games_candidates_when_asked():
    state = GreedyCandidatesNim().new_initial_state()
    scored = make_agent("mcts:iterations=1,score_candidates=1", seed=1).act(state, 0)
    assert scored[2] == 3  # the evaluation's choice: three stones
    unscored = make_agent("mcts:iterations=1", seed=1).act(state, 0)
    assert unscored[2] == 1  # the candidates' first


def test_a_search_ahead_plays_on_rather_than_take_a_draw_and_one_behind_takes_it():
    """A draw is measured from the root like every other leaf: two ahead, a truce throws the lead
    away, while sailing on keeps at least one of it; a point behind, the truce saves the game."""
    ahead = Truce().new_initial_state(options={"lead": 2.0})
    assert make_agent("mcts:iterations=200", seed=1).act(ahead, 0) == "sail"
    behind = Truce().new_initial_state(options={"lead": -1.0})
    assert make_agent("mcts:iterations=200", seed=1).act(behind, 0) == "truce"


@pytest.mark.parametrize("search", ["mcts:iterations=200,evaluation_scale=1", "alphabeta:depth=4"])
def test_contempt_makes_a_search_a_little_behind_play_on_rather_than_draw(search):
    """A quarter of a point behind, a truce is better than playing on; with a contempt of half a
    point for draws, it is worse."""
    behind = Truce().new_initial_state(options={"lead": -0.25, "floor": -0.25})
    assert make_agent(search, seed=1).act(behind, 0) == "truce"
    assert make_agent(f"{search},contempt=0.5", seed=1).act(behind, 0) == "sail"


def test_alpha_beta_orders_and_evaluates_each_position_once_however_often_deepening_meets_it(monkeypatch):
    from collections import Counter

    from quarterdeck.ai.knowledge import Knowledge
    from quarterdeck.games import get

    ordered: Counter = Counter()
    evaluated: Counter = Counter()
    candidates, evaluate = Knowledge.candidates, Knowledge._evaluate

    def counting_candidates(self, state, player, actions, rng, out_of_time=lambda: False, memo=None):
        ordered[state.position_key()] += 1
        return candidates(self, state, player, actions, rng, out_of_time, memo)

    def counting_evaluate(self, state, player):
        evaluated[state.position_key()] += 1
        return evaluate(self, state, player)

    monkeypatch.setattr(Knowledge, "candidates", counting_candidates)
    monkeypatch.setattr(Knowledge, "_evaluate", counting_evaluate)
    state = get("square-rigger").new_initial_state()
    agent = make_agent("alphabeta:depth=7", seed=1)
    agent.act(state, state.current_player())
    assert agent.last_depth == 7 and ordered and evaluated
    assert max(ordered.values()) == 1  # the root's once, and every inner position's once
    assert max(evaluated.values()) == 1


def test_a_search_remembering_evaluations_by_exact_keys_decides_as_one_that_does_not(monkeypatch):
    from collections import Counter

    from quarterdeck.ai.knowledge import Knowledge
    from quarterdeck.games import get

    game = get("napoleonic-chess")
    assert Knowledge.of(game).settings.get("exact_keys")
    state = game.new_initial_state()
    greedy = [make_agent("greedy", seed=seat) for seat in range(2)]
    for _ in range(40):  # into the battle, past the deployment
        seat = state.current_player()
        state.apply(greedy[seat].act(state, seat), seat)
    seat = state.current_player()
    forgetting = make_agent("mcts:iterations=150,exact_keys=0", seed=3).act(state, seat)

    evaluated: Counter = Counter()
    evaluate = Knowledge._evaluate

    def counting(self, position, player):
        evaluated[(position.position_key(), player)] += 1
        return evaluate(self, position, player)

    monkeypatch.setattr(Knowledge, "_evaluate", counting)
    remembering = make_agent("mcts:iterations=150", seed=3).act(state, seat)
    assert remembering == forgetting
    assert evaluated and max(evaluated.values()) == 1


class _FirstAction:
    """A stand-in for a level's search: always the first legal action, so that a slip shows."""

    def act(self, state, player):
        return state.legal_actions(player)[0]

    def forget(self):
        pass


@pytest.mark.parametrize("level, low, high", [(1, 0.15, 0.35), (2, 0.0, 0.0), (5, 0.0, 0.0)])
def test_the_beginner_slips_about_one_decision_in_four_and_the_levels_above_never(level, low, high, monkeypatch):
    monkeypatch.setattr(LevelAgent, "_engine", lambda self, search, knowledge: _FirstAction())
    agent = make_agent(f"ai:{level}", seed=9)
    state = NimWithEvaluation().new_initial_state()
    first = state.legal_actions(0)[0]
    choices = [agent.act(state, 0) for _ in range(400)]
    assert all(choice in state.legal_actions(0) for choice in choices)
    slipped = sum(choice != first for choice in choices) / len(choices)
    assert low <= slipped <= high


@pytest.mark.parametrize("spec, low, high", [
    ("ai:2", 0.4, 0.6),  # the game's own: one decision in two
    ("ai:3", 0.0, 0.0),  # a level it leaves alone keeps the default (no slips above the beginner)
    ("ai:2:slip=0", 0.0, 0.0),  # the player's option outranks the game's
])
def test_a_game_may_set_how_often_a_level_slips(spec, low, high, monkeypatch):
    monkeypatch.setattr(LevelAgent, "_engine", lambda self, search, knowledge: _FirstAction())
    agent = make_agent(spec, seed=9)
    state = NimWithItsOwnLevels().new_initial_state(options={"piles": [2, 0, 0]})  # two moves: take one or both
    first = state.legal_actions(0)[0]
    slipped = sum(agent.act(state, 0) != first for _ in range(400)) / 400
    assert low <= slipped * 2 <= high  # a slip draws either move, so half of them show
