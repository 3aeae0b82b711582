"""Run every benchmarks/bench_*.py and print one JSON document with all their outputs.

Each script runs in its own process (so one cannot slow or break another) and prints JSON; a
script that fails or prints something else is reported with its error instead of its numbers.

Run: python benchmarks/run_all.py [--timeout SECONDS] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(script: Path, timeout: float) -> dict:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=timeout, cwd=HERE.parent
        )
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish within {timeout:.0f} s"}
    seconds = round(time.perf_counter() - start, 1)
    if done.returncode != 0:
        return {"error": f"exit status {done.returncode}", "stderr": done.stderr[-2000:], "seconds": seconds}
    try:
        return {"result": json.loads(done.stdout), "seconds": seconds}
    except json.JSONDecodeError as exc:
        return {"error": f"output is not JSON: {exc}", "stdout": done.stdout[-2000:], "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=1800, help="seconds allowed to each script")
    parser.add_argument("--only", nargs="*", default=None, help="script names to run (e.g. bench_ai)")
    arguments = parser.parse_args()
    scripts = sorted(HERE.glob("bench_*.py"))
    if arguments.only:
        scripts = [s for s in scripts if s.stem in arguments.only]
    report = {
        "python": platform.python_version(),
        "benchmarks": {script.stem: run(script, arguments.timeout) for script in scripts},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
