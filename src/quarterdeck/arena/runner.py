"""Many games between agents: the schedule, one game, and a whole arena that resumes where it stopped.

The schedule is fixed by the configuration alone: every pairing of agents (or, when `pairings` is
given, each of those pairings) plays `games` games, sides alternating, and game i's seed (and each
agent's seed in it) is derived from the arena's seed and i. So an arena replays identically, and any
subset of its games can run anywhere, in any order.

Openings: agents that search a game without dice play the same game every time they meet, so an
arena of a hundred games between them would be two games played fifty times. With `opening` = n the
first n decisions of each game are drawn at random from the legal actions, and the two games of a
pair (the same pairing, sides swapped) draw them with the same generator, so that in a game without
dice they are the same decisions, as engine matches play each book opening with both colours: a
random opening's edge goes to each agent once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from ..ai import make_agent
from ..core.dice import Dice
from ..core.errors import QuarterdeckError
from ..core.protocol import CHANCE, Game
from ..core.record import CHANCE_SEAT, Record, files_read
from .executors import Executor, LocalExecutor
from .store import ArenaStore

DEFAULT_DECISION_LIMIT = 5000
OPENING_SALT = 0x6F70656E  # keeps the openings' draws apart from the games' own seeds


class ArenaError(QuarterdeckError):
    """An arena that cannot run as asked (bad agents, a different arena saved in the folder, ...)."""


@dataclass(frozen=True)
class ArenaConfig:
    game: str
    agents: tuple[str, ...]
    games: int  # per pairing of agents
    seed: int = 0
    scenario: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    decision_limit: int = DEFAULT_DECISION_LIMIT  # a game still running after this many is a draw
    pairings: tuple[tuple[str, str], ...] = ()  # the pairings to play, first agent first; () = round robin
    opening: int = 0  # decisions drawn at random at the start of each game, the same for both games of a pair

    def __post_init__(self) -> None:
        if len(self.agents) < 2:
            raise ArenaError("an arena needs at least two agents")
        if len(set(self.agents)) != len(self.agents):
            raise ArenaError("each agent may appear once; give two copies different options or seeds")
        if self.games < 1:
            raise ArenaError("an arena needs at least one game per pairing")
        if self.decision_limit < 1:
            raise ArenaError("--decision-limit must be at least 1 decision")  # else every game is drawn unplayed
        if self.opening < 0:
            raise ArenaError("--opening is a number of decisions, at least 0")
        for pair in self.pairings:
            if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= set(self.agents):
                raise ArenaError(f"pairing {list(pair)} must name two different agents of {list(self.agents)}")

    def to_json(self) -> dict[str, Any]:
        data = {**asdict(self), "agents": list(self.agents), "pairings": [list(p) for p in self.pairings]}
        if not self.pairings:
            del data["pairings"]  # a round robin's saved configuration reads as it did before pairings existed
        if not self.opening:
            del data["opening"]  # and an arena without openings as it did before they existed
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaConfig:
        pairings = tuple(tuple(p) for p in data.get("pairings", ()))
        return cls(**{**data, "agents": tuple(data["agents"]), "pairings": pairings})

    def pairs(self) -> list[tuple[str, str]]:
        """The pairings played: the given ones, or every two agents in the order listed."""
        return [tuple(p) for p in self.pairings] if self.pairings else list(combinations(self.agents, 2))


@dataclass(frozen=True)
class GameTask:
    index: int
    seed: int
    agents: tuple[str, ...]  # one agent spec per seat
    opening_seed: int = 0  # draws the random opening; the two games of a pair share it


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    agents: tuple[str, ...]  # per seat
    seats: tuple[str, ...]
    returns: tuple[float, ...]  # all zero when the decision limit stopped the game
    result: str
    reason: str
    decisions: int
    seconds: float
    # per seat, the seconds each of that seat's agent's decisions took (results saved before this was kept: ())
    decision_seconds: tuple[tuple[float, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        tuples = ("agents", "seats", "returns")
        fields = {k: tuple(v) if k in tuples else v for k, v in data.items()}
        fields["decision_seconds"] = tuple(tuple(times) for times in data.get("decision_seconds", ()))
        return cls(**fields)

    def seat_scores(self) -> list[float]:
        """Each seat's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return [(max(-1.0, min(1.0, r)) + 1.0) / 2.0 for r in self.returns]


def derive_seed(*parts: int) -> int:
    """A well-mixed 63-bit seed from integers, the same on every machine and Python run."""
    state = 0
    for part in parts:
        state = Dice(state ^ (part & ((1 << 64) - 1))).next_u64()
    return state >> 1


def schedule(config: ArenaConfig, seats: int) -> list[GameTask]:
    tasks = []
    for first, second in config.pairs():
        for game in range(config.games):
            pair = (first, second) if game % 2 == 0 else (second, first)
            index = len(tasks)
            opening_seed = derive_seed(config.seed, index - game % 2, OPENING_SALT)
            tasks.append(
                GameTask(index, derive_seed(config.seed, index), tuple(pair[s % 2] for s in range(seats)), opening_seed)
            )
    return tasks


