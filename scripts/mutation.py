"""Mutation testing of the rules modules: how many planted bugs does each game's test folder catch?

`make mutation` (docs/testing.md, "Mutation testing"). The rules modules of every game are listed
in pyproject.toml, `[tool.quarterdeck.mutation.games]`; a registered game missing there is an
error, so a new rule book is measured as soon as it is added.

For each game the tool first runs the game's tests once under coverage, recording which test runs
which line. Then for each rules module it plants one small bug at a time (a comparison, an
operator, a number, a condition turned round, a `raise` or a call statement removed), samples
`--mutants` of them per module (seeded, so the same code gives the same sample), and runs, in a
fresh Python process each, the tests that run the mutated line (all the game's tests where the line
runs at import time or inside a cached function) against a private copy of src/ that holds the
mutant. A mutant is caught when a test fails (or the tests cannot even be collected), timed out
when the tests run past their limit (counted as caught), survived when they pass. Mutants listed
in the equivalents file (no observable change, each with its reason) are left out of the score.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import datetime
import fcntl
import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_SRC = ROOT / "src" / "quarterdeck" / "games"
TABLE_START = "<!-- mutation-table:start -->"
TABLE_END = "<!-- mutation-table:end -->"


def load_config() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["quarterdeck"]["mutation"]


# ---------------------------------------------------------------------------------------------
# Mutants


@dataclass
class Mutant:
    module: str  # "square_rigger.fire"
    key: str  # stable name: enclosing function, original text, mutated text (+ "#n" when repeated)
    line: int
    end_line: int
    start: tuple[int, int]  # (line, byte column) of the replaced span
    end: tuple[int, int]
    replacement: str
    cached: bool = False  # inside a function whose results are cached

    def apply(self, source: str) -> str:
        lines = source.encode().splitlines(keepends=True)
        (l1, c1), (l2, c2) = self.start, self.end
        head = b"".join(lines[: l1 - 1]) + lines[l1 - 1][:c1]
        tail = lines[l2 - 1][c2:] + b"".join(lines[l2:])
        return (head + self.replacement.encode() + tail).decode()


_COMPARE = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINARY = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitXor: ast.BitAnd,
}
_NAMES = {"min": "max", "max": "min", "any": "all", "all": "any"}


def _short(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= 80 else text[:77] + "..."


class _Planter(ast.NodeVisitor):
    """Walks one module and lists every mutant: (node span, replacement text, description)."""

    def __init__(self, module: str, source: str):
        self.module = module
        self.source = source
        self.scope: list[str] = []
        self.cached: list[bool] = []
        self.mutants: list[Mutant] = []
        self.seen: dict[str, int] = {}

    def add(self, node: ast.AST, replacement: str, span: ast.AST | None = None) -> None:
        span = span or node
        original = ast.get_source_segment(self.source, span) or ast.unparse(span)
        if _short(original) == _short(replacement):
            return
        name = f"{'.'.join(self.scope) or '<module>'}: {_short(original)} -> {_short(replacement)}"
        count = self.seen.get(name, 0)
        self.seen[name] = count + 1
        key = name if count == 0 else f"{name} #{count + 1}"
        self.mutants.append(
            Mutant(
                self.module,
                key,
                span.lineno,
                span.end_lineno,
                (span.lineno, span.col_offset),
                (span.end_lineno, span.end_col_offset),
                replacement,
                any(self.cached),
            )
        )

    def expr(self, node: ast.expr) -> str:
        return f"({ast.unparse(node)})"

    # Scopes -----------------------------------------------------------------------------------
    def _scoped(self, node) -> None:
        decorators = [ast.unparse(d) for d in getattr(node, "decorator_list", [])]
        for d in getattr(node, "decorator_list", []):
            self.visit(d)
        for default in getattr(getattr(node, "args", None), "defaults", []) or []:
            self.visit(default)
        self.scope.append(node.name)
        self.cached.append(any("cache" in d for d in decorators))
        for stmt in node.body:
            self.visit(stmt)
        self.scope.pop()
        self.cached.pop()

    def visit_FunctionDef(self, node):  # noqa: N802 - ast.NodeVisitor's naming
        self._scoped(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815

    def visit_ClassDef(self, node):  # noqa: N802
        self._scoped(node)

    # Statements -------------------------------------------------------------------------------
    def visit_Expr(self, node):  # noqa: N802
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        if isinstance(node.value, ast.Call):
            self.add(node, "pass")
        self.generic_visit(node)

    def visit_Raise(self, node):  # noqa: N802
        self.add(node, "pass")
        self.generic_visit(node)

    def visit_Break(self, node):  # noqa: N802
        self.add(node, "continue")

    def visit_Continue(self, node):  # noqa: N802
        self.add(node, "break")

    def visit_AugAssign(self, node):  # noqa: N802
        swapped = _BINARY.get(type(node.op))
        if swapped:
            self.add(node, ast.unparse(ast.AugAssign(node.target, swapped(), node.value)))
        self.generic_visit(node)

    def _negate(self, test: ast.expr) -> None:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return  # removing the `not` is already a mutant
        self.add(test, f"(not {self.expr(test)})")

    def visit_If(self, node):  # noqa: N802
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return  # imports for the type checker only
        self._negate(node.test)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):  # noqa: N802
        if node.value is not None:  # the annotation itself is never evaluated (PEP 563)
            self.visit(node.value)

    visit_While = visit_If  # noqa: N815
    visit_IfExp = visit_If  # noqa: N815

    def visit_comprehension(self, node):
        for condition in node.ifs:
            self._negate(condition)
        self.generic_visit(node)

    # Expressions ------------------------------------------------------------------------------
    def visit_Compare(self, node):  # noqa: N802
        for i, op in enumerate(node.ops):
            swapped = _COMPARE.get(type(op))
            if swapped:
                ops = list(node.ops)
                ops[i] = swapped()
                self.add(node, self.expr(ast.Compare(node.left, ops, node.comparators)))
        for value in [node.left, *node.comparators]:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                self.add(value, repr(f"XX{value.value}XX"))
        self.generic_visit(node)

    def visit_BinOp(self, node):  # noqa: N802
        swapped = _BINARY.get(type(node.op))
        if swapped:
            self.add(node, self.expr(ast.BinOp(node.left, swapped(), node.right)))
        self.generic_visit(node)

    def visit_BoolOp(self, node):  # noqa: N802
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self.add(node, self.expr(ast.BoolOp(other, node.values)))
        self.generic_visit(node)

    def visit_UnaryOp(self, node):  # noqa: N802
        if isinstance(node.op, (ast.Not, ast.USub)):
            self.add(node, self.expr(node.operand))
        self.generic_visit(node)

    def visit_Constant(self, node):  # noqa: N802
        value = node.value
        if isinstance(value, bool):
            self.add(node, repr(not value))
        elif isinstance(value, int):
            self.add(node, repr(value + 1))
        elif isinstance(value, float):
            self.add(node, repr(value + 1.0))

    def visit_Call(self, node):  # noqa: N802
        if isinstance(node.func, ast.Name) and node.func.id in _NAMES:
            self.add(node.func, _NAMES[node.func.id])
        self.generic_visit(node)

    def visit_JoinedStr(self, node):  # noqa: N802
        return  # message text: not a rule (docs/testing.md)


def plant(module: str, path: Path) -> list[Mutant]:
    source = path.read_text()
    planter = _Planter(module, source)
    planter.visit(ast.parse(source))
    kept = []
    original = ast.dump(ast.parse(source))
    for mutant in planter.mutants:
        try:
            mutated = ast.dump(ast.parse(mutant.apply(source)))
        except SyntaxError:
            continue
        if mutated != original:
            kept.append(mutant)
    return kept


# ---------------------------------------------------------------------------------------------
# Which test runs which line


def coverage_main(game: str, tests: list[str], out: str) -> int:
    """Runs in a child process, in a snapshot of the tree: the game's tests under coverage, one
    context per test."""
    import coverage
    import pytest

    _quiet_hypothesis()
    here = Path.cwd()
    package = here / "src" / "quarterdeck" / "games" / game
    cov = coverage.Coverage(data_file=None, include=[str(package / "*.py")], config_file=False)

    class Contexts:
        def __init__(self):
            self.durations: dict[str, float] = {}
            self.failed: list[str] = []

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            cov.switch_context(item.nodeid)
            yield
            cov.switch_context("<between tests>")

        def pytest_runtest_logreport(self, report):
            self.durations[report.nodeid] = self.durations.get(report.nodeid, 0.0) + report.duration
            if report.failed:
                self.failed.append(report.nodeid)

    contexts = Contexts()
    cov.start()
    rc = pytest.main(["-q", "-p", "no:cacheprovider", f"--rootdir={here}", *tests], plugins=[contexts])
    cov.stop()
    data = cov.get_data()
    lines: dict[str, dict[int, list[str]]] = {}
    for filename in data.measured_files():
        by_line = data.contexts_by_lineno(filename)
        lines[Path(filename).stem] = {n: sorted(set(c)) for n, c in by_line.items()}
    Path(out).write_text(
        json.dumps(
            {
                "rc": int(rc),
                "failed": contexts.failed,
                "durations": contexts.durations,
                "lines": lines,
            }
        )
    )
    return 0


def _quiet_hypothesis() -> None:
    # Same examples every run and no example database: a mutant's verdict must not depend on
    # what an earlier run found.
    from hypothesis import settings

    settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
    settings.load_profile("mutation")


# ---------------------------------------------------------------------------------------------
# Running mutants


@dataclass
class Result:
    mutant: Mutant
    status: str  # caught, survived, timed-out, uncovered, equivalent, error
    seconds: float = 0.0
    tests: int = 0


@dataclass
class GameRun:
    game: str
    tests: list[str]
    coverage: dict
    all_tests: list[str] = field(default_factory=list)

    def tests_for(self, mutant: Mutant) -> list[str]:
        lines = self.coverage["lines"].get(mutant.module.split(".", 1)[1], {})
        chosen: set[str] = set()
        for n in range(mutant.line, mutant.end_line + 1):
            contexts = lines.get(str(n), [])
            if "" in contexts or mutant.cached:
                return self.all_tests  # runs at import time or under a cache: every test
            chosen.update(c for c in contexts if c and c != "<between tests>")
        durations = self.coverage["durations"]
        return sorted(chosen, key=lambda t: (durations.get(t, 0.0), t))


_ENV = {
    **os.environ,
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONHASHSEED": "0",
}


def snapshot(into: Path) -> Path:
    """A copy of src/, tests/, docs/ (tests read the rules references) and pyproject.toml: edits
    made to the tree while a run goes on do not reach it."""
    ignore = shutil.ignore_patterns("static", "screenshots", "__pycache__", "*.pyc")
    for folder in ("src", "tests", "docs"):
        shutil.copytree(ROOT / folder, into / folder, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", into / "pyproject.toml")
    return into


class Worker:
    """A private copy of the snapshot where one mutant at a time replaces its module, and a server
    process that has imported pytest and hypothesis (never quarterdeck) and forks one fresh child
    per mutant: the child imports the game anew, mutant included, and runs the chosen tests."""

    def __init__(self, pristine: Path, base: Path, index: int):
        self.pristine = pristine
        self.base = base / f"worker{index}"
        shutil.copytree(pristine, self.base)
        self.src = self.base / "src"
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(self.base)], check=True, env=os.environ)
        self.server = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "_serve"],
            cwd=self.base,
            text=True,
            env={**_ENV, "PYTHONPATH": str(self.src)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def close(self) -> None:
        self.server.stdin.close()
        self.server.wait()

    def run(self, mutant: Mutant, tests: list[str], timeout: float) -> tuple[str, float]:
        relative = Path(*mutant.module.split("."))
        target = self.src / "quarterdeck" / "games" / relative.with_suffix(".py")
        original = self.pristine / "src" / "quarterdeck" / "games" / relative.with_suffix(".py")
        target.write_text(mutant.apply(original.read_text()))
        log = self.base / "pytest.log"
        args = ["-x", "-q", "-p", "no:cacheprovider", f"--rootdir={self.base}", *tests]
        started = time.monotonic()
        try:
            self.server.stdin.write(json.dumps({"args": args, "timeout": timeout, "log": str(log)}) + "\n")
            self.server.stdin.flush()
            answer = json.loads(self.server.stdout.readline())
        finally:
            shutil.copy2(original, target)  # keeps the compiled original valid
        if answer["timed_out"]:
            status = "timed-out"
        else:
            status = {0: "survived", 1: "caught", 2: "caught"}.get(answer["rc"], "error")
            # The chosen tests were collected from the unmutated snapshot; when pytest finds no
            # collector for them now, the mutant broke the import of a test module: caught.
            if answer["rc"] == 4 and "found no collectors" in log.read_text():
                status = "caught"
        if status == "error":
            sys.stderr.write(f"\n{mutant.module} {mutant.key}: pytest exit {answer['rc']}\n")
            sys.stderr.write(log.read_text()[-2000:])
        return status, time.monotonic() - started


def serve() -> int:
    import signal

    import pytest

    _quiet_hypothesis()
    for line in sys.stdin:
        command = json.loads(line)
        pid = os.fork()
        if pid == 0:
            out = os.open(command["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(out, 2)
            signal.alarm(max(1, round(command["timeout"])))
            try:
                rc = int(pytest.main(command["args"]))
            except BaseException:  # noqa: B036 - whatever happens, the child must not return here
                rc = 3
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(rc)
        _, status = os.waitpid(pid, 0)
        timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM
        rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
        print(json.dumps({"rc": rc, "timed_out": timed_out}), flush=True)
    return 0


def measure_coverage(tree: Path, game: str, tests: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        command = [sys.executable, str(Path(__file__).resolve()), "_coverage", game, str(out), *tests]
        env = {**_ENV, "PYTHONPATH": str(tree / "src")}
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True)
        if not out.exists():
            raise BaselineFailed(f"{game}: the coverage run failed\n{done.stdout.decode()[-3000:]}")
        data = json.loads(out.read_text())
    if data["rc"] != 0 or data["failed"]:
        raise BaselineFailed(f"{game}: the tests fail before any mutant is planted: {data['failed'][:10]}")
    return data


class BaselineFailed(Exception):
    """A game's tests fail on the unmutated code: nothing can be measured for it."""


