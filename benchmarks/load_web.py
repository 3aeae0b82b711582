"""Load test of the web server on loopback, bounded: a fixed number of simulated players, each
playing a fixed number of moves of its own game at one screen, while a spectator socket per game
watches. Prints JSON with the move latency percentiles (request sent -> move stored and
acknowledged) and the push latency (request sent -> update received by the watching socket).

    .venv/bin/python benchmarks/load_web.py --players 20 --moves 40 [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {}
    ordered = sorted(samples)

    def at(fraction: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)

    return {
        "p50_ms": at(0.50),
        "p90_ms": at(0.90),
        "p99_ms": at(0.99),
        "max_ms": round(ordered[-1] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


async def player(url: str, game: str, moves: int, seed: int, latencies: list[float], pushes: list[float]) -> int:
    """Create a game, watch it over a socket, and play `moves` random legal actions over HTTP."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        created = (await http.post("/api/games", json={"game": game, "opponent": "local", "seed": seed})).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        view = (await http.get(f"/api/games/{created['id']}", headers=headers)).json()["view"]
        sent_at: dict[int, float] = {}
        ws_url = url.replace("http", "ws") + f"/ws/games/{created['id']}"
        async with websockets.connect(ws_url, max_size=None) as watcher:
            await watcher.send(json.dumps({"type": "hello", "since": view["version"]}))
            await watcher.recv()

            async def watch() -> None:
                async for message in watcher:
                    update = json.loads(message)
                    if update.get("type") == "update" and update["version"] in sent_at:
                        pushes.append(time.perf_counter() - sent_at[update["version"]])

            watching = asyncio.create_task(watch())
            played = 0
            while played < moves and view["status"] == "ongoing":
                seat = next(s for s in view["to_act"] if s in view["legal"])
                actions = [a["text"] for group in view["legal"][seat] for a in group["actions"]]
                started = time.perf_counter()
                sent_at[view["version"] + 1] = started
                reply = await http.post(
                    f"/api/games/{created['id']}/moves",
                    json={"version": view["version"], "actions": [rng.choice(actions)], "seat": seat},
                    headers=headers,
                )
                reply.raise_for_status()
                latencies.append(time.perf_counter() - started)
                view = reply.json()["view"]
                played += 1
            await asyncio.sleep(0.2)  # let the last pushes arrive
            watching.cancel()
    return played


async def run(url: str, game: str, players: int, moves: int) -> dict[str, object]:
    latencies: list[float] = []
    pushes: list[float] = []
    started = time.perf_counter()
    played = await asyncio.gather(*(player(url, game, moves, seed, latencies, pushes) for seed in range(players)))
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "players": players,
        "moves_per_player": moves,
        "moves_played": sum(played),
        "seconds": round(elapsed, 2),
        "moves_per_second": round(sum(played) / elapsed, 1),
        "move_latency": percentiles(latencies),
        "push_latency": percentiles(pushes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--game", default="pirate-chess")
    parser.add_argument("--database", default="", help="default: a fresh SQLite file")
    parser.add_argument("--url", default="", help="load a server already running there instead of starting one")
    args = parser.parse_args()
    if args.url:
        print(json.dumps(asyncio.run(run(args.url, args.game, args.players, args.moves)), indent=2))
        return
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "quarterdeck.cli.main",
                "serve",
                "--no-browser",
                "--port",
                str(port),
                "--database",
                database,
            ],
            stdout=subprocess.DEVNULL,
            env={**os.environ, "DATABASE_URL": database},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(f"{url}/api/catalogue", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            result = asyncio.run(run(url, args.game, args.players, args.moves))
            result["database"] = database.split("://")[0]
            print(json.dumps(result, indent=2))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
