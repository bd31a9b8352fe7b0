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
(`shapes.pinned`); ``bench/differential.py`` runs the long campaign. This module holds the
pinned shapes, the ties and the chunking; `test_differential_drawn_a.py` and `_b.py` the drawn
chunks (`differential/suite.py` says why the suite is split).

l2metrics keeps stored STE data per process, so each chunk's logs share one pool of STE runs.
A log l2metrics itself cannot compute is counted, not compared; one sylla cannot compute while
l2metrics can is a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import test_differential_drawn_a, test_differential_drawn_b
from .differential import batch, harness, shapes, suite

pytestmark = [pytest.mark.parity, pytest.mark.slow, suite.NEEDS_L2METRICS]


#: the option sets the pinned shapes run under: the defaults, without STE data, variant-agnostic
#: (with l2metrics' prefix matching and a range file), STE time-averaging, no preprocessing
PINNED_OPTIONS = ("defaults", "no-ste", "agnostic", "agnostic-compat-range", "ste-time", "raw")


def test_pinned_shapes_equal_l2metrics(tmp_path: Path) -> None:
    logs = shapes.pinned()
    pool = suite.draw(shapes.ste_pools(), 3, 4700)[-1]
    options = [o for o in harness.OPTION_SETS if o.name in PINNED_OPTIONS]
    report = batch.run_batch(logs, pool, options, tmp_path)
    suite.agree(report, logs, len(options))
    # every pinned log's files were compared under every option set
    assert report.file_runs == len(logs) * len(options), report.file_l2m_failed


#: the option sets the ties run under: the default smoothing, a window of 3 on every block,
#: clamping (plateaus at the quantiles), no normalisation, smoothed test blocks
TIE_OPTIONS = ("defaults", "window-3", "clamp", "norm-none", "smooth-eval")


def test_ties_resolve_as_l2metrics(tmp_path: Path) -> None:
    """Blocks whose smoothed maximum is reached twice (docs/metrics.md, "Ties"): sylla names
    the same experience as l2metrics, so every exp_to_sat, sample efficiency and file agrees."""
    logs, stes = shapes.ties()
    exact, near = suite.count_ties(logs, tmp_path / "count")
    assert exact >= 10 and near >= 3, (exact, near)  # the logs do hold ties of both kinds
    options = [o for o in harness.OPTION_SETS if o.name in TIE_OPTIONS]
    report = batch.run_batch(logs, stes, options, tmp_path / "batch")
    suite.agree(report, logs, len(options))
    assert report.file_runs == len(logs) * len(options), report.file_l2m_failed


def test_every_option_set_is_in_a_chunk() -> None:
    # every chunk is run, by one of the two modules
    assert sorted(test_differential_drawn_a.PARTS + test_differential_drawn_b.PARTS) == list(range(suite.CHUNKS))
    covered = [o.name for i in range(suite.CHUNKS) for o in suite.chunk(i)]
    assert sorted(covered) == sorted(o.name for o in harness.OPTION_SETS)
    flags = {f for o in harness.OPTION_SETS for f in o.flags if f.startswith("-")}
    assert flags >= {"-n", "-g", "-G", "-w", "-x", "-r", "-a", "-m", "-t", "-v", "-p"}
    assert {o.data_range for o in harness.OPTION_SETS} >= {"base", "variant"}
    assert {o.ste for o in harness.OPTION_SETS} == {"a", "w", "none"}
    windows = {o.flags[o.flags.index("-g") + 1] for o in harness.OPTION_SETS if "-g" in o.flags}
    assert windows >= {"none", "hanning", "hamming", "bartlett", "blackman"}
