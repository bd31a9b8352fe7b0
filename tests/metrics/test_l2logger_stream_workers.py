"""Logs of several workers read block by block give what the whole-log reader gives.

l2logger's parallel workers share one block counter and one experience counter and each write
``<worker>/<block_num>-<type>/data-log.tsv``; a worker that ran no experience of a block has no
folder for it. The streaming reader merges a block number's files by experience number
(`l2logger_stream._Units`); the whole-log reader sorts all rows. These tests hold the two to the
same runs (values, experience numbers, block tables, logged rows), warnings and metrics on a
log l2logger itself wrote (``tests/fixtures/metrics/l2logger_workers``, made by
``make_workers_fixture.py``) and on generated logs of 2-3 workers, check that logs the merge
does not cover fall back with the same errors and warnings, and compare the fixture with
l2metrics' numbers.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sylla.metrics.align import align
from sylla.metrics.data import column
from sylla.metrics.readers import read_log
from sylla.metrics.result import compute_metrics
from sylla.metrics.spill import SpillArray
from sylla.metrics.synth import alternating_plan, write_l2logger

from .test_l2logger_stream import PLAN as STREAM_PLAN
from .test_l2logger_stream import _same_run, _syllabus, same_refusal, streamed_like_whole

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "metrics" / "l2logger_workers"
TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]
#: the last block has one experience: one worker has a folder for it, the others none
PLAN = alternating_plan(TASKS, 60, 12, cycles=2) + [("train", [(TASKS[0], 1)])]


def _both(path: Path, allow_partial: bool = False):
    return (read_log(path, stream=True, progress=False, allow_partial=allow_partial),
            read_log(path, stream=False, progress=False, allow_partial=allow_partial))


def _same(path: Path) -> None:
    streamed, whole = _both(path)
    assert streamed.runs is not None, "a regular log of several workers should be streamed"
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)
    assert streamed.warnings == whole.warnings


@pytest.fixture
def spill(monkeypatch):
    from sylla.metrics.readers import l2logger_stream

    monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)


def test_the_fixture_is_streamed_as_it_is_read_whole():
    streamed, _ = _both(FIXTURE)
    assert streamed.workers is not None and len(streamed.workers.names) == 3
    _same(FIXTURE)
    (run,), _ = align(streamed)
    # block 0: two workers test two tasks at once, one regime per stretch of one task
    assert list(column(run.blocks, "task")[:4]) == ["alpha_v0", "beta_v0"] * 2
    assert run.rows is not None
    # worker-2 has no block 2 and worker-1 no block 3: nothing is missing all the same
    assert not (FIXTURE / "worker-2" / "2-test").exists()


@pytest.mark.parametrize("workers,rows,version", [(2, 1, "1.1"), (3, 3, "1.1"), (2, 2, "1.0"),
                                                  (3, 1, "1.0")])
def test_generated_logs_of_several_workers(tmp_path, workers, rows, version, spill):
    log = write_l2logger(tmp_path / "ll", PLAN, seed=workers + rows, version=version,
                         rows_per_exp=rows, workers=workers)
    assert len(list(log.glob(f"*/{len(PLAN) - 1}-train"))) == 1  # one worker ran the last block
    _same(log)
    (run,), _ = align(read_log(log, stream=True, progress=False))
    assert isinstance(run.perf, SpillArray)


@pytest.mark.parametrize("spilled", [False, True])
def test_metrics_are_identical_streamed_or_not(tmp_path, spilled, monkeypatch):
    from sylla.metrics.readers import l2logger_stream

    if spilled:
        monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    log = write_l2logger(tmp_path / "ll", PLAN, seed=5, rows_per_exp=3, workers=3)
    for i, t in enumerate(TASKS):
        write_l2logger(tmp_path / "ste" / f"ste_{t}_run1", [("train", [(t, 60)])], seed=11 + i,
                       rows_per_exp=2)
    streamed = compute_metrics(log, ste=[tmp_path / "ste"], progress=False)
    whole = compute_metrics(read_log(log, progress=False), ste=[tmp_path / "ste"],
                            progress=False)
    assert isinstance(streamed.runs[0].perf, SpillArray if spilled else np.ndarray)
    assert len(streamed.rows) > 50
    pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)
    assert streamed.warnings == whole.warnings


def _dealt_round_robin(tmp_path: Path, workers: int, rows: int = 1) -> Path:
    """`test_l2logger_stream.PLAN` with each task's experiences of a block dealt to the workers
    in turn: each worker's share of a block is what the syllabus schedules for it
    (`schedule.share`)."""
    return write_l2logger(tmp_path / "ll", STREAM_PLAN, seed=4, rows_per_exp=rows,
                          workers=workers, deal="turns")


@pytest.mark.parametrize("workers,rows,spilled", [(2, 1, False), (3, 3, True), (3, 2, False)])
def test_with_a_syllabus_a_log_of_several_workers_is_streamed(tmp_path, workers, rows, spilled,
                                                               monkeypatch):
    """Each worker has its own share of the schedule; the streamed run, all workers merged, is
    reordered block by block as `align._align_schedule` orders the whole log (block, then
    worker, then episode): the same run, rows and metrics, without reading the log again."""
    from sylla.metrics.readers import l2logger, l2logger_stream

    if spilled:
        monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    log = _dealt_round_robin(tmp_path, workers, rows)
    syllabus = _syllabus(tmp_path, STREAM_PLAN)
    whole = compute_metrics(read_log(log, stream=False, progress=False), syllabus,
                            progress=False)
    calls = []
    to_episodes = l2logger._to_episodes
    monkeypatch.setattr(l2logger, "_to_episodes",
                        lambda *a, **k: calls.append(1) or to_episodes(*a, **k))
    streamed = compute_metrics(log, syllabus, progress=False)
    assert not calls, "the log should have been read block by block only"
    assert isinstance(streamed.runs[0].perf, SpillArray if spilled else np.ndarray)
    assert len(streamed.rows) > 50
    pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)
    assert streamed.warnings == whole.warnings
    _same_run(streamed.runs[0], whole.runs[0])
    assert (streamed.runs[0].rows is not None) == (rows > 1)


@pytest.mark.parametrize("change", ["random_dealing", "count", "task", "partial"])
def test_a_syllabus_a_log_of_several_workers_disagrees_with_is_worded_as_before(tmp_path,
                                                                               change):
    """Where a worker's episodes do not fit its schedule the log is read again whole: the same
    error, or with --allow-partial the same partial run."""
    plan = [list(b) for b in STREAM_PLAN]
    rename = None
    if change == "random_dealing":  # shares unlike the schedule's
        log = write_l2logger(tmp_path / "ll", STREAM_PLAN, seed=4, workers=2)
    else:
        log = _dealt_round_robin(tmp_path, 2)
    if change == "count":
        plan[1] = ("train", [(TASKS[0], 62)])
    elif change == "task":
        rename = {(3, TASKS[1]): TASKS[2]}
    elif change == "partial":
        plan.append(("train", [(TASKS[0], 10)]))
    syllabus = _syllabus(tmp_path, plan, rename=rename)
    message = streamed_like_whole(log, syllabus, partial=change == "partial")
    assert message is None or "worker" in message


# --- what the merge does not cover falls back, with the whole-log reader's words -------------

def _edit(log: Path, worker: str, block: str, edit) -> None:
    file = log / worker / block / "data-log.tsv"
    frame = pd.read_csv(file, sep="\t", dtype=str, keep_default_na=False)
    edited = edit(frame)  # in place, or a new frame
    (frame if edited is None else edited).to_csv(file, sep="\t", index=False)


def _set(column_name: str, at: "int | slice", value) -> "callable":
    def edit(frame: pd.DataFrame) -> None:
        values = list(frame[column_name])
        if isinstance(at, slice):
            values[at] = [value] * len(values[at])
        else:
            values[at] = value
        frame[column_name] = values
    return edit


def _retype(log: Path, worker: str, block: str, other: str) -> None:
    """One worker's block folder (and rows) of another type than the other workers'."""
    (log / worker / block).rename(log / worker / other)
    _edit(log, worker, other, _set("block_type", slice(None), other.split("-")[1]))


def _drop_fifth(frame: pd.DataFrame) -> pd.DataFrame:
    """A block file without the rows of its fifth experience."""
    return frame[frame.exp_num != frame.exp_num.iat[4]]


def _copy_block(log: Path, source: str, target: str, block: str, rows=None) -> None:
    """Rows of ``source``'s block file written as ``target``'s too (its own worker_id)."""
    frame = pd.read_csv(log / source / block / "data-log.tsv", sep="\t", dtype=str,
                        keep_default_na=False)
    frame = frame.iloc[rows] if rows is not None else frame
    frame["worker_id"] = target
    (log / target / block).mkdir(parents=True, exist_ok=True)
    frame.to_csv(log / target / block / "data-log.tsv", sep="\t", index=False)


CASES = {
    # case: (edit of a copy of the fixture, expected outcome)
    "incomplete": (lambda log: _edit(log, "worker-1", "2-test", _set("exp_status", 0,
                                                                    "incomplete")), "fallback"),
    "task_returns": (lambda log: _edit(log, "worker-0", "1-train",
                                       _set("task_name", slice(3, 5), "beta_v0")), "error"),
    "missing_experience": (lambda log: _edit(log, "worker-2", "5-train", _drop_fifth),
                           "error"),
    "repeated_experience": (lambda log: _edit(log, "worker-0", "2-test", lambda f: f.__setitem__(
        "exp_num", list(f.exp_num[:-1]) + [f.exp_num.iat[0]])), "error"),
    # two workers logging one experience number: the workers draw their numbers from one
    # queue (l2logger's parallel workflow), so one of them is renumbered or copied data; which
    # worker's episode it is cannot be told (issue 38: it became an extra episode silently)
    "same_number_two_workers": (lambda log: _copy_block(log, "worker-0", "worker-1", "3-train",
                                                        rows=slice(0, 2)), "error"),
    "types_differ": (lambda log: _retype(log, "worker-2", "6-test", "6-train"), "fallback"),
    "worker_id_of_another": (lambda log: _edit(log, "worker-2", "1-train",
                                               _set("worker_id", slice(None), "worker-0")),
                             "fallback"),
    "spellings": (lambda log: _edit(log, "worker-2", "1-train",
                                    _set("task_name", slice(None), "Alpha_V0")), "fallback"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_irregular_logs_of_several_workers_fall_back(tmp_path, case):
    log = Path(shutil.copytree(FIXTURE, tmp_path / "l2logger_workers"))
    edit, outcome = CASES[case]
    edit(log)
    if outcome == "error":
        message = same_refusal(log)
        assert "data-log.tsv" in message or "missing" in message
        return
    streamed, whole = _both(log)
    assert streamed.warnings == whole.warnings
    if outcome == "streamed":
        assert streamed.runs is not None
        (expected,), _ = align(whole)
        (got,), _ = align(streamed)
        _same_run(got, expected)
        return
    assert streamed.runs is None, "the merge does not cover this log: it is read whole"


def test_a_missing_experience_with_allow_partial_warns_as_before(tmp_path):
    log = Path(shutil.copytree(FIXTURE, tmp_path / "l2logger_workers"))
    CASES["missing_experience"][0](log)
    streamed, whole = _both(log, allow_partial=True)
    assert streamed.warnings == whole.warnings and any("missing" in w for w in whole.warnings)
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)


# --- against l2metrics' own numbers -----------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
L2M_PY = Path(os.environ.get("SYLLA_L2M_PYTHON", ROOT / ".venv-l2m" / "bin" / "python"))


@pytest.mark.parity
@pytest.mark.skipif(not L2M_PY.exists() and not os.environ.get("CI"),
                    reason=f"l2metrics 3.1.0 venv missing at {L2M_PY}")
def test_the_streamed_fixture_equals_l2metrics(tmp_path):
    from .test_parity_l2metrics import compare, l2metrics

    stes = [write_l2logger(tmp_path / "ste" / f"{t}-{k}", [("train", [(t, 50 + 10 * k)])],
                           seed=20 + 10 * i + k, rows_per_exp=2)
            for i, t in enumerate(TASKS[:2]) for k in range(2)]
    theirs = l2metrics(FIXTURE, stes, {}, tmp_path)
    ours = compute_metrics(FIXTURE, ste=stes, progress=False)
    assert read_log(FIXTURE, stream=True, progress=False).runs is not None
    compared = compare(theirs, ours)
    assert {"lifetime:avg_train_perf", "lifetime:ste_rel_perf"} <= set(compared)
    assert sum(c.startswith("block:") for c in compared) > 20
