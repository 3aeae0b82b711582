"""Frigate benchmark: prints one JSON object.

* random_games: per shipped scenario (with and without SiMove), uniformly random legal play (chance
  from the state's dice, validate=False as agents do) to the end, for a time budget: games and
  actions per second.
* legal_actions: how often the legal actions of a fleet-battle fire window or movement point can be
  listed (the engine's hottest call).
* decision_seconds: one decision of each level ai:1..ai:5 in the largest scenario (fleet-battle),
  at its first movement point (each level fills its move time, so this shows the budgets kept).
* search: the first decisions of a squadron action (`squadron-line-ahead`) between ai:3 at its
  iteration count and greedy, as the arena plays them: the seconds the same search work takes, so
  the figure compares engines (the games are the same on any machine).
* `--aims N`: N battles a pairing between greedy captains each firing every broadside at one aim
  (hull or rigging), on the even duel, the uneven one and the squadron action: the measurement
  behind the captains' aiming at the hull (docs/ai.md).
* `--exchange FOLDER...`: for arena folders of duels (`quarterdeck arena --out`), the first agent's
  W-D-L, the hits each side's attacks were expected to score (the evaluation's price of each attack
  as its dice roll), and the share of games those exchanges would win and draw if only the CRT's
  dice decided (each side's hits Poisson with that mean): how well the captains fought, read
  without most of the dice's noise (docs/ai.md).
* `--calibrate N`: the calibration of docs/rules/frigate.md, N games a setup between equal greedy
  captains (sides as the setup says): a 74 against a 44 standing and fighting, a 44 running from a
  74 off the wind, two 44s against a 74, and how often a 1-1 broadside between equals hits.

Runs in about a minute: `python benchmarks/bench_frigate.py` (`--calibrate 200` adds a few more).
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
from quarterdeck.ai.agents import GreedyAgent
from quarterdeck.arena.runner import ArenaConfig, play_game, schedule
from quarterdeck.core.protocol import CHANCE
from quarterdeck.core.record import Record
from quarterdeck.games import get
from quarterdeck.games.frigate import combat
from quarterdeck.games.frigate.actions import Fire, Move, Turn
from quarterdeck.games.frigate.evaluate import attack_in_flight
from quarterdeck.games.frigate.scenario import scenario_from_data
from quarterdeck.games.frigate.state import FrigateState

GAME = get("frigate")
SECONDS_PER_SCENARIO = 3.0


def random_games(scenario: str, options: dict, budget: float) -> dict:
    actions = games = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    while time.perf_counter() - start < budget or games == 0:
        rng = random.Random(games)
        state = GAME.new_initial_state(scenario, options, games)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(), validate=False)
            else:
                for seat in state.acting_players():
                    state.apply(rng.choice(state.legal_actions(seat)), seat, validate=False)
                    actions += 1
        games += 1
        endings[state.outcome.result] += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": round(elapsed, 2), "games_per_second": round(games / elapsed, 2),
            "actions_per_second": round(actions / elapsed), "results": dict(endings)}


def to_first_point(state: FrigateState, rng: random.Random) -> FrigateState:
    """Play randomly (holding fire) until a player faces a movement point."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance())
            continue
        seat = state.acting_players()[0]
        actions = state.legal_actions(seat)
        if any(isinstance(a, Move | Turn) for a in actions):
            return state
        state.apply(rng.choice(actions), seat)
    return state


def legal_action_rate(budget: float) -> dict:
    state = to_first_point(GAME.new_initial_state("fleet-battle", {}, 1), random.Random(1))
    seat = state.acting_players()[0]
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        state.legal_actions(seat)
        count += 1
    ship = state.ship_list[0]
    fire_count, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        combat.fire_options(state, ship)
        fire_count += 1
    return {"movement_lists_per_second": round(count / budget), "fire_option_lists_per_second":
            round(fire_count / budget)}


def decision_seconds() -> dict:
    state = to_first_point(GAME.new_initial_state("fleet-battle", {}, 2), random.Random(2))
    seat = state.acting_players()[0]
    times = {}
    for level in range(1, 6):
        agent = make_agent(f"ai:{level}", seed=level)
        start = time.perf_counter()
        agent.act(state.clone(), seat)
        times[f"ai:{level}"] = round(time.perf_counter() - start, 2)
    return times


