"""Each computer level's decision time at its iteration budget, against the level's move time.

The ladder (`quarterdeck ladder`) plays the levels at their iteration counts so that its results do
not depend on the machine; a level is honest when those iterations fit in its move time here.
Positions come from greedy self-play of the game (the same positions on every run), every third
decision that has a choice; each level decides each of them afresh.

Prints one JSON document. Run: python benchmarks/bench_levels.py [GAME] [--scenario S] [--positions N] [--levels 1,2,3]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from quarterdeck import games
from quarterdeck.ai import make_agent
from quarterdeck.ai.knowledge import Knowledge
from quarterdeck.ai.levels import LEVELS, level_iterations
from quarterdeck.core.protocol import CHANCE, Game, State


def positions_of(game, scenario: str | None, count: int) -> list[tuple[State, int]]:
    """(position, seat to decide) pairs from greedy self-play, every third decision with a choice."""
    found: list[tuple[State, int]] = []
    seed = 0
    while len(found) < count:
        state = game.new_initial_state(scenario, {}, seed)
        agents = [make_agent("greedy", seed=seed * 10 + seat) for seat in range(len(state.players))]
        decisions = 0
        while not state.is_terminal() and len(found) < count and decisions < 2000:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(), CHANCE, validate=False)
                continue
            for seat in list(state.acting_players()):
                if len(state.legal_actions(seat)) > 1 and decisions % 3 == 0 and len(found) < count:
                    found.append((state.clone(), seat))
                decisions += 1
                state.apply(agents[seat].act(state, seat), seat)
        seed += 1
    return found


def level_times(game: Game, positions: list[tuple[State, int]], level: int) -> dict:
    agent = make_agent(f"ai:{level}:budget=iterations", seed=level)
    move_time = LEVELS[level].movetime
    times = []
    for state, seat in positions:
        start = time.perf_counter()
        agent.act(state, seat)
        times.append(time.perf_counter() - start)
    times.sort()
    return {
        "move_time_s": move_time,
        "iterations": level_iterations(Knowledge.of(game))[level],
        "decisions": len(times),
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(times[int(0.9 * (len(times) - 1))], 3),
        "max_s": round(times[-1], 3),
        "over_move_time": sum(t > move_time for t in times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="square-rigger")
    parser.add_argument("--scenario", default=None)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)))
    arguments = parser.parse_args()
    game = games.get(arguments.game)
    positions = positions_of(game, arguments.scenario, arguments.positions)
    report = {
        "benchmark": "levels",
        "python": platform.python_version(),
        "game": game.name,
        "scenario": arguments.scenario or game.default_scenario,
        "levels": {f"ai:{level}": level_times(game, positions, int(level)) for level in arguments.levels.split(",")},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
