"""Load test of the web server on loopback, bounded: a fixed number of simulated players, each
playing a fixed number of moves of its own game at one screen, while a spectator socket per game
watches. Writes JSON with the throughput, the move latency percentiles (request sent -> move stored
and acknowledged), the push latency (request sent -> update received by the watching socket) and
the server's memory per live game.

    .venv/bin/python benchmarks/load_web.py --players 100 --moves 40 [--database URL] [--runs 3] [--out FILE]
    .venv/bin/python benchmarks/load_web.py --long      # the cost of move ~400 against move ~10
    .venv/bin/python benchmarks/load_web.py --rate 520  # players paced to offer 520 moves/s in all

Unpaced, each player sends its next move the moment the last is answered: the throughput is the
most the server (and the client beside it) can do, and with every player always waiting the mean
latency is players / throughput (Little's law: 100 players at 500 moves/s wait 200 ms each). Paced
(`--rate`), the players offer a fixed load, as people who think between moves do, and the latency
is what a move costs at that load, counted from when the move was due (a server that falls behind
is charged for the queue it caused). The report gives the client's own CPU per move as well as the
server's: on one machine they share the cores.

`--long` plays long games (up to 400 moves each, fewer players) and compares the latency of the
moves around number 10 with those around number 400: a server whose cost per move grows with the
game shows it there. Random Pirate Chess games end on their own after 300 to 600 moves; the report
says how many reached the late window. Its players are paced at 20 moves a second each unless
`--rate` says otherwise: alone on a quiet machine, ten unpaced players would each pass the server's
per-connection limit of 40 requests a second and be refused (429).
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
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets

EARLY = range(1, 21)  # "move 10": the moves numbered 1 to 20
LATE = range(381, 401)  # "move 400"


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
        "count": len(ordered),
        "p50_ms": at(0.50),
        "p90_ms": at(0.90),
        "p99_ms": at(0.99),
        "max_ms": round(ordered[-1] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


class Http:
    """One keep-alive HTTP/1.1 connection that knows only what this load needs (JSON bodies with a
    Content-Length, as the server sends them). The client shares the machine's cores with the
    server: with httpx the client spent 2.4 to 2.8 ms of CPU per move, with this 0.4 ms (socket
    and JSON included), and every millisecond it does not spend is the server's."""

    def __init__(self, url: str):
        self.host, _, port = url.removeprefix("http://").partition(":")
        self.port = int(port or 80)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Http:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self.writer is not None
        self.writer.close()

    async def call(self, method: str, path: str, body: object = None, token: str = "") -> dict:
        """The decoded JSON answer; RuntimeError (with the status and the answer) for a refusal."""
        assert self.reader is not None and self.writer is not None
        payload = orjson.dumps(body) if body is not None else b""
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split()[1])
        fields = dict(line.split(b":", 1) for line in lines[1:] if line)
        length = next((int(value) for name, value in fields.items() if name.lower() == b"content-length"), None)
        if length is None:
            raise RuntimeError(f"{method} {path}: an answer without a Content-Length")
        answer = await self.reader.readexactly(length)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {answer[:300]!r}")
        return orjson.loads(answer)


async def player(
    url: str,
    game: str,
    moves: int,
    seed: int,
    pace: tuple[float, float] | None,
    ready: asyncio.Barrier,
    latencies: list[tuple[int, float]],
    pushes: list[float],
    span: list[float],
) -> int:
    """Create a game, watch it over a socket, and play `moves` random legal actions over HTTP.

    `pace`: None to send each move as soon as the last is answered (closed loop); else (first, every):
    the move numbered n is due `first + n * every` seconds after all players are ready, and its
    latency counts from then, so a server that falls behind is charged for the wait it caused."""
    rng = random.Random(seed)
    async with Http(url) as http:
        created = await http.call("POST", "/api/games", {"game": game, "opponent": "local", "seed": seed})
        token = created["token"]
        view = (await http.call("GET", f"/api/games/{created['id']}", token=token))["view"]
        sent_at: dict[int, float] = {}
        ws_url = url.replace("http", "ws") + f"/ws/games/{created['id']}"
        async with websockets.connect(ws_url, max_size=None) as watcher:
            await watcher.send(json.dumps({"type": "hello", "since": view["version"]}))
            await watcher.recv()

            async def watch() -> None:
                async for message in watcher:
                    update = orjson.loads(message)
                    if update.get("type") == "update" and update["version"] in sent_at:
                        pushes.append(time.perf_counter() - sent_at[update["version"]])

            watching = asyncio.create_task(watch())
            await ready.wait()  # every game made and watched: the moves start together
            begun = time.perf_counter()
            span[0] = min(span[0], begun)
            played = 0
            while played < moves and view["status"] == "ongoing":
                seat = next(s for s in view["to_act"] if s in view["legal"])
                actions = [a["text"] for group in view["legal"][seat] for a in group["actions"]]
                started = time.perf_counter()
                if pace is not None:
                    due = begun + pace[0] + played * pace[1]
                    if due > started:
                        await asyncio.sleep(due - started)
                    started = due
                sent_at[view["version"] + 1] = started
                reply = await http.call(
                    "POST",
                    f"/api/games/{created['id']}/moves",
                    {"version": view["version"], "actions": [rng.choice(actions)], "seat": seat},
                    token,
                )
                played += 1
                done = time.perf_counter()
                latencies.append((played, done - started))
                span[1] = max(span[1], done)
                view = reply["view"]
            await asyncio.sleep(0.2)  # let the last pushes arrive
            watching.cancel()
    return played


