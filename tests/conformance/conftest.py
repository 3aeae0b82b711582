"""The conformance suite runs on every registered game and every scenario it ships.

`case` is parametrised from `games.names()` and each game's `scenarios()` at collection time, so a
game is checked the moment it is registered. A game that does not load gives one failing case that
says why, instead of breaking the collection of every other game.

A case is played once (`playout`, session-scoped): pytest groups a case's tests together, so only
one playout is held in memory at a time.

Known defects of a game are listed in KNOWN_DEFECTS as (test name, case id): reason, where the id
may stop short at the game or the scenario to cover all its cases; that test of those cases is then
marked xfail(strict=True), so it turns into a failure once the defect is fixed and the entry must go.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from quarterdeck import games

from . import options
from .playout import Playout, play

# (test name, case id or its game/scenario or game prefix): the defect
KNOWN_DEFECTS: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Case:
    game: str
    scenario: str | None
    seed: int
    error: str | None = None  # why the game does not load

    def __str__(self) -> str:
        return f"{self.game}/{self.scenario or 'unloadable'}/seed{self.seed}"


def pytest_configure(config: pytest.Config) -> None:
    options.configure(config)


def registered_cases() -> list[Case]:
    seeds = range(options.SEED, options.SEED + options.GAMES)
    cases: list[Case] = []
    for name in games.names():
        try:
            scenarios = [info.name for info in games.get(name).scenarios()]
        except Exception as exc:  # noqa: BLE001 - a half-built game fails its own case, not the collection
            cases.append(Case(name, None, options.SEED, f"{type(exc).__name__}: {exc}"))
            continue
        cases.extend(Case(name, scenario, seed) for scenario in scenarios for seed in seeds)
    return cases


def _param(test: str, value: object, ident: str) -> object:
    parts = ident.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(len(parts), 0, -1)]
    reason = next((KNOWN_DEFECTS[(test, p)] for p in prefixes if (test, p) in KNOWN_DEFECTS), None)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(value, id=ident, marks=marks)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    test = metafunc.function.__name__
    if "case" in metafunc.fixturenames:
        params = [_param(test, case, str(case)) for case in registered_cases()]
        metafunc.parametrize("case", params, scope="session")
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", [_param(test, name, name) for name in games.names()], scope="session")


@pytest.fixture(scope="session")
def playout(case: Case) -> Playout:
    if case.error:
        pytest.fail(f"{case.game} does not load: {case.error}")
    return play(games.get(case.game), case.scenario, case.seed, options.MOVES)