def load_equivalents(path: Path) -> dict[tuple[str, str], str]:
    if not path.exists():
        return {}
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("equivalent", [])
    return {(e["module"], e["mutant"]): e["reason"] for e in entries}


def sample(mutants: list[Mutant], n: int, seed: int, module: str) -> list[Mutant]:
    if n <= 0 or len(mutants) <= n:
        return mutants
    # A seeded shuffle, cut at n: a smaller sample is the start of a larger one.
    order = list(range(len(mutants)))
    random.Random(f"{seed}:{module}").shuffle(order)
    return [mutants[i] for i in sorted(order[:n])]


def run_mutant(mutant: Mutant, game_run: GameRun, equivalents: dict, free: list[Worker], lock) -> Result:
    if (mutant.module, mutant.key) in equivalents:
        return Result(mutant, "equivalent")
    tests = game_run.tests_for(mutant)
    if not tests:
        return Result(mutant, "uncovered")
    # Generous: the chosen tests took this long under coverage, which slows them down already.
    limit = 10 + 3 * sum(game_run.coverage["durations"].get(t, 1.0) for t in tests)
    with lock:
        worker = free.pop()
    try:
        status, seconds = worker.run(mutant, tests, limit)
    finally:
        with lock:
            free.append(worker)
    return Result(mutant, status, seconds, len(tests))


