"""Differential suite: sylla against l2metrics 3.1.0's own command line on generated logs.

Hypothesis draws l2logger log specs of every shape in `differential/shapes.py`; l2logger's
``DataLogger`` writes them (in ``.venv-l2m``); l2metrics runs as ``python -m l2metrics -R``
under every option set in `differential/harness.py` (every flag that changes a number), and
every value it writes (lifetime, per task, per transfer pair, per regime) must equal sylla's
within 1e-9. The files l2metrics writes for one run (``<name>_metrics.json``,
``<name>_regime.tsv``) must equal ``sylla metrics --format l2metrics``'s key for key and cell
for cell (`differential/files.py`). The option sets are split into chunks, each run over its
own draw of logs, so the test stays short (tens of logs); the shapes a draw may miss (two
workers, variants tested in one block, a task trained on experience 0 alone) run every time
(`shapes.pinned`); ``bench/differential.py`` runs the long campaign.

l2metrics keeps stored STE data per process, so each chunk's logs share one pool of STE runs.
A log l2metrics itself cannot compute is counted, not compared; one sylla cannot compute while
l2metrics can is a failure.
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

from .differential import batch, harness, shapes

pytestmark = [
    pytest.mark.parity,
    pytest.mark.slow,
    pytest.mark.skipif(
        not harness.L2M_PY.exists() and not os.environ.get("CI"),
        reason=f"l2metrics 3.1.0 venv missing at {harness.L2M_PY}; run "
               "scripts/setup.d/20-l2metrics.sh (in CI it is installed, so this never skips there)"),
]

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


@pytest.mark.parametrize("part", range(CHUNKS))
def test_sylla_equals_l2metrics(part: int, tmp_path: Path) -> None:
    logs = draw(shapes.log_specs(max_block=200), LOGS_PER_CHUNK + 1, 2300 + part)[1:]
    pool = draw(shapes.ste_pools(), 3, 4600 + part)[-1]
    options = chunk(part)
    report = batch.run_batch(logs, pool, options, tmp_path)
    _agree(report, logs, len(options))


#: the option sets the pinned shapes run under: the defaults, without STE data, variant-agnostic
#: (with l2metrics' prefix matching and a range file), STE time-averaging, no preprocessing
PINNED_OPTIONS = ("defaults", "no-ste", "agnostic", "agnostic-compat-range", "ste-time", "raw")


def test_pinned_shapes_equal_l2metrics(tmp_path: Path) -> None:
    logs = shapes.pinned()
    pool = draw(shapes.ste_pools(), 3, 4700)[-1]
    options = [o for o in harness.OPTION_SETS if o.name in PINNED_OPTIONS]
    report = batch.run_batch(logs, pool, options, tmp_path)
    _agree(report, logs, len(options))
    # every pinned log's files were compared under every option set
    assert report.file_runs == len(logs) * len(options), report.file_l2m_failed


#: the option sets the ties run under: the default smoothing, a window of 3 on every block,
#: clamping (plateaus at the quantiles), no normalisation, smoothed test blocks
TIE_OPTIONS = ("defaults", "window-3", "clamp", "norm-none", "smooth-eval")


def test_ties_resolve_as_l2metrics(tmp_path: Path) -> None:
    """Blocks whose smoothed maximum is reached twice (docs/metrics.md, "Ties"): sylla names
    the same experience as l2metrics, so every exp_to_sat, sample efficiency and file agrees."""
    logs, stes = shapes.ties()
    exact, near = _ties(logs, tmp_path / "count")
    assert exact >= 10 and near >= 3, (exact, near)  # the logs do hold ties of both kinds
    options = [o for o in harness.OPTION_SETS if o.name in TIE_OPTIONS]
    report = batch.run_batch(logs, stes, options, tmp_path / "batch")
    _agree(report, logs, len(options))
    assert report.file_runs == len(logs) * len(options), report.file_l2m_failed


def _ties(logs: list[dict[str, Any]], work: Path) -> tuple[int, int]:
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


def _agree(report: batch.BatchReport, logs: list[dict[str, Any]], options: int) -> None:
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


def test_every_option_set_is_in_a_chunk() -> None:
    covered = [o.name for i in range(CHUNKS) for o in chunk(i)]
    assert sorted(covered) == sorted(o.name for o in harness.OPTION_SETS)
    flags = {f for o in harness.OPTION_SETS for f in o.flags if f.startswith("-")}
    assert flags >= {"-n", "-g", "-G", "-w", "-x", "-r", "-a", "-m", "-t", "-v", "-p"}
    assert {o.data_range for o in harness.OPTION_SETS} >= {"base", "variant"}
    assert {o.ste for o in harness.OPTION_SETS} == {"a", "w", "none"}
    windows = {o.flags[o.flags.index("-g") + 1] for o in harness.OPTION_SETS if "-g" in o.flags}
    assert windows >= {"none", "hanning", "hamming", "bartlett", "blackman"}
