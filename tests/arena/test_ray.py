"""The Ray executor against a real local Ray instance (Ray has no local mode any more).

Skipped when Ray is not installed (`pip install -e '.[ray]'`). Starting Ray takes some seconds, so
this test is marked `ray`: `pytest -m "not ray"` leaves it out.
"""

from __future__ import annotations

import pytest

from quarterdeck.arena import ArenaConfig, RayExecutor, run_arena

from ..ai import toy_games
from .helpers import without_timing

ray = pytest.importorskip("ray")


@pytest.mark.ray
def test_ray_batches_give_the_same_results_as_local_play(tmp_path):
    # the toy games live in the test folder, which Ray's workers cannot import: send them by value
    ray.cloudpickle.register_pickle_by_value(toy_games)
    config = ArenaConfig(game="toy-pig", agents=("mcts:iterations=10", "greedy", "random"), games=2, seed=4)
    with RayExecutor(num_cpus=2) as executor:
        assert executor.batch_size(6) == 2  # several games per task, two tasks per CPU
        on_ray = run_arena(toy_games.Pig(), config, tmp_path / "ray", executor)
    here = run_arena(toy_games.Pig(), config, tmp_path / "here")
    assert len(on_ray) == 6
    assert without_timing(on_ray) == without_timing(here)