def run(args, on_module=None) -> dict:
    config = load_config()
    games_config: dict = config["games"]
    registered = [p.name for p in GAMES_SRC.iterdir() if (p / "__init__.py").exists() and not p.name.startswith("_")]
    missing = sorted(set(registered) - set(games_config))
    if missing:
        raise SystemExit(f"games with no rules modules in [tool.quarterdeck.mutation.games]: {missing}")
    games = args.games.split(",") if args.games else sorted(games_config)
    only = set(args.modules.split(",")) if args.modules else None
    equivalents = load_equivalents(ROOT / config["equivalents"])
    n = args.mutants if args.mutants is not None else config.get("mutants", 150)
    seed = args.seed if args.seed is not None else config.get("seed", 0)

    report = {
        "commit": _git("rev-parse", "HEAD"),
        "date": datetime.date.today().isoformat(),
        "mutants_per_module": n,
        "seed": seed,
        "modules": {},
        "failed_games": {},
    }
    base = Path(tempfile.mkdtemp(prefix="qd-mutation-"))
    workers: list[Worker] = []
    try:
        pristine = snapshot(base / "pristine")
        workers.extend(Worker(pristine, base, i) for i in range(args.workers))
        free = list(workers)
        lock = threading.Lock()
        for game in games:
            entry = games_config[game]
            modules = [f"{game}.{m}" for m in entry["modules"]]
            modules = [m for m in modules if only is None or m in only]
            if not modules:
                continue
            tests = entry.get("tests", [f"tests/{game}"])
            print(f"{game}: measuring which test runs which line ...", flush=True)
            try:
                coverage = measure_coverage(pristine, game, tests)
            except BaselineFailed as failure:
                print(failure, flush=True)
                report["failed_games"][game] = str(failure).splitlines()[0]
                continue
            game_run = GameRun(game, tests, coverage, sorted(coverage["durations"]))
            for module in modules:
                path = pristine / "src" / "quarterdeck" / "games" / Path(*module.split(".")).with_suffix(".py")
                everything = plant(module, path)
                chosen = sample(everything, n, seed, module)
                results: list[Result] = []

                started = time.monotonic()
                with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
                    one = functools.partial(
                        run_mutant, game_run=game_run, equivalents=equivalents, free=free, lock=lock
                    )
                    for i, result in enumerate(pool.map(one, chosen), 1):
                        results.append(result)
                        if args.verbose:
                            print(
                                f"  {result.status} ({result.tests} tests, {result.seconds:.1f} s): "
                                f"line {result.mutant.line}: {result.mutant.key}",
                                flush=True,
                            )
                        elif sys.stdout.isatty():
                            print(f"\r{module}: {i}/{len(chosen)}", end="", flush=True)
                summary = summarise(everything, results)
                summary["sample_limit"], summary["seed"], summary["commit"] = n, seed, report["commit"]
                summary["seconds"] = round(time.monotonic() - started, 1)
                report["modules"][module] = summary
                if on_module is not None:
                    on_module(report)
                print(f"\r{module}: {_score_text(summary)} of {summary['scored']} ({summary['seconds']} s)", flush=True)
    finally:
        for worker in workers:
            worker.close()
        shutil.rmtree(base, ignore_errors=True)
    return report


