"""Alpha-beta search with iterative deepening, for deterministic games of open information.

Depth counts decisions, not turns, so a turn of two decisions (Pirate Chess: a fleet action and an
anchoring) is two plies of the same side: each node maximises or minimises by the team of the seat
to act, not by alternation. Move ordering: the previous iteration's best move first, then the
game's `candidates` hook (or the evaluation one decision ahead), and the best move remembered per
position when the game gives positions a cheap key; where that key is exact (the game's search
setting `exact_keys`), each position's candidates and evaluation are worked out once a search
(deepening meets them again and again, transpositions too), which changes nothing searched, only
how fast. A chance node averages its outcomes; a
simultaneous phase is a leaf (the levels hand such decisions to MCTS).
"""

from __future__ import annotations

from typing import Any

from ..core.protocol import CHANCE, SIMULTANEOUS, Action, State
from .agents import MOVETIME, NUMBER, POSITIVE_WHOLE, SearchAgent
from .budget import Budget
from .knowledge import WIN_VALUE, Knowledge

MAX_DEPTH = 64
DEFAULT_DEPTH = 3


class _OutOfBudget(Exception):
    pass


class AlphaBetaAgent(SearchAgent):
    name = "alphabeta"
    options_hint = "movetime=0.5, depth=4 or iterations=5000"
    options_taken = {"movetime": MOVETIME, "iterations": POSITIVE_WHOLE, "depth": POSITIVE_WHOLE, "contempt": NUMBER}

    def __init__(
        self,
        seed: int = 0,
        movetime: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
        argument: str | None = None,
        contempt: float | None = None,
        **options: Any,
    ):
        super().__init__(seed, argument, **options)
        if movetime is None and iterations is None and depth is None:
            depth = DEFAULT_DEPTH
        self.max_depth = depth or MAX_DEPTH
        self.contempt = contempt  # None: the game's own, from its search settings (0 if none)
        # a depth limit alone is a budget too: a huge node count that never binds
        self.budget = Budget(movetime=movetime, iterations=iterations or (None if movetime else 10**12))
        self.last_depth = 0

    def search(self, view: State, player: int, actions: list[Action]) -> Action:
        return _Search(view, player, self).run(actions)


class _Search:
    def __init__(self, view: State, player: int, agent: AlphaBetaAgent):
        self.view = view
        self.player = player
        self.team = view.team_of(player)
        self.agent = agent
        self.budget = agent.budget
        self.knowledge = Knowledge.of(view.game)
        contempt = agent.contempt if agent.contempt is not None else self.knowledge.settings.get("contempt", 0.0)
        self.draw = -contempt  # a draw's value for the searching side: below an even game by the contempt
        self.nodes = 0
        self.best_replies: dict[Any, Action] = {}
        # remembering positions pays only where the game computes a cheap key of its own
        self.keyed = type(view).position_key is not State.position_key
        # each deepening iteration (and each transposition) meets the same positions again: where the
        # key is exact, their candidates and evaluations, the costliest part of a node, are worked out once
        exact = self.keyed and self.knowledge.settings.get("exact_keys", False)
        self.candidate_orders: dict[Any, list[Action]] | None = {} if exact else None
        self.memo: dict[Any, Any] | None = {} if exact else None

    def run(self, actions: list[Action]) -> Action:
        ordered = self.knowledge.candidates(self.view, self.player, actions, self.agent.rng, self.budget.out_of_time)
        best = ordered[0]
        for depth in range(1, self.agent.max_depth + 1):
            try:
                value, best = self._root(ordered, depth)
            except _OutOfBudget:
                break
            self.agent.last_depth = depth
            ordered = [best] + [a for a in ordered if a != best]
            if abs(value) >= WIN_VALUE - MAX_DEPTH:
                break  # a forced result: deeper search cannot change it
        return best

    def _root(self, ordered: list[Action], depth: int) -> tuple[float, Action]:
        alpha, best = float("-inf"), ordered[0]
        for action in ordered:
            child = self.view.clone()
            child.apply(action, self.player, validate=False)
            value = self._value(child, depth - 1, alpha, float("inf"), 1)
            if value > alpha:
                alpha, best = value, action
        return alpha, best

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of `state` for the searching side, within the window (alpha, beta)."""
        self.nodes += 1
        if self.budget.spent(self.nodes):
            raise _OutOfBudget
        if state.is_terminal():
            returns = state.returns()
            if not any(returns):
                return self.draw
            return returns[self.player] * (WIN_VALUE - ply)  # sooner wins, later losses
        to_act = state.current_player()
        if depth <= 0 or to_act == SIMULTANEOUS:
            return self.knowledge.evaluate(state, self.player, self.memo)
        if to_act == CHANCE:
            return self._expectation(state, depth, ply)
        maximising = state.team_of(to_act) == self.team
        key = state.position_key() if self.keyed else None
        best_value = float("-inf") if maximising else float("inf")
        best_action: Action | None = None
        for action in self._ordered(state, to_act, depth, key):
            child = state.clone()
            child.apply(action, to_act, validate=False)
            value = self._value(child, depth - 1, alpha, beta, ply + 1)
            if maximising and value > best_value:
                best_value, best_action = value, action
                alpha = max(alpha, value)
            elif not maximising and value < best_value:
                best_value, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None and best_action is not None:
            self.best_replies[key] = best_action
        return best_value

    def _expectation(self, state: State, depth: int, ply: int) -> float:
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply(outcome, CHANCE, validate=False)
            total += probability * self._value(child, depth - 1, float("-inf"), float("inf"), ply + 1)
        return total

    def _ordered(self, state: State, seat: int, depth: int, key: Any) -> list[Action]:
        known = self.candidate_orders
        if depth < 2:  # near the leaves ordering costs more than it saves
            actions = state.legal_actions(seat)
        elif known is not None and key in known:
            actions = known[key]
        else:
            actions = self.knowledge.candidates(state, seat, state.legal_actions(seat), self.agent.rng,
                                                self.budget.out_of_time, self.memo)
            if known is not None:
                known[key] = actions
        remembered = self.best_replies.get(key) if key is not None else None
        if remembered is not None and remembered in actions:
            actions = [remembered] + [a for a in actions if a != remembered]
        return actions