def search_seconds(decisions: int = 40) -> dict:
    config = ArenaConfig(game="frigate", agents=("ai:3:budget=iterations", "greedy"), games=1, seed=2026,
                         scenario="squadron-line-ahead", decision_limit=decisions)
    start = time.perf_counter()
    result, _ = play_game(GAME, config, schedule(config, 2)[0])
    return {"scenario": config.scenario, "decisions": result.decisions,
            "seconds": round(time.perf_counter() - start, 2)}


# --- calibration ------------------------------------------------------------------------------------
def _battle(ships: list[dict], wind: int, velocity: str, turns: int) -> dict:
    return {
        "title": "Calibration", "briefing": "A calibration setup.", "turns": turns,
        "wind": {"direction": wind, "velocity": velocity},
        "forces": [{"side": "blue", "name": "Blue", "efficiency": "average", "preservation": 30,
                    "home_edge": "north"},
                   {"side": "red", "name": "Red", "efficiency": "average", "preservation": 30,
                    "home_edge": "south"}],
        "ships": ships,
        "objectives": [{"side": "blue", "edge": "any", "points": -8}, {"side": "red", "edge": "any", "points": -8}],
    }


# Standing and fighting: abeam at two hexes in a calm, neither under way.
SEVENTY_FOUR = {"name": "Bellona", "side": "blue", "rating": 74, "hex": "1510", "facing": "N", "ma": 0}
FORTY_FOUR = {"name": "Hortense", "side": "red", "rating": 44, "class": "frigate", "hex": "1710", "facing": "N",
              "ma": 0}
STAND_UP = _battle([SEVENTY_FOUR, FORTY_FOUR], 2, "calm", 15)
EQUALS = _battle([dict(FORTY_FOUR, name="Essex", side="blue", hex="1510"), FORTY_FOUR], 2, "calm", 15)


def play(data: dict, seed: int, agents=("greedy", "greedy")) -> FrigateState:
    return play_out(FrigateState.start(GAME, scenario_from_data(data, "calibration"), seed),
                    [make_agent(agents[0], seed), make_agent(agents[1], seed + 1)])


def play_out(state: FrigateState, players: list) -> FrigateState:
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance())
            continue
        for seat in state.acting_players():
            state.apply(players[seat].act(state, seat), seat)
    return state


def calibrate(games: int) -> dict:
    from quarterdeck.games.frigate.scenario import load_scenario

    results: dict = {}
    stand = Counter(play(STAND_UP, seed).outcome.result for seed in range(games))
    results["74_vs_44_standing"] = dict(stand)
    chase = load_scenario("the-chase").data
    escapes = Counter()
    for seed in range(games):
        state = play(chase, seed)
        amethyst = state.ships["Amethyst"]
        escapes["escaped" if amethyst.status == "escaped" else "taken" if amethyst.prize or amethyst.status == "sunk"
                else "still there"] += 1
    results["44_runs_from_74"] = dict(escapes)
    two = load_scenario("seventy-four-and-two-frigates").data
    results["two_44s_vs_74"] = dict(Counter(play(two, seed).outcome.result for seed in range(games)))
    tables = GAME.new_initial_state().tables
    for rng in (1, 4, 8):
        gs = combat.gunnery_strength(tables, 6, False, rng, "", 0)
        column = combat.odds_column(tables, gs, 6, "II")
        hit = sum(1 for face in range(1, 7) if column and combat.crt_hits(tables, column, face)) / 6
        results[f"44_on_44_at_{rng}_hexes"] = {"gunnery": gs, "column": column or "none",
                                              "chance_of_a_hit": round(hit, 3)}
    duels = [play(EQUALS, seed) for seed in range(games)]
    results["44_vs_44_decided"] = sum(1 for s in duels if any(
        (not ship.afloat) or ship.prize or ship.crippled(s.tables) or ship.dismasted(s.tables)
        for ship in s.ship_list)) / games
    return results


class AimingGreedy(GreedyAgent):
    """Greedy, choosing only among broadsides fired at one aim (chase guns have none)."""

    def __init__(self, seed: int, aim: str):
        super().__init__(seed)
        self.aim = aim

    def act(self, state, player):
        view = state.observe(player)
        kept = [a for a in view.legal_actions(player) if not (isinstance(a, Fire) and a.aim and a.aim != self.aim)]
        return self.choose(view, player, kept)


