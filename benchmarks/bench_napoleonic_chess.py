"""Napoleonic Chess benchmark: prints one JSON object.

* random_playouts: uniformly random legal actions (validate=False, as agents do) from the standard
  scenario until the game ends, for a fixed time budget: actions per second, games per second.
* legal_actions: how often `legal_actions()` can be listed in the standard opening (Red's movement
  phase, 44 moves and end-move).
* opening_move_configurations: the "legal turn" measure. Red's first movement phase lets any
  subset of its 15 units move, one at a time, each once, in any order, so whole turns are too many to
  list. Instead: the number of distinct positions reachable by moving exactly k units (k = 0..3),
  counted exactly by breadth-first search over the engine's own move generation. `placements`
  tells units apart (which unit stands where); `configurations` only by army and type (what the
  board shows).

Runs in well under a minute: `python benchmarks/bench_napoleonic_chess.py`.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections import Counter

from quarterdeck.games import get
from quarterdeck.games.napoleonic_chess.actions import Move

PLAYOUT_SECONDS = 12.0
LEGAL_ACTION_SECONDS = 3.0
MAX_MOVED_UNITS = 3


def random_playouts(game, budget: float) -> dict:
    actions = games = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        rng = random.Random(games)
        state = game.new_initial_state("standard")
        while not state.is_terminal():
            player = state.acting_players()[0]
            state.apply(rng.choice(state.legal_actions(player)), player, validate=False)
            actions += 1
        games += 1
        endings[state.outcome.reason.split(" (")[0]] += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 2),
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(games / elapsed, 2),
        "mean_actions_per_game": round(actions / games, 1),
        "endings": dict(endings.most_common()),
    }


def legal_action_rate(game, budget: float) -> dict:
    state = game.new_initial_state("standard")
    count = len(state.legal_actions())
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for _ in range(100):
            state.legal_actions()
        calls += 100
    elapsed = time.perf_counter() - start
    return {"actions_in_opening": count, "calls_per_second": round(calls / elapsed)}


def opening_move_configurations(game, depth: int) -> dict:
    start = time.perf_counter()
    level = {_placement(state := game.new_initial_state("standard")): state}
    per_level = []
    for moved in range(depth + 1):
        configurations = {
            frozenset((square, unit.army, unit.kind.name) for square, unit in s.board.items()) for s in level.values()
        }
        per_level.append({"units_moved": moved, "placements": len(level), "configurations": len(configurations)})
        if moved == depth:
            break
        following = {}
        for state in level.values():
            for action in state.legal_actions():
                if isinstance(action, Move):
                    child = state.clone()
                    child.apply(action, validate=False)
                    following.setdefault(_placement(child), child)
        level = following
    return {"levels": per_level, "seconds": round(time.perf_counter() - start, 2)}


def _placement(state) -> frozenset:
    return frozenset((square, unit.id) for square, unit in state.board.items())


def main() -> None:
    game = get("napoleonic-chess")
    report = {
        "game": game.name,
        "python": platform.python_version(),
        "random_playouts": random_playouts(game, PLAYOUT_SECONDS),
        "legal_actions": legal_action_rate(game, LEGAL_ACTION_SECONDS),
        "opening_move_configurations": opening_move_configurations(game, MAX_MOVED_UNITS),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
