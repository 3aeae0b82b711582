"""Square Rigger Chess speed: legal-action generation and random playouts on the fleet battle.

Prints one JSON document. Run: python benchmarks/bench_square_rigger.py [--seconds N]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from quarterdeck import games


def legal_generation(game, seconds: float) -> dict:
    """Legal-action lists per second over positions sampled from random fleet-battle play."""
    rng = random.Random(1)
    positions = []
    state = game.new_initial_state("fleet-battle")
    while len(positions) < 200 and not state.is_terminal():
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()), validate=False)
    calls = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for position in positions:
            actions += len(position.legal_actions())
            calls += 1
    elapsed = time.perf_counter() - start
    return {"positions": len(positions), "calls_per_s": round(calls / elapsed, 1),
            "actions_per_call": round(actions / calls, 1)}


def random_playouts(game, seconds: float, scenario: str = "fleet-battle") -> dict:
    rng = random.Random(2)
    played = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(scenario)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()), validate=False)
            actions += 1
        played += 1
    elapsed = time.perf_counter() - start
    return {"scenario": scenario, "games": played, "actions": actions,
            "games_per_s": round(played / elapsed, 3), "actions_per_s": round(actions / elapsed, 1),
            "actions_per_game": round(actions / max(played, 1), 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    game = games.get("square-rigger")
    result = {
        "benchmark": "square-rigger",
        "python": platform.python_version(),
        "legal_action_generation": legal_generation(game, args.seconds),
        "random_playouts": random_playouts(game, args.seconds),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