def aims(games: int) -> dict:
    """Blue's W-D-L in each pairing of aims (blue's aim first), per battle."""
    from quarterdeck.games.frigate.scenario import load_scenario

    results: dict = {}
    for name in ("sister-frigates", "frigate-duel", "squadron-line-ahead"):
        data = load_scenario(name).data
        for blue in ("hull", "rigging"):
            for red in ("hull", "rigging"):
                tally = Counter()
                for seed in range(games):
                    state = play_out(FrigateState.start(GAME, scenario_from_data(data, name), seed),
                                     [AimingGreedy(seed, blue), AimingGreedy(seed + 1, red)])
                    tally[{"blue": "won", "red": "lost"}.get(state.outcome.result, "drawn")] += 1
                results[f"{name} blue {blue} red {red}"] = f"{tally['won']}-{tally['drawn']}-{tally['lost']}"
    return results


def exchange(folders: list[str]) -> dict:
    """Per folder: the first agent's W-D-L and mean expected hits (hers, the other's), and the share
    of its games her exchange would win and draw on the hit dice alone."""
    results: dict = {}
    for folder in folders:
        first = json.loads((Path(folder) / "arena.json").read_text())["agents"][0]
        tally: Counter[str] = Counter()
        hers = theirs = won = drawn = 0.0
        games = sorted((Path(folder) / "games").glob("*.json"))
        for path in games:
            result = json.loads(path.read_text())
            seat = result["agents"].index(first)
            score = result["returns"][seat]
            tally["W" if score > 0 else "L" if score < 0 else "D"] += 1
            expected = _expected_hits(Record.parse(path.with_suffix(".qdr").read_text()))
            hers, theirs = hers + expected[seat], theirs + expected[1 - seat]
            win, draw = _outscores(expected[seat], expected[1 - seat])
            won, drawn = won + win, drawn + draw
        n = max(len(games), 1)
        results[folder] = {"games": len(games), "won_drawn_lost": f"{tally['W']}-{tally['D']}-{tally['L']}",
                           "expected_hits": [round(hers / n, 2), round(theirs / n, 2)],
                           "won_on_the_hits": round(won / n, 3), "drawn_on_the_hits": round(drawn / n, 3)}
    return results


def _expected_hits(record: Record) -> list[float]:
    """Each side's attacks, priced as the evaluation prices an attack as its dice begin to roll."""
    totals = [0.0, 0.0]
    for state, text, _ in record.replay(GAME):
        if text.startswith("fire "):  # the state after a fire decision: its dice about to roll
            value = attack_in_flight(state, 0)  # blue's fire counts for blue, red's against
            totals[0 if value > 0 else 1] += abs(value)
    return totals


def _outscores(mine: float, theirs: float, most: int = 60) -> tuple[float, float]:
    """P(X > Y) and P(X = Y) for independent Poisson counts with these means."""
    def pmf(mean: float) -> list[float]:
        return [math.exp(-mean) * mean ** k / math.factorial(k) for k in range(most)]

    mine_pmf, their_pmf = pmf(mine), pmf(theirs)
    above = 1.0  # P(X > k), k from -1 up
    win = draw = 0.0
    for k in range(most):
        above -= mine_pmf[k]
        win += their_pmf[k] * above
        draw += their_pmf[k] * mine_pmf[k]
    return win, draw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", type=int, default=0, help="games per calibration setup")
    parser.add_argument("--aims", type=int, default=0, help="greedy battles per pairing of aims, alone")
    parser.add_argument("--exchange", nargs="+", metavar="FOLDER", help="arena folders of duels to read, alone")
    args = parser.parse_args()
    if args.exchange:
        print(json.dumps({"python": platform.python_version(), "exchange": exchange(args.exchange)}, indent=2))
        return
    if args.aims:
        print(json.dumps({"python": platform.python_version(), "aims": aims(args.aims)}, indent=2))
        return
    report: dict = {"python": platform.python_version(), "random_games": {}}
    for info in GAME.scenarios():
        for label, options in (("", {}), (" simove", {"simove": True})):
            report["random_games"][info.name + label] = random_games(info.name, options, SECONDS_PER_SCENARIO)
    report["legal_actions"] = legal_action_rate(2.0)
    report["decision_seconds_fleet_battle"] = decision_seconds()
    report["search"] = search_seconds()
    if args.calibrate:
        report["calibration"] = calibrate(args.calibrate)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
