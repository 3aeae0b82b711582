"""Monte Carlo tree search (UCT) over the protocol's decisions, for any game.

One tree node per decision point, so a turn of many decisions is a chain of nodes of one player,
and the other side's decisions inside a turn (defence, supports) are simply nodes of that side.

* Chance: a CHANCE node draws its outcome with the agent's own generator from
  `chance_outcomes()`, never with the state's dice, so the search cannot peek at future rolls.
* Simultaneous hidden decisions: the search starts from `state.observe(player)`, where the other
  seats' secret choices are not made yet, and at a SIMULTANEOUS node every acting seat picks its
  own action from its own statistics (decoupled UCT). Sampling the other seats' legal actions this
  way is the determinization: nothing the searcher may not know is ever in its tree.
* Huge turns: the actions of a node are put best first by the game's `candidates` hook (or by the
  evaluation one decision ahead, pruned to the best few per piece), and progressive widening opens
  them one by one as the node's visits grow (see docs/ai.md).
* Leaves: a short playout (the game's rollout policy, or uniform), then the game's evaluation,
  relative to the root and squashed into (-1, 1) like the game's returns; with `chance_leaves` a
  roll is a leaf too, read by the evaluation before it is thrown.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..core.protocol import CHANCE, SIMULTANEOUS, Action, State
from .agents import FLAG, MOVETIME, NUMBER, POSITIVE_WHOLE, Option, SearchAgent
from .budget import Budget
from .knowledge import WIN_VALUE, Knowledge, squash

DEFAULT_ITERATIONS = 400


@dataclass
class Settings:
    exploration: float = 1.0  # UCB constant, for returns in [-1, 1]
    rollout_depth: int = 0  # decisions played at random below a new node before evaluating it
    rollout_cap: int = 400  # without an evaluation, play on towards the end, at most this far
    widen_from: int = 12  # nodes with more candidates than this widen progressively
    widen_base: float = 4.0  # candidates open: widen_base * visits ** widen_power
    widen_power: float = 0.5
    evaluation_scale: float = 0.0  # tanh scale of evaluation differences; 0 learns it while searching
    prior_visits: float = 1.0  # weight of the one-decision evaluation, as visits, on each ranked action
    score_candidates: bool = False  # give the game's own candidates that evaluation too (a thin search then
    # falls back on it rather than on the candidates' order alone)
    reuse_tree: bool = True  # keep the subtree for our next decision of the same turn
    chance_leaves: bool = False  # a roll ends the descent, for games whose evaluation prices the dice in the air
    contempt: float = 0.0  # a draw scores this much (evaluation units) below an even game for the searcher's side
    exact_keys: bool = False  # the game's position_key is exact: each position is evaluated once a search

    @classmethod
    def resolve(cls, game_settings: dict[str, Any], options: dict[str, Any]) -> Settings:
        names = cls.__dataclass_fields__
        merged = {k: v for k, v in {**game_settings, **options}.items() if k in names}
        return cls(**merged)


# what each setting takes in an agent's spec (`mcts:exploration=0.7`); every setting is here
_COUNT = Option("whole", low=0)
_WEIGHT = Option("number", low=0)
SETTING_OPTIONS: dict[str, Option] = {
    "exploration": _WEIGHT,
    "rollout_depth": _COUNT,
    "rollout_cap": _COUNT,
    "widen_from": _COUNT,
    "widen_base": Option("number", above=0),
    "widen_power": _WEIGHT,
    "evaluation_scale": _WEIGHT,
    "prior_visits": _WEIGHT,
    "score_candidates": FLAG,
    "reuse_tree": FLAG,
    "chance_leaves": FLAG,
    "contempt": NUMBER,
    "exact_keys": FLAG,
}


class Arms:
    """One acting seat's choices at a node: candidate actions (best first) and their statistics."""

    __slots__ = ("actions", "visits", "totals")

    def __init__(self, actions: list[Action], priors: list[float | None], prior_visits: float):
        """`priors`: each action's value in [-1, 1] as far as known before searching it, counted
        as `prior_visits` visits (so a thin search still plays no worse than the evaluation)."""
        self.actions = actions
        self.visits = [0.0 if prior is None else prior_visits for prior in priors]
        self.totals = [0.0 if prior is None else prior * prior_visits for prior in priors]

    def most_visited(self) -> int:
        return max(range(len(self.actions)), key=lambda i: (self.visits[i], self.mean(i), -i))

    def mean(self, index: int) -> float:
        return self.totals[index] / self.visits[index] if self.visits[index] else 0.0


