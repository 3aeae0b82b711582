"""Pirate Chess speed, with python-chess measured in the same run as the peer reference.

Prints one JSON object: legal-action generation per second from a mid-game position, whole turns
generated per second from it (perft depth 1: every action sequence of one turn, cloned and
applied), random playouts (actions and games per second) of Pirate Chess and of standard chess
(python-chess, a benchmark-only dependency), and the ratios. Runs in about 23 seconds with the
default budget:

    .venv/bin/python benchmarks/bench_pirate_chess.py [--seconds 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable

import chess

from quarterdeck.games import get
from quarterdeck.games.pirate_chess.perft import perft

GAME = get("pirate-chess")
MIDGAME_ACTIONS = 80  # random actions from the standard start: the reserves are mostly at sea


def midgame_position(seed: int):
    """A reproducible position well past the opening: random play, retried until it is still going."""
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        state = GAME.new_initial_state("standard")
        for _ in range(MIDGAME_ACTIONS):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()), validate=False)
        if not state.is_terminal():
            return state
    raise RuntimeError("no mid-game position found")


def repeat_for(seconds: float, work: Callable[[], int]) -> tuple[int, int, float]:
    """Call `work` until `seconds` have passed; (calls, total of what it returned, elapsed)."""
    calls = total = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        total += work()
        calls += 1
    return calls, total, elapsed


def pirate_chess_playout(rng: random.Random) -> Callable[[], int]:
    def one_game() -> int:
        state = GAME.new_initial_state("standard")
        actions = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()), validate=False)
            actions += 1
        return actions

    return one_game


def chess_playout(rng: random.Random) -> Callable[[], int]:
    def one_game() -> int:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        return board.ply()

    return one_game


def playout_rates(calls: int, actions: int, elapsed: float) -> dict[str, float]:
    return {
        "games": calls,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed, 1),
        "games_per_second": round(calls / elapsed, 3),
        "mean_actions_per_game": round(actions / calls, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="time budget of each playout measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    position = midgame_position(args.seed)
    legal_count = len(position.legal_actions())
    calls, _, elapsed = repeat_for(args.seconds / 3, lambda: len(position.legal_actions()))
    perft_calls, turns, perft_elapsed = repeat_for(args.seconds / 3, lambda: perft(position, 1))

    ours = playout_rates(*repeat_for(args.seconds, pirate_chess_playout(random.Random(args.seed))))
    peer = playout_rates(*repeat_for(args.seconds, chess_playout(random.Random(args.seed))))

    print(
        json.dumps(
            {
                "benchmark": "pirate-chess",
                "python": platform.python_version(),
                "python_chess": chess.__version__,
                "legal_actions": {
                    "turns_played": sum(position.turns_played),
                    "ships_on_board": sum(len(position.on_board(fleet)) for fleet in range(2)),
                    "actions_in_position": legal_count,
                    "calls_per_second": round(calls / elapsed, 1),
                    "actions_per_second": round(calls * legal_count / elapsed, 1),
                },
                "whole_turns": {
                    "turns_in_position": turns // perft_calls,
                    "turns_per_second": round(turns / perft_elapsed, 1),
                },
                "random_playouts": ours,
                "python_chess_random_playouts": peer,
                "ratio_to_python_chess": {
                    "actions_per_second": round(ours["actions_per_second"] / peer["actions_per_second"], 3),
                    "games_per_second": round(ours["games_per_second"] / peer["games_per_second"], 3),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
