"""Where an arena's games run: local worker processes by default, or a Ray cluster when asked.

An executor runs `function(*job)` for every job and yields the results as they finish, in any
order; the arena saves each as it comes, so the order never matters. Jobs are batches of games:
one game per job locally (a fine-grained progress bar), several per task on Ray (fewer round trips).
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import multiprocessing
import os
import signal
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..core.errors import QuarterdeckError


class Executor(ABC):
    @abstractmethod
    def map_unordered(self, function: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        """Run function(*job) for every job; yield each result as soon as it is ready."""

    def batch_size(self, games: int) -> int:
        """How many games to put in one job."""
        return 1

    def close(self) -> None:  # noqa: B027  (most executors hold nothing between runs)
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """Worker processes on this machine, started fresh ('spawn'), so no lock or thread of the
    parent (a progress bar, say) is ever copied into a worker.

    Ctrl-C or SIGTERM stops the arena at once: the workers leave both to the arena, which ends them
    with the games under way (those are played again when the arena resumes) rather than waiting for
    the games they hold, and a worker whose arena is killed outright ends with it."""

    def __init__(self, workers: int = 1):
        if workers < 1:
            raise QuarterdeckError("the arena needs at least one worker")
        self.workers = workers

    def map_unordered(self, function: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        context = multiprocessing.get_context("spawn")
        pool = context.Pool(self.workers, initializer=_start_worker, initargs=(os.getpid(),))
        try:
            yield from pool.imap_unordered(_call_job, [(function, job) for job in jobs])
        except BaseException:  # Ctrl-C, a game's error, or the arena no longer reading
            pool.terminate()
            raise
        else:
            pool.close()
        finally:
            pool.join()


def _start_worker(arena: int) -> None:
    """A worker ignores Ctrl-C, which the terminal sends to the whole process group: the arena
    decides what stops (see LocalExecutor). On Linux the kernel ends the worker should the arena die
    without a word (kill -9), so that no game plays on for nobody."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != arena:  # the arena was gone before the line above could take effect
        os._exit(1)


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process receives when its parent ends


def _call_job(item: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    function, job = item
    return function(*job)


class RayExecutor(Executor):
    """Batches of games as Ray tasks on the cluster at `address` (default: $RAY_ADDRESS).

    With neither, Ray starts a local instance for this run and stops it on close.
    """

    def __init__(self, address: str | None = None, tasks_per_cpu: int = 2, **init_options: Any):
        try:
            import ray
        except ImportError:
            raise QuarterdeckError("the Ray executor needs Ray: pip install 'quarterdeck[ray]'") from None
        self.ray = ray
        self.tasks_per_cpu = tasks_per_cpu
        self.started_here = not ray.is_initialized()
        if self.started_here:
            address = address or os.environ.get("RAY_ADDRESS")
            ray.init(address=address, include_dashboard=False, log_to_driver=False, **init_options)
        self._remote = ray.remote(_call)

    def batch_size(self, games: int) -> int:
        cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        return max(1, math.ceil(games / (cpus * self.tasks_per_cpu)))

    def map_unordered(self, function: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        pending = [self._remote.remote(function, *job) for job in jobs]
        try:
            while pending:
                done, pending = self.ray.wait(pending, num_returns=1)
                yield self.ray.get(done[0])
        finally:
            for reference in pending:
                self.ray.cancel(reference)

    def close(self) -> None:
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()


def _call(function: Callable[..., Any], *args: Any) -> Any:
    return function(*args)


def make_executor(kind: str, workers: int = 1, address: str | None = None) -> Executor:
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "ray":
        return RayExecutor(address)
    raise QuarterdeckError(f"unknown executor {kind!r}; executors: local, ray")