class Node:
    __slots__ = ("acting", "outcomes", "arms", "children", "visits", "terminal")

    def __init__(self, state: State):
        self.terminal = state.is_terminal()
        to_act = state.current_player()
        self.outcomes = state.chance_outcomes() if to_act == CHANCE and not self.terminal else None
        self.acting: tuple[int, ...] = () if self.terminal or to_act == CHANCE else tuple(state.acting_players())
        self.arms: list[Arms] | None = None  # made on the first pass through the node
        self.children: dict[Any, Node] = {}
        self.visits = 0


@dataclass
class Kept:
    """A subtree kept for the next decision, with the evaluation baseline its values are relative to."""

    root: Node
    baseline: list[float]


class MCTSAgent(SearchAgent):
    name = "mcts"
    options_hint = "movetime=0.5 or iterations=400"
    options_taken = {"movetime": MOVETIME, "iterations": POSITIVE_WHOLE, **SETTING_OPTIONS}

    def __init__(
        self,
        seed: int = 0,
        movetime: float | None = None,
        iterations: int | None = None,
        argument: str | None = None,
        **options: Any,
    ):
        super().__init__(seed, argument, **options)
        if movetime is None and iterations is None:
            iterations = DEFAULT_ITERATIONS
        self.budget = Budget(movetime=movetime, iterations=iterations)
        self._kept: tuple[Any, Kept] | None = None  # (position key expected next, what to reuse there)
        self.last_iterations = 0

    def forget(self) -> None:
        self._kept = None

    def search(self, view: State, player: int, actions: list[Action]) -> Action:
        search = _Search(view, player, self, self._reusable(view))
        action = search.run()
        self.last_iterations = search.iterations
        self._keep(search, action)
        return action

    def _reusable(self, view: State) -> Kept | None:
        if self._kept is None:
            return None
        key, kept = self._kept
        self._kept = None
        return kept if view.position_key() == key else None

    def _keep(self, search: _Search, action: Action) -> None:
        """Keep the chosen subtree when the same seat decides again right after (a turn of many decisions)."""
        root, player = search.root, search.player
        child = root.children.get((action,)) if root.acting == (player,) else None
        if not search.settings.reuse_tree or child is None or child.acting != (player,):
            self._kept = None
            return
        after = search.view.clone()
        after.apply(action, player, validate=False)
        self._kept = (after.position_key(), Kept(child, search.baseline))

    def settings(self, state: State) -> Settings:
        return Settings.resolve(Knowledge.of(state.game).settings, self.options)