def play_game(game: Game, config: ArenaConfig, task: GameTask) -> tuple[GameResult, str]:
    """Play one game of the schedule; returns its result and its record as text."""
    started = time.perf_counter()
    state = game.new_initial_state(config.scenario, config.options, task.seed)
    agents = [make_agent(spec, derive_seed(task.seed, seat + 1)) for seat, spec in enumerate(task.agents)]
    opening = random.Random(task.opening_seed)
    drawn = 0  # decisions of the random opening made so far
    moves: list[tuple[str, str]] = []
    thinking: list[list[float]] = [[] for _ in task.agents]
    while not state.is_terminal() and len(moves) < config.decision_limit:
        if state.current_player() == CHANCE:
            outcome = state.sample_chance()
            moves.append((CHANCE_SEAT, state.text_of(outcome)))
            state.apply(outcome, CHANCE)
            continue
        for seat in list(state.acting_players()):
            if drawn < config.opening:
                drawn += 1
                action = opening.choice(state.legal_actions(seat))
            else:
                asked = time.perf_counter()
                action = agents[seat].act(state, seat)
                thinking[seat].append(round(time.perf_counter() - asked, 6))
            moves.append((state.players[seat], state.text_of(action)))
            state.apply(action, seat)  # validated: an agent's illegal action stops the arena
    outcome = state.outcome
    result = GameResult(
        index=task.index,
        seed=task.seed,
        agents=task.agents,
        seats=tuple(state.players),
        returns=tuple(outcome.returns) if outcome else tuple(0.0 for _ in state.players),
        result=outcome.result if outcome else "draw",
        reason=outcome.reason if outcome else f"arena limit of {config.decision_limit} decisions",
        decisions=len(moves),
        seconds=time.perf_counter() - started,
        decision_seconds=tuple(tuple(times) for times in thinking),
    )
    record = Record(
        game=game.name,
        scenario=config.scenario or game.default_scenario,
        options=dict(config.options),
        seed=task.seed,
        players=dict(zip(state.players, task.agents, strict=True)),
        result=result.result if outcome else "*",
        termination=result.reason,
        moves=moves,
        files=files_read(game, config.scenario, config.options),
    )
    return result, record.to_text()


def play_batch(game: Game, config: ArenaConfig, tasks: Sequence[GameTask]) -> list[tuple[GameResult, str]]:
    """The unit of work an executor runs: a few games, played one after another."""
    return [play_game(game, config, task) for task in tasks]


def run_arena(
    game: Game,
    config: ArenaConfig,
    out: Path | str,
    executor: Executor | None = None,
    report: Callable[[int, int, GameResult | None], None] | None = None,
    only: Collection[int] | None = None,
) -> list[GameResult]:
    """Play every scheduled game not already saved in `out`; returns all results, in schedule order.

    `only`: play just these games of the schedule (by index), so that one arena can be shared out
    between machines or sessions; the games already saved count in the results all the same.

    Each game's record and result are saved as soon as it finishes, so an interrupted arena
    continues from the games it had finished. `report(done, total, result)` hears of progress: once
    before the first game (with no result), then after each game.
    """
    if game.name != config.game:
        raise ArenaError(f"the configuration is for {config.game!r}, not {game.name!r}")
    for spec in config.agents:  # here, not in a worker process once the arena has begun
        try:
            make_agent(spec)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
    seats = len(game.new_initial_state(config.scenario, config.options, config.seed).players)
    tasks = schedule(config, seats)
    outside = sorted(set(only or ()) - {task.index for task in tasks})
    if outside:  # before the folder is made: a mistyped range leaves nothing behind
        listed = ", ".join(map(str, outside[:5])) + (", ..." if len(outside) > 5 else "")
        raise ArenaError(f"the schedule has games 0 to {len(tasks) - 1}, not {listed}")
    store = ArenaStore(Path(out))
    saved = store.open(config.to_json())
    if saved != config.to_json():
        raise ArenaError(f"{out} holds a different arena ({saved}); choose another output folder")
    results = {r.index: r for r in map(GameResult.from_json, store.finished()) if r.index < len(tasks)}
    pending = [task for task in tasks if task.index not in results and (only is None or task.index in only)]
    planned = len(results) + len(pending)
    if report is not None:
        report(len(results), planned, None)
    executor = executor or LocalExecutor(workers=1)
    size = executor.batch_size(len(pending))
    batches = [(game, config, pending[i : i + size]) for i in range(0, len(pending), size)]
    for batch in executor.map_unordered(play_batch, batches):
        for result, record_text in batch:
            store.save(result.index, result.to_json(), record_text)
            results[result.index] = result
            if report is not None:
                report(len(results), planned, result)
    return [results[i] for i in sorted(results)]
