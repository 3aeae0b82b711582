"""Naval Warfare speed: random games per second on every scenario, legal-action generation per
second in the line-of-battle movement phase, and the decision time of ai:1 .. ai:5 there.

Prints one JSON object. Target (the issue): a random line-of-battle game under 2 s, and every
level within its move time.

    .venv/bin/python benchmarks/bench_naval_warfare.py [--games 3] [--levels 1,2,3,4,5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from quarterdeck.ai import make_agent
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games import get

GAME = get("naval-warfare")


def random_game(scenario: str, seed: int) -> int:
    state = GAME.new_initial_state(scenario, seed=seed)
    rng = random.Random(seed)
    actions = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance()
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action, validate=False)
        actions += 1
    return actions


def movement_position(seed: int):
    state = GAME.new_initial_state("line-of-battle", seed=seed)
    while state.current_player() == CHANCE or state.agenda[0][1] != "move":
        state.apply(state.sample_chance() if state.current_player() == CHANCE else state.legal_actions()[0])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result: dict = {"python": platform.python_version(), "random_games": {}}
    for scenario in [info.name for info in GAME.scenarios()]:
        start = time.perf_counter()
        actions = sum(random_game(scenario, args.seed + i) for i in range(args.games))
        seconds = time.perf_counter() - start
        result["random_games"][scenario] = {
            "games": args.games, "seconds_per_game": round(seconds / args.games, 3),
            "games_per_second": round(args.games / seconds, 2), "actions_per_game": actions // args.games,
        }
    state = movement_position(args.seed)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < 2.0:
        state._cand = {}  # measure generation, not the per-position memo
        count = len(state.legal_actions())
        calls += 1
    seconds = time.perf_counter() - start
    result["legal_actions"] = {"position": "line-of-battle, first movement decision", "actions": count,
                               "calls_per_second": round(calls / seconds, 1)}
    result["agents"] = {}
    for level in [int(x) for x in args.levels.split(",") if x]:
        agent = make_agent(f"ai:{level}", seed=args.seed)
        start = time.perf_counter()
        agent.act(state.clone(), state.current_player())
        result["agents"][f"ai:{level}"] = {"decision_seconds": round(time.perf_counter() - start, 3)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