class _Search:
    """One decision's search: the tree, the evaluation baseline and the playouts."""

    def __init__(self, view: State, player: int, agent: MCTSAgent, reused: Kept | None):
        self.view = view
        self.player = player
        self.rng: random.Random = agent.rng
        self.budget = agent.budget
        self.settings = agent.settings(view)
        self.knowledge = Knowledge.of(view.game)
        self.root = reused.root if reused else Node(view)
        self.iterations = 0
        self.memo: dict[Any, Any] | None = {} if self.settings.exact_keys else None
        seats = range(len(view.players))
        if reused:  # the kept values are measured from the first decision's position: keep measuring so
            self.baseline = reused.baseline
        elif self.knowledge.has_evaluation:
            self.baseline = self.knowledge.evaluate_all(view, len(seats), self.memo)
        else:
            self.baseline = []
        self.scale = self.settings.evaluation_scale
        self._deltas_seen = 0
        self._delta_total = 0.0

    def run(self) -> Action:
        if self.root.arms is None:
            self.root.arms = [self._arms(self.view, p) for p in self.root.acting]
        arms = self.root.arms[self.root.acting.index(self.player)]
        if len(arms.actions) == 1:  # the game's candidates leave one choice: nothing to search
            return arms.actions[0]
        while not self.budget.spent(self.iterations):
            self._iterate()
            self.iterations += 1
        return arms.actions[arms.most_visited()]

    # --- one iteration: select, expand, play out, back up ---------------------------------------
    def _iterate(self) -> None:
        state = self.view.clone()
        node = self.root
        path: list[tuple[Node, list[int] | None]] = []
        while not node.terminal:
            if node.outcomes is not None:
                if self.settings.chance_leaves:
                    values = self._leaf_values(state)
                    break
                key: Any = self._draw(node.outcomes)
                state.apply(key, CHANCE, validate=False)
                path.append((node, None))
            else:
                if node.arms is None:
                    node.arms = [self._arms(state, p) for p in node.acting]
                choice = [self._select(arms, node.visits) for arms in node.arms]
                key = tuple(arms.actions[i] for arms, i in zip(node.arms, choice, strict=True))
                for seat, action in zip(node.acting, key, strict=True):
                    state.apply(action, seat, validate=False)
                path.append((node, choice))
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node(state)
                values = self._playout(state)
                break
            node = child
        else:
            values = self._terminal_values(state)
        self._back_up(path, values)

    def _arms(self, state: State, seat: int) -> Arms:
        ranked = self.knowledge.ranked(state, seat, state.legal_actions(seat), self.rng, self.budget.out_of_time,
                                       self.settings.score_candidates, self.memo)
        priors = [None if value is None else self._value(value, seat) for _, value in ranked]
        return Arms([action for action, _ in ranked], priors, self.settings.prior_visits)

    def _select(self, arms: Arms, node_visits: int) -> int:
        width = len(arms.actions)
        if width > self.settings.widen_from:
            opened = int(self.settings.widen_base * max(node_visits, 1) ** self.settings.widen_power)
            width = min(width, max(opened, 1))
        best, best_score = 0, float("-inf")
        log_visits = math.log(max(node_visits, 1))
        for index in range(width):
            visits = arms.visits[index]
            if visits == 0:
                return index  # untried candidates go first, in the order they were ranked
            score = arms.totals[index] / visits + self.settings.exploration * math.sqrt(log_visits / visits)
            if score > best_score:
                best, best_score = index, score
        return best

    def _draw(self, outcomes: list[tuple[Action, float]]) -> Action:
        point = self.rng.random() * sum(p for _, p in outcomes)
        for outcome, probability in outcomes:
            point -= probability
            if point < 0:
                return outcome
        return outcomes[-1][0]

    def _back_up(self, path: list[tuple[Node, list[int] | None]], values: list[float]) -> None:
        for node, choice in path:
            node.visits += 1
            if choice is None or node.arms is None:
                continue
            for seat, arms, index in zip(node.acting, node.arms, choice, strict=True):
                arms.visits[index] += 1
                arms.totals[index] += values[seat]

    # --- leaves --------------------------------------------------------------------------------
    def _playout(self, state: State) -> list[float]:
        depth_limit = self.settings.rollout_depth if self.knowledge.has_evaluation else self.settings.rollout_cap
        for _ in range(depth_limit):
            if state.is_terminal() or self.budget.out_of_time():
                break
            to_act = state.current_player()
            if to_act == CHANCE:
                if self.settings.chance_leaves:
                    break
                state.apply(self._draw(state.chance_outcomes()), CHANCE, validate=False)
                continue
            seats = list(state.acting_players()) if to_act == SIMULTANEOUS else [to_act]
            for seat in seats:
                action = self.knowledge.rollout_action(state, seat, self.rng)
                if action is None:  # the game's policy ends the playout here; the evaluation takes over
                    return self._leaf_values(state)
                state.apply(action, seat, validate=False)
        return self._leaf_values(state)

    def _leaf_values(self, state: State) -> list[float]:
        if state.is_terminal():
            return self._terminal_values(state)
        if not self.knowledge.has_evaluation:
            return state.returns()
        values = self.knowledge.evaluate_all(state, len(self.baseline), self.memo)
        return [self._value(value, seat) for seat, value in enumerate(values)]

    def _terminal_values(self, state: State) -> list[float]:
        """A decided game is worth its returns. A draw is worth what the evaluation's zero is worth
        from the root, as every other leaf is measured: a side ahead at the root reads it as its
        lead thrown away, a side behind as a game saved; `contempt` (in the evaluation's units)
        lower for the searcher's side and higher for the others."""
        returns = state.returns()
        if any(returns) or not self.baseline:
            return returns
        team = self.view.team_of(self.player)
        contempt = self.settings.contempt
        return [
            self._value(-contempt if self.view.team_of(seat) == team else contempt, seat)
            for seat in range(len(returns))
        ]

    def _value(self, evaluation: float, seat: int) -> float:
        """An evaluation for `seat` as a value in (-1, 1), measured from the root position."""
        if abs(evaluation) >= WIN_VALUE:
            return 1.0 if evaluation > 0 else -1.0
        delta = evaluation - self.baseline[seat]
        return squash(delta, self._scale(delta))

    def _scale(self, delta: float) -> float:
        """The configured scale, or the mean size of evaluation changes met so far in this search."""
        if self.scale > 0:
            return self.scale
        self._deltas_seen += 1
        self._delta_total += abs(delta)
        return self._delta_total / self._deltas_seen or 1.0
