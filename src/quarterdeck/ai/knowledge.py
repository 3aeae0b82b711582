"""A game's optional AI hooks, each with a generic fallback, behind one small interface.

The search agents never ask which game they play; they ask this object. A game package provides
what it knows as attributes of its Game class (docs/ai.md lists the contracts):

* ``hook_evaluate(state, player) -> float``: higher is better for `player`; ``WIN_VALUE`` or more either
  way reads as a decided game, as a finished one does.
* ``hook_evaluate_all(state) -> sequence of float``: every seat's evaluation at once (optional, for
  speed where the seats' values share their work); must agree with ``hook_evaluate``.
* ``hook_candidates(state, player, actions) -> list``: the actions worth searching, best first
  (ordering and pruning in one); it must return at least one of `actions`.
* ``hook_rollout_policy(state, player, rng) -> action``: a legal action for playouts, or None to end
  the playout there (the evaluation then scores the position).
* ``hook_search``: ``"alphabeta"`` or ``"mcts"``, the search the levels `ai:N` use.
* ``hook_search_settings``: a dict of default settings for the search agents (e.g. rollout depth);
  ``"exact_keys": True`` there says the game's ``position_key`` tells positions apart exactly (the
  same key, the same legal actions and evaluation), so that a search works each position out once;
  ``"level_iterations": {level: iterations}`` sets the levels' budgets in this game, and
  ``"level_settings": {level: {setting: value}}`` a level's own search settings (levels.py).

The evaluations take a `memo` (a dict a search keeps for one decision, or None): with one, each
position is evaluated once however often the search meets it, which changes no value, only the time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.protocol import Action, Game, State

WIN_VALUE = 1_000_000.0  # a won position outranks every evaluation
ORDER_LIMIT = 256  # at most this many actions are scored one by one to order a node
PRUNE_ABOVE = 64  # wider than this, keep only the best few actions of each piece
PER_PIECE = 6
T = TypeVar("T")


class Knowledge:
    _cache: dict[type[Game], Knowledge] = {}

    def __init__(self, game: Game):
        self.evaluate_hook: Callable[[State, int], float] | None = game.hook("evaluate")
        self.evaluate_all_hook: Callable[[State], Any] | None = game.hook("evaluate_all")
        self.candidates_hook: Callable[[State, int, list[Action]], list[Action]] | None = game.hook("candidates")
        self.rollout_hook: Callable[[State, int, random.Random], Action | None] | None = game.hook("rollout_policy")
        self.search = game.hook("search") or "mcts"
        self.settings: dict[str, Any] = dict(game.hook("search_settings") or {})

    @classmethod
    def of(cls, game: Game) -> Knowledge:
        key = type(game)
        if key not in cls._cache:
            cls._cache[key] = cls(game)
        return cls._cache[key]

    @property
    def has_evaluation(self) -> bool:
        return self.evaluate_hook is not None

    def evaluate(self, state: State, player: int, memo: dict[Any, Any] | None = None) -> float:
        """The game's evaluation; a finished game scores its return times WIN_VALUE."""
        return _remembered(memo, state, player, lambda: self._evaluate(state, player))

    def _evaluate(self, state: State, player: int) -> float:
        if state.is_terminal():
            return state.returns()[player] * WIN_VALUE
        return self.evaluate_hook(state, player) if self.evaluate_hook else 0.0

    def evaluate_all(self, state: State, seats: int, memo: dict[Any, Any] | None = None) -> list[float]:
        """Every seat's evaluation, in one pass where the game provides `hook_evaluate_all`."""
        if self.evaluate_all_hook is None or state.is_terminal():
            return [self.evaluate(state, seat, memo) for seat in range(seats)]
        hook = self.evaluate_all_hook
        return list(_remembered(memo, state, "all", lambda: tuple(hook(state))))

    def value_after(self, state: State, player: int, action: Action, memo: dict[Any, Any] | None = None) -> float:
        after = state.clone()
        after.apply(action, player, validate=False)
        return self.evaluate(after, player, memo)

    def candidates(
        self,
        state: State,
        player: int,
        actions: list[Action],
        rng: random.Random,
        out_of_time: Callable[[], bool] = lambda: False,
        memo: dict[Any, Any] | None = None,
    ) -> list[Action]:
        """`actions` best first, pruned where there are very many (see `ranked`)."""
        return [action for action, _ in self.ranked(state, player, actions, rng, out_of_time, memo=memo)]

    def ranked(
        self,
        state: State,
        player: int,
        actions: list[Action],
        rng: random.Random,
        out_of_time: Callable[[], bool] = lambda: False,
        score_candidates: bool = False,
        memo: dict[Any, Any] | None = None,
    ) -> list[tuple[Action, float | None]]:
        """(action, its evaluation one decision ahead, or None where not scored), best first.

        The game's own `candidates` hook decides when present (scored one decision ahead only with
        `score_candidates`, while time lasts, in the hook's order). Otherwise each action is
        scored by the evaluation one decision ahead (a random sample of ORDER_LIMIT when wider, and
        only while time lasts), and a wide list is pruned per piece; without an evaluation the
        order is random.
        """
        if len(actions) <= 1:
            return [(action, None) for action in actions]
        if self.candidates_hook is not None:
            chosen = self.candidates_hook(state, player, actions) or actions
            if not score_candidates or self.evaluate_hook is None or len(chosen) == 1:
                return [(action, None) for action in chosen]
            return [(action, None if out_of_time() else self.value_after(state, player, action, memo))
                    for action in chosen]
        shuffled = list(actions)
        rng.shuffle(shuffled)
        if self.evaluate_hook is None:
            return [(action, None) for action in shuffled]
        scored: list[tuple[float, int, Action]] = []
        for order, action in enumerate(shuffled[:ORDER_LIMIT]):
            if out_of_time():
                break
            scored.append((self.value_after(state, player, action, memo), -order, action))
        scored.sort(reverse=True)
        ordered = [(action, value) for value, _, action in scored]
        ordered += [(action, None) for action in shuffled[len(scored) :]]
        return prune_by_piece(state, ordered) if len(ordered) > PRUNE_ABOVE else ordered

    def rollout_action(self, state: State, player: int, rng: random.Random) -> Action | None:
        if self.rollout_hook is not None:
            return self.rollout_hook(state, player, rng)
        return rng.choice(state.legal_actions(player))


def _remembered(memo: dict[Any, Any] | None, state: State, who: Any, work: Callable[[], T]) -> T:
    """`work()`, done once per position (and `who`) a memo has seen; without a memo, every time."""
    if memo is None:
        return work()
    key = (state.position_key(), who)
    if key not in memo:
        memo[key] = work()
    return memo[key]


def prune_by_piece(state: State, ordered: list[tuple[Action, T]]) -> list[tuple[Action, T]]:
    """Keep the PER_PIECE best actions of each piece and every action that belongs to no piece.

    A huge turn (ten ships, each with dozens of moves) stays searchable while every ship keeps
    its best options; actions such as ``end-move`` are never pruned.
    """
    kept: list[tuple[Action, T]] = []
    taken: dict[str, int] = {}
    for entry in ordered:
        piece = state.action_piece(entry[0])
        if piece is None:
            kept.append(entry)
        elif taken.get(piece, 0) < PER_PIECE:
            taken[piece] = taken.get(piece, 0) + 1
            kept.append(entry)
    return kept


def squash(delta: float, scale: float) -> float:
    """An evaluation difference mapped into (-1, 1), the range of a game's returns."""
    return math.tanh(delta / scale) if scale > 0 else 0.0