def summarise(everything: list[Mutant], results: list[Result]) -> dict:
    count = {
        s: sum(1 for r in results if r.status == s)
        for s in ("caught", "timed-out", "survived", "uncovered", "equivalent", "error")
    }
    scored = count["caught"] + count["timed-out"] + count["survived"] + count["uncovered"]
    caught = count["caught"] + count["timed-out"]
    return {
        "mutants": len(everything),
        "sampled": len(results),
        "equivalent": count["equivalent"],
        "scored": scored,
        "caught": count["caught"],
        "timed_out": count["timed-out"],
        "survived": count["survived"] + count["uncovered"],
        "uncovered": count["uncovered"],
        "errors": count["error"],
        "score": round(caught / scored, 4) if scored else None,
        "survivors": [
            {"line": r.mutant.line, "mutant": r.mutant.key, "uncovered": r.status == "uncovered"}
            for r in results
            if r.status in ("survived", "uncovered")
        ],
        "errored": [{"line": r.mutant.line, "mutant": r.mutant.key} for r in results if r.status == "error"],
    }


def rescore(report: dict, equivalents: dict[tuple[str, str], str]) -> dict:
    """Survivors listed as equivalent since the run are moved out of the score (nothing is rerun)."""
    for module, summary in report["modules"].items():
        kept = []
        for survivor in summary["survivors"]:
            if (module, survivor["mutant"]) not in equivalents:
                kept.append(survivor)
                continue
            summary["survived"] -= 1
            summary["uncovered"] -= survivor["uncovered"]
            summary["equivalent"] += 1
            summary["scored"] -= 1
        summary["survivors"] = kept
        caught = summary["caught"] + summary["timed_out"]
        summary["score"] = round(caught / summary["scored"], 4) if summary["scored"] else None
    return report


