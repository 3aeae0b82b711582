"""Naval Warfare speed: random games per second on every scenario, legal-action generation per
second in the line-of-battle movement phase, and the decision time of ai:1 .. ai:5 there.

Prints one JSON object. Target (the issue): a random line-of-battle game under 2 s, and every
level within its move time.

    .venv/bin/python benchmarks/bench_naval_warfare.py [--games 3] [--levels 1,2,3,4,5] [--seed 1]

`--balance SCENARIO...` plays greedy against itself instead, `--games` battles a scenario from
`--seed` on, and counts each side's wins and the draws: what the scenario gives each side between
captains of one skill, against which a captain's share of wins with sides alternated is read.

`--reach FOLDER...` reads arena or ladder folders instead: per pairing, the drawn games, and those
whose winds kept the two sides out of range: under the wind strengths thrown in the game, each
ship's greatest move (her run in that wind, under oars, or a drift, whichever is longest: for a
sailing ship an inch in light airs, none in a calm) summed over the battle cannot bring any ship
within the longest range of an enemy, however both sides sail. Every ship's move as played is
checked against that greatest move.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import time
from collections import Counter
from pathlib import Path

from quarterdeck.ai import make_agent
from quarterdeck.core.protocol import CHANCE
from quarterdeck.core.record import Record
from quarterdeck.games import get
from quarterdeck.games.naval_warfare import fire, wind

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


def greatest_move(ship, strength: int) -> int:
    """The farthest a ship with her masts standing can go in one move in this wind, under sail, under
    oars or adrift (rules 2 and 6, optional rule 4), in hundredths."""
    sail = {wind.CALM: 0, wind.LIGHT: wind.drift_distance(wind.LIGHT)}.get(strength)
    if sail is None:
        sail = ship.spec.speed * (2 if strength == wind.STRONG else 1)
    return max(sail, ship.spec.oar_speed, wind.drift_distance(strength))


def wind_bound(record: Record) -> tuple[bool, int]:
    """(whether the winds kept every ship out of range of every enemy, how many moves as played went
    farther than greatest_move allows)."""
    strengths: dict[int, int] = {}
    starts: dict[str, tuple[int, int]] = {}
    apart: dict[tuple[str, str], float] = {}  # each pair of enemies at the start of the battle
    overruns = 0
    move = 0

    def settle(ships: list) -> int:  # the moves that went farther than the bound allows
        return sum(1 for ship in ships if ship.name in starts
                   and math.dist(ship.point, starts[ship.name]) > greatest_move(ship, strengths[move]) + 1)

    for state, _, _ in record.replay(GAME):
        ships = [s for s in state.ships.values() if s.status != "waiting"]
        if not apart:
            apart = {(a.name, b.name): math.dist(a.point, b.point) for a in ships for b in ships if a.side < b.side}
        if state.move_number != move:  # a new move: settle the one before
            overruns += settle(ships)
            starts = {ship.name: ship.point for ship in ships}
            move = state.move_number
        if state.phase != "wind":  # the wind thrown for this move; the highest it stood, to be safe
            strengths[move] = max(strengths.get(move, 0), state.strength)
    overruns += settle(ships)
    reach = {ship.name: sum(greatest_move(ship, strength) for strength in strengths.values()) for ship in ships}
    kept_apart = all(d - reach[a] - reach[b] > fire.MAX_RANGE for (a, b), d in apart.items())
    return kept_apart, overruns


def reaches(folders: list[str]) -> dict:
    """Per folder and pairing: games, draws, and the draws the winds decided (see wind_bound)."""
    results: dict = {}
    for folder in folders:
        pairings: dict[str, Counter[str]] = {}
        for path in sorted((Path(folder) / "games").glob("*.json")):
            result = json.loads(path.read_text())
            tally = pairings.setdefault(" vs ".join(sorted(result["agents"])), Counter())
            tally["games"] += 1
            if any(result["returns"]):
                continue
            tally["draws"] += 1
            kept_apart, overruns = wind_bound(Record.parse(path.with_suffix(".qdr").read_text()))
            tally["kept_apart_by_the_wind"] += kept_apart
            tally["moves_over_the_bound"] += overruns
        results[folder] = {name: dict(tally) for name, tally in pairings.items()}
    return results


def balance(scenarios: list[str], games: int, seed: int) -> dict:
    """Per scenario: each side's wins and the draws of `games` battles of greedy against itself."""
    results: dict = {}
    for scenario in scenarios:
        tally: Counter[str] = Counter()
        for game in range(seed, seed + games):
            state = GAME.new_initial_state(scenario, seed=game)
            captains = [make_agent("greedy", seed=side) for side in range(len(state.players))]
            while not state.is_terminal():
                player = state.current_player()
                state.apply(state.sample_chance() if player == CHANCE else captains[player].act(state, player))
            tally[state.outcome.result] += 1
        results[scenario] = dict(tally)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reach", nargs="+", metavar="FOLDER", help="arena or ladder folders to read, alone")
    parser.add_argument("--balance", nargs="+", metavar="SCENARIO", help="greedy against itself, alone")
    args = parser.parse_args()
    if args.balance:
        print(json.dumps({"python": platform.python_version(), "games": args.games, "seed": args.seed,
                          "balance": balance(args.balance, args.games, args.seed)}, indent=2))
        return
    if args.reach:
        print(json.dumps({"python": platform.python_version(), "reach": reaches(args.reach)}, indent=2))
        return
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
