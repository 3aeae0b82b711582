"""Stopping an arena: Ctrl-C, `kill` and `kill -9` end its worker processes with it at once, rather
than leaving the games they hold to play on (for up to an hour at the top levels) for nobody."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from quarterdeck.arena import LocalExecutor
from quarterdeck.cli.commands import arena as arena_command
from quarterdeck.cli.main import app

from .helpers import InProcess, wait_then_return

# Two of Napoleonic Chess's strongest levels searching every iteration: a game lasts many minutes.
LONG_GAMES = ["arena", "-g", "napoleonic-chess", "--agents", "ai:5:budget=iterations,ai:4:budget=iterations",
              "--games", "2", "--workers", "1"]
STOPPED_WITHIN = 60  # seconds; the game under way would take far longer to finish


def test_workers_end_with_the_jobs_they_hold_when_the_arena_stops_reading():
    jobs = [(0.0, "quick"), (3600.0, "an hour"), (3600.0, "another hour")]
    results = LocalExecutor(workers=2).map_unordered(wait_then_return, jobs)
    assert next(results) == "quick"
    workers = multiprocessing.active_children()
    assert workers
    closing = threading.Thread(target=results.close, daemon=True)  # as when Ctrl-C reaches the arena
    closing.start()
    closing.join(STOPPED_WITHIN)
    assert not closing.is_alive(), "the arena waited for the hour-long jobs"
    assert not any(worker.is_alive() for worker in workers)


def test_the_arena_command_after_ctrl_c_summarises_the_games_finished(tmp_path, monkeypatch):
    out = tmp_path / "out"
    arguments = ["arena", "-g", "pirate-chess", "--agents", "random,greedy", "--games", "4",
                 "--decision-limit", "30", "--out", str(out)]
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: InProcess(stop_after=3))
    first = CliRunner().invoke(app, arguments)
    assert first.exit_code == 0, first.output
    assert "interrupted" in first.output
    assert json.loads((out / "summary.json").read_text())["games"] == 3
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: InProcess())
    second = CliRunner().invoke(app, arguments)
    assert second.exit_code == 0 and "interrupted" not in second.output
    assert json.loads((out / "summary.json").read_text())["games"] == 4


def test_ctrl_c_before_any_game_has_finished_leaves_no_summary(tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(arena_command, "make_executor", lambda kind, workers: InProcess(stop_after=0))
    result = CliRunner().invoke(app, ["arena", "-g", "pirate-chess", "--agents", "random,greedy", "--games", "2",
                                      "--out", str(out)])
    assert result.exit_code == 130
    assert "interrupted" in result.output
    assert not (out / "summary.json").exists()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while being read
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's reading of it is left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from Linux's /proc")
@pytest.mark.parametrize("stop", ["ctrl-c in the terminal", "kill", "kill -9"])
def test_stopping_a_running_arena_ends_its_workers(tmp_path, stop):
    command = Path(sys.executable).with_name("quarterdeck")
    arena = subprocess.Popen([str(command), *LONG_GAMES, "--out", str(tmp_path / "out")], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, start_new_session=True)
    workers: list[int] = []
    try:
        for _ in range(600):  # a worker starts once Python and the game are loaded
            workers = [pid for pid in children(arena.pid) if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
            if workers or arena.poll() is not None:
                break
            time.sleep(0.1)
        assert workers, arena.communicate()[0]
        if stop == "ctrl-c in the terminal":
            os.killpg(arena.pid, signal.SIGINT)  # the terminal sends it to every process of the job
        else:
            arena.send_signal(signal.SIGTERM if stop == "kill" else signal.SIGKILL)
        output, _ = arena.communicate(timeout=STOPPED_WITHIN)
        if stop != "kill -9":
            assert arena.returncode == 130, output
            assert "interrupted" in output
        deadline = time.monotonic() + STOPPED_WITHIN
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers)
    finally:  # whatever the test found, nothing of it plays on
        for pid in [arena.pid, *workers]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        arena.communicate()
