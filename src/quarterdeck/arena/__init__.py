"""Many games between agents, in parallel, with Elo statistics, saved records and plots.

`run_arena(game, ArenaConfig(...), out, executor)` plays the schedule (resuming from `out`),
`summarise` turns the results into tables and `plot` draws them; `run_ladder(game, LadderConfig(...),
out)` plays the level ladder (each level against the one below) and writes its report.
"""

from .elo import Pairing, Standing, Tally, fit_ratings, head_to_head, ladder, score_elo
from .executors import Executor, LocalExecutor, RayExecutor, make_executor
from .ladder import LadderConfig, run_ladder
from .report import Summary, plot, summarise
from .runner import ArenaConfig, ArenaError, GameResult, GameTask, play_game, run_arena, schedule
from .store import ArenaStore

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaStore",
    "Executor",
    "GameResult",
    "GameTask",
    "LadderConfig",
    "LocalExecutor",
    "Pairing",
    "RayExecutor",
    "Standing",
    "Summary",
    "Tally",
    "fit_ratings",
    "head_to_head",
    "ladder",
    "make_executor",
    "play_game",
    "plot",
    "run_arena",
    "run_ladder",
    "schedule",
    "score_elo",
    "summarise",
]
