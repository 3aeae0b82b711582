"""Speed of the engine as the agents see it, beside python-chess, and arena throughput.

For every registered game (default scenario): legal-action generation, random playouts (actions
and games per second) and MCTS iterations per second; python-chess random playouts of standard
chess in the same run as the peer reference, and the ratios; then arena games per second with 1
and 2 worker processes and the scaling ratio.

Prints one JSON document. Run: python benchmarks/bench_ai.py [--seconds N] [--arena-games N] [--arena-game NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import tempfile
import time
from collections.abc import Callable

import chess

from quarterdeck import games
from quarterdeck.ai import make_agent
from quarterdeck.arena import ArenaConfig, LocalExecutor, run_arena
from quarterdeck.core.protocol import CHANCE, State

PLAYOUT_LIMIT = 2000  # decisions; a longer random game is cut off here
MOVE_TIME = 1.0  # seconds per MCTS decision


def timed(seconds: float, step: Callable[[], int]) -> tuple[int, int, float]:
    """Run `step` (which returns a count of actions) until `seconds` pass: (calls, actions, elapsed)."""
    calls = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        actions += step()
        calls += 1
    return calls, actions, elapsed


def random_playout(state: State, rng: random.Random) -> int:
    decisions = 0
    while not state.is_terminal() and decisions < PLAYOUT_LIMIT:
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(), CHANCE, validate=False)
        else:
            for seat in list(state.acting_players()):
                state.apply(rng.choice(state.legal_actions(seat)), seat, validate=False)
        decisions += 1
    return decisions


def positions_of(game, count: int) -> list[State]:
    rng = random.Random(1)
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_initial_state(None, {}, len(positions))
        while not state.is_terminal() and len(positions) < count:
            positions.append(state.clone())
            seats = [CHANCE] if state.current_player() == CHANCE else list(state.acting_players())
            for seat in seats:
                action = state.sample_chance() if seat == CHANCE else rng.choice(state.legal_actions(seat))
                state.apply(action, seat, validate=False)
    return positions


def bench_game(name: str, seconds: float) -> dict:
    game = games.get(name)
    positions = [p for p in positions_of(game, 300) if p.current_player() >= 0]
    cursor = iter(range(10**12))

    def generate() -> int:
        return len(positions[next(cursor) % len(positions)].legal_actions())

    calls, generated, elapsed = timed(seconds, generate)
    rng = random.Random(2)
    playouts, actions, playout_time = timed(seconds, lambda: random_playout(game.new_initial_state(), rng))
    agent = make_agent(f"mcts:movetime={MOVE_TIME}", seed=3)
    mcts_iterations = mcts_time = longest = 0.0
    for position in positions[:: max(1, len(positions) // 5)][:5]:
        start = time.perf_counter()
        agent.act(position, position.current_player())
        took = time.perf_counter() - start
        mcts_time += took
        longest = max(longest, took)
        mcts_iterations += agent.last_iterations
    return {
        "scenario": game.default_scenario,
        "legal_action_lists_per_s": calls / elapsed,
        "legal_actions_listed_per_s": generated / elapsed,
        "random_playout_actions_per_s": actions / playout_time,
        "random_playout_games_per_s": playouts / playout_time,
        "mean_playout_length": actions / playouts,
        "mcts_iterations_per_s": mcts_iterations / mcts_time if mcts_time else 0.0,
        "mcts_longest_decision_over_move_time": longest / MOVE_TIME,
    }


def bench_chess(seconds: float) -> dict:
    rng = random.Random(4)
    boards = []
    board = chess.Board()
    while len(boards) < 300:
        boards.append(board.copy())
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            board = chess.Board()
    cursor = iter(range(10**12))

    def generate() -> int:
        return len(list(boards[next(cursor) % len(boards)].legal_moves))

    calls, generated, elapsed = timed(seconds, generate)

    def playout() -> int:
        board = chess.Board()
        moves = 0
        while not board.is_game_over() and moves < PLAYOUT_LIMIT:
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
        return moves

    playouts, actions, playout_time = timed(seconds, playout)
    return {
        "legal_action_lists_per_s": calls / elapsed,
        "legal_actions_listed_per_s": generated / elapsed,
        "random_playout_actions_per_s": actions / playout_time,
        "random_playout_games_per_s": playouts / playout_time,
        "mean_playout_length": actions / playouts,
    }


def bench_arena(name: str, count: int) -> dict:
    # games long enough (a few seconds each) that starting the worker processes does not dominate
    config = ArenaConfig(game=name, agents=("mcts:iterations=20", "greedy"), games=count, seed=5, decision_limit=200)
    rates = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            run_arena(games.get(name), config, out, LocalExecutor(workers))
            rates[workers] = count / (time.perf_counter() - start)
    return {
        "game": name,
        "agents": list(config.agents),
        "games": count,
        "games_per_s_1_worker": rates[1],
        "games_per_s_2_workers": rates[2],
        "scaling_2_over_1": rates[2] / rates[1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--arena-games", type=int, default=8, help="games per arena throughput run")
    parser.add_argument("--arena-game", default=None, help="game of the arena runs (default: the first)")
    arguments = parser.parse_args()
    names = games.names()
    chess_numbers = bench_chess(arguments.seconds)
    per_game = {name: bench_game(name, arguments.seconds) for name in names}
    ratios = {
        name: {
            key: numbers[key] / chess_numbers[key]
            for key in ("legal_actions_listed_per_s", "random_playout_actions_per_s", "random_playout_games_per_s")
        }
        for name, numbers in per_game.items()
    }
    report = {
        "benchmark": "ai",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "games": per_game,
        "python_chess": {"version": chess.__version__, **chess_numbers},
        "ratios_to_python_chess": ratios,
        "arena": bench_arena(arguments.arena_game or names[0], arguments.arena_games) if names else None,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