def _score_text(summary: dict) -> str:
    return "-" if summary["score"] is None else f"{100 * summary['score']:.1f}%"


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip()


def table(report: dict) -> str:
    rows = [
        f"Last measured {report['date']} (the commit of each row is in docs/mutation-report.json); score = "
        "(caught + timed out) / (sampled - equivalent); a module with fewer mutants than the sample size "
        "has all of them run.",
        "",
        "| module | mutants | sampled | equivalent | caught | timed out | survived | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for module, s in sorted(report["modules"].items()):
        rows.append(
            f"| {module} | {s['mutants']} | {s['sampled']} | {s['equivalent']} | {s['caught']} | {s['timed_out']} "
            f"| {s['survived']} | {_score_text(s)} |"
        )
    for game, why in report.get("failed_games", {}).items():
        rows.append(f"\nNot measured: {game}, whose tests fail on the unmutated code ({why}).")
    return "\n".join(rows)


def write_table(path: Path, report: dict) -> None:
    text = path.read_text() if path.exists() else "# Testing\n"
    block = f"{TABLE_START}\n{table(report)}\n{TABLE_END}"
    if TABLE_START in text and TABLE_END in text:
        head, rest = text.split(TABLE_START, 1)
        text = head + block + rest.split(TABLE_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n## Mutation testing\n\n" + block + "\n"
    path.write_text(text)


@contextlib.contextmanager
def locked(report_path: Path | None):
    """Holds the report's lock file (none when no report is written) for a read-merge-write."""
    if report_path is None:
        yield
        return
    report_path.parent.mkdir(parents=True, exist_ok=True)
    with open(report_path.with_name(report_path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def merge(old: dict | None, report: dict) -> dict:
    """A partial run (some games or modules) replaces only its own rows of the saved report."""
    if old is None:
        return report
    merged = dict(old.get("modules", {}))
    merged.update(report["modules"])
    return {**report, "modules": merged}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_coverage"]:
        return coverage_main(argv[1], argv[3:], argv[2])
    if argv[:1] == ["_serve"]:
        return serve()
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mutants", type=int, help="mutants sampled per module (0: all; default from pyproject)")
    parser.add_argument("--games", help="comma-separated game packages (default: every configured game)")
    parser.add_argument("--modules", help="comma-separated modules, e.g. square_rigger.fire")
    parser.add_argument("--seed", type=int, help="sampling seed (default from pyproject)")
    parser.add_argument("--workers", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--report", help="JSON report path (default from pyproject); '-' for none")
    parser.add_argument("--table", help="markdown file whose mutation table is rewritten; '-' for none")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every survivor as it is found")
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="run nothing: leave the survivors now listed as equivalent out of "
        "the saved report's scores, and rewrite the table",
    )
    args = parser.parse_args(argv)
    config = load_config()
    report_path = args.report or config["report"]
    table_path = args.table or config["table"]
    previous = ROOT / report_path if report_path != "-" else None
    old = json.loads(previous.read_text()) if previous is not None and previous.exists() else None

    def save(report: dict) -> dict:
        # Written after every module, so an interrupted run keeps what it measured; the saved report
        # is read again under a lock, so runs of different games at once each keep their own rows.
        with locked(previous):
            if previous is not None:
                latest = json.loads(previous.read_text()) if previous.exists() else old
                report = merge(latest, report)
                previous.write_text(json.dumps(report, indent=1) + "\n")
            if table_path != "-":
                write_table(ROOT / table_path, report)
        return report

    if args.rescore:
        if old is None:
            raise SystemExit(f"no report at {previous} to rescore")
        old = rescore(old, load_equivalents(ROOT / config["equivalents"]))
        report = save(old)
    else:
        report = save(run(args, on_module=save))
    below = [m for m, s in report["modules"].items() if s["score"] is not None and s["score"] < config["target"]]
    if below:
        print(f"below the target of {config['target']:.0%}: {', '.join(below)}")
    return 1 if below or report.get("failed_games") else 0


if __name__ == "__main__":
    sys.exit(main())
