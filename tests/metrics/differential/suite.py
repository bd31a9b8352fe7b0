"""What the differential test modules share: the reproducible draws, the chunks of option
sets, and the agreement every batch must show.

The suite is split into modules (`test_differential.py`: the pinned shapes, the ties, the
chunking; `test_differential_drawn_a.py` and `_b.py`: two chunks of drawn logs each) so that
pytest-xdist, which keeps a module's tests on one worker (`scripts/test.sh`), runs them side by
side: as one module they were the longest stretch of a full run, on one worker.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings

from sylla.metrics.align import align
from sylla.metrics.data import column
from sylla.metrics.plugins.l2m import exp_means
from sylla.metrics.preprocess import l2m_smooth
from sylla.metrics.readers import read_log

from . import batch, harness, shapes

#: the differential modules' skip: in CI the setup installs l2metrics, so this never skips there
NEEDS_L2METRICS = pytest.mark.skipif(
    not harness.L2M_PY.exists() and not os.environ.get("CI"),
    reason=f"l2metrics 3.1.0 venv missing at {harness.L2M_PY}; run "
           "scripts/setup.d/20-l2metrics.sh (in CI it is installed, so this never skips there)")

CHUNKS = 4
LOGS_PER_CHUNK = 6


def draw(strategy: Any, count: int, at: int) -> list[Any]:
    """``count`` values of a hypothesis strategy, reproducibly (seeded, no example database)."""
    got: list[Any] = []

    @seed(at)
    @settings(max_examples=count, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        got.append(value)

    collect()
    return got


def chunk(i: int) -> list[harness.OptionSet]:
    return [o for k, o in enumerate(harness.OPTION_SETS) if k % CHUNKS == i]


def drawn_chunk(part: int, work: Path) -> None:
    """Chunk ``part`` of the option sets over its own draw of logs and STE pool: both tools agree."""
    logs = draw(shapes.log_specs(max_block=200), LOGS_PER_CHUNK + 1, 2300 + part)[1:]
    pool = draw(shapes.ste_pools(), 3, 4600 + part)[-1]
    options = chunk(part)
    report = batch.run_batch(logs, pool, options, work)
    agree(report, logs, len(options))


def count_ties(logs: list[dict[str, Any]], work: Path) -> tuple[int, int]:
    """Blocks whose smoothed experience means (l2metrics' default window) reach their maximum
    at two experiences: bit for bit, and one or a few ulps apart (equal in exact arithmetic:
    the reflected padding's mirror images)."""
    specs = [dict(item["log"], dir=str(work), scenario=f"tie{i}") for i, item in enumerate(logs)]
    exact = near = 0
    for log in harness.write_logs(specs):
        (run,), _ = align(read_log(str(log), progress=False))
        rows = run.logged
        for a, z in zip(column(rows.blocks, "start"), column(rows.blocks, "stop")):
            y = l2m_smooth(exp_means(np.asarray(rows.perf[a:z]), np.asarray(rows.exp[a:z])))
            top = float(y.max())
            exact += int(np.count_nonzero(y == top) > 1)
            near += int(np.count_nonzero(np.abs(y - top) <= 4 * np.spacing(top))
                        > np.count_nonzero(y == top))
    return exact, near


def agree(report: batch.BatchReport, logs: list[dict[str, Any]], options: int) -> None:
    """No value, key or cell differs, sylla computes wherever l2metrics does, and the batch
    compared real numbers: most (log, option set) pairs ran in both tools."""
    findings = (report.mismatches + report.sylla_failed + report.file_mismatches
                + report.file_sylla_failed)
    assert not findings, (
        f"{len(report.mismatches)} mismatches, {len(report.sylla_failed)} sylla failures over "
        f"{report.values} values; {len(report.file_mismatches)} mismatches, "
        f"{len(report.file_sylla_failed)} sylla failures over {report.file_values} values of "
        f"the l2metrics files:\n" + "\n".join(findings[:60])
        + f"\nshapes: {[s['shape'] for s in logs]}")
    assert report.runs >= len(logs) * options // 2, report.l2m_failed[:10]
    assert report.values > 20 * report.runs
    assert report.file_runs >= len(logs) * options // 2, report.file_l2m_failed[:10]
    assert report.file_values > 50 * report.file_runs
