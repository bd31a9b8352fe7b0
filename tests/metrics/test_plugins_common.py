"""`sylla.metrics.plugins.common`'s selections of a run's values."""

from __future__ import annotations

import numpy as np

from sylla.metrics.align import align
from sylla.metrics.data import column
from sylla.metrics.plugins.common import ste_train_values, task_train_values
from sylla.metrics.readers import read_log
from sylla.metrics.spill import SpillArray
from sylla.metrics.synth import alternating_plan, write_l2logger

TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]


def test_a_spilled_tasks_training_is_read_straight_into_one_array(tmp_path, monkeypatch):
    """A spilled run's training values of a task are read into one new array (issue 40: each
    block read into an array of its own and then concatenated was twice a task's values at a
    10M-episode run's peak), and they are the blocks' values in block order."""
    from sylla.metrics.readers import l2logger_stream

    log = write_l2logger(tmp_path / "ll", alternating_plan(TASKS, 60, 12, cycles=2), seed=3)
    (kept,), _ = align(read_log(log, stream=True, progress=False))
    monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    (spilled,), _ = align(read_log(log, stream=True, progress=False))
    assert isinstance(spilled.perf, SpillArray) and isinstance(kept.perf, np.ndarray)
    sliced: list[int] = []
    read = SpillArray._read

    def counted(self, start, stop):
        sliced.append(stop - start)
        return read(self, start, stop)

    monkeypatch.setattr(SpillArray, "_read", counted)
    b = kept.blocks
    for task in TASKS:
        sel = (column(b, "task") == task) & (column(b, "kind") == "train")
        expected = np.concatenate([kept.perf[a:z] for a, z in zip(column(b, "start")[sel],
                                                                   column(b, "stop")[sel])])
        got = task_train_values(spilled, task)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
        assert sel.sum() > 1
    assert np.array_equal(ste_train_values(spilled), ste_train_values(kept))
    assert sliced == []