async def run(url: str, game: str, players: int, moves: int, rate: float = 0) -> dict[str, object]:
    """Load the server at `url`; `rate` > 0 paces the players to offer that many moves a second in
    all (each player every players / rate seconds, their starts spread over one such interval)."""
    latencies: list[tuple[int, float]] = []
    pushes: list[float] = []
    span = [float("inf"), 0.0]  # first move sent, last move answered
    ready = asyncio.Barrier(players)
    every = players / rate if rate else 0.0
    cpu_before = time.process_time()
    paces = [(seed * every / players, every) if rate else None for seed in range(players)]
    played = await asyncio.gather(
        *(player(url, game, moves, seed, paces[seed], ready, latencies, pushes, span) for seed in range(players))
    )
    client_cpu = time.process_time() - cpu_before
    elapsed = span[1] - span[0]
    result: dict[str, object] = {
        "game": game,
        "players": players,
        "moves_per_player": moves,
        "offered_moves_per_second": rate or "as fast as answered",
        "moves_played": sum(played),
        "seconds": round(elapsed, 2),
        "moves_per_second": round(sum(played) / elapsed, 1),
        "move_latency": percentiles([latency for _, latency in latencies]),
        "push_latency": percentiles(pushes),
        # The client's own CPU per move (HTTP, socket, JSON, creating the games): it shares the cores.
        "client_cpu_ms_per_move": round(client_cpu * 1000 / max(1, sum(played)), 2),
    }
    if moves >= LATE.stop - 1:
        early = percentiles([latency for number, latency in latencies if number in EARLY])
        late = percentiles([latency for number, latency in latencies if number in LATE])
        result["by_move_number"] = {
            "moves_1_to_20": early,
            "moves_381_to_400": late,
            "games_reaching_400": sum(1 for count in played if count >= LATE.stop - 1),
            "late_over_early_p50": round(late["p50_ms"] / early["p50_ms"], 2) if late and early else None,
        }
    return result


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(args: argparse.Namespace, folder: str, number: int) -> dict[str, object]:
    """Start a fresh server on a fresh database, load it, and measure its memory before and after."""
    database = args.database or f"sqlite:///{Path(folder) / f'load-{number}.sqlite3'}"
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
        idle, cpu_before = rss_kib(server.pid), cpu_seconds(server.pid)
        result = drive(run(url, args.game, args.players, args.moves, args.rate))
        loaded, cpu_after = rss_kib(server.pid), cpu_seconds(server.pid)
        # CPU time the server spent per move: unlike the latencies, it hardly depends on what else runs.
        result["server_cpu_ms_per_move"] = round(
            (cpu_after - cpu_before) * 1000 / max(1, int(result["moves_played"])), 2
        )
        result["database"] = database.split("://")[0].split("+")[0]
        result["server_rss_mib"] = {"idle": round(idle / 1024, 1), "after": round(loaded / 1024, 1)}
        result["memory_per_live_game_kib"] = round((loaded - idle) / args.players, 1)
        if server.poll() is not None:
            raise RuntimeError(f"the server exited during the run with status {server.returncode}")
        return result
    finally:
        server.terminate()
        server.wait(30)


def drive(load: Coroutine[Any, Any, dict[str, object]]) -> dict[str, object]:
    """Run the load on uvloop, the event loop the server uses: the cheaper loop leaves more CPU to the server."""
    return uvloop.run(load)


# A player's pace in long games: half the server's per-connection limit (Settings.rate_per_second).
LONG_GAME_MOVES_PER_SECOND = 20


def summary(runs: list[dict[str, object]]) -> dict[str, object]:
    """Median and spread (min, max) over the runs of the figures the targets name."""

    def figure(run: dict[str, object], path: str) -> float:
        value: object = run
        for key in path.split("."):
            value = value[key]  # type: ignore[index]
        return float(value)  # type: ignore[arg-type]

    paths = ["moves_per_second", "move_latency.p99_ms", "push_latency.p99_ms", "move_latency.p50_ms"]
    paths += ["server_cpu_ms_per_move", "client_cpu_ms_per_move", "memory_per_live_game_kib"]
    if all("by_move_number" in run for run in runs):
        paths.append("by_move_number.late_over_early_p50")
    out = {}
    for path in paths:
        values = [figure(run, path) for run in runs]
        out[path] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=None, help="default 100 (10 with --long)")
    parser.add_argument("--moves", type=int, default=None, help="default 40 (400 with --long)")
    parser.add_argument("--game", default="pirate-chess")
    parser.add_argument("--database", default="", help="default: a fresh SQLite file per run")
    parser.add_argument("--long", action="store_true", help="long games: move ~400 against move ~10")
    parser.add_argument(
        "--rate", type=float, default=0, help="moves a second offered in all, players paced (default: unpaced)"
    )
    parser.add_argument("--runs", type=int, default=1, help="fresh servers, one after the other")
    parser.add_argument("--url", default="", help="load a server already running there instead of starting one")
    parser.add_argument("--out", default="", help="also write the JSON here")
    args = parser.parse_args()
    args.players = args.players or (10 if args.long else 100)
    args.moves = args.moves or (LATE.stop - 1 if args.long else 40)
    if args.long and not args.rate:
        args.rate = args.players * LONG_GAME_MOVES_PER_SECOND
    if args.url:
        report: dict[str, object] = drive(run(args.url, args.game, args.players, args.moves, args.rate))
    else:
        with tempfile.TemporaryDirectory() as folder:
            runs = [one_run(args, folder, number) for number in range(args.runs)]
        report = runs[0] if len(runs) == 1 else {"summary": summary(runs), "runs": runs}
    report_text = json.dumps(report, indent=2)
    print(report_text)
    if args.out:
        Path(args.out).write_text(report_text + "\n")


if __name__ == "__main__":
    main()
