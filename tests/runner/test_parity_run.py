"""A ``sylla run`` log is read by l2metrics 3.1.0 itself: its own command line writes its metrics
file for the run, and the numbers it computes equal ``sylla metrics``' on the same run."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest

from .support import FIX, rows, sylla

ROOT = Path(__file__).resolve().parents[2]
L2M_PY = Path(os.environ.get("SYLLA_L2M_PYTHON", ROOT / ".venv-l2m" / "bin" / "python"))
DRIVER = ROOT / "tests" / "metrics" / "l2m_driver.py"
ANT = FIX / "ant-minigrid.json"
# l2metrics 3.1.0's own __main__, with only numpy 2's removed np.NaN alias restored (as
# tests/metrics/l2m_driver.py does): the command line a user of l2metrics runs
L2M_CLI = "import sys, runpy, numpy; numpy.NaN = numpy.nan; sys.argv[0] = 'l2metrics'; runpy.run_module('l2metrics', run_name='__main__')"

# In CI the setup installs l2metrics, so a missing venv there is a failure, never a skip.
pytestmark = [
    pytest.mark.parity,
    pytest.mark.skipif(not L2M_PY.exists() and not os.environ.get("CI"),
                       reason=f"l2metrics 3.1.0 venv missing at {L2M_PY}; run scripts/setup.d/20-l2metrics.sh"),
]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "ant"
    proc = sylla("run", str(ANT), "--agent", "tabular-q", "-o", str(out), "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    return out


def test_l2metrics_cli_reads_the_run(run: Path, tmp_path: Path) -> None:
    env = dict(os.environ, L2DATA=str(tmp_path / "l2data"))
    proc = subprocess.run([str(L2M_PY), "-c", L2M_CLI, "-l", str(run), "-O", str(tmp_path), "-o", "ant", "--no-plot",
                           "--no-save-settings"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    metrics = json.loads((tmp_path / "ant_metrics.json").read_text())
    got = rows(run)
    assert metrics["num_lx"] == sum(r["block_type"] == "train" for r in got)
    assert metrics["num_ex"] == sum(r["block_type"] == "test" for r in got)
    assert set(metrics["normalization_data_range"]) == {r["task_name"].lower() for r in got}
    assert metrics["avg_train_perf"] is not None and metrics["forward_transfer_ratio"] is not None


def test_l2metrics_and_sylla_metrics_agree_on_the_run(run: Path, tmp_path: Path) -> None:
    env = dict(os.environ, L2DATA=str(tmp_path / "l2data"))
    theirs = subprocess.run([str(L2M_PY), str(DRIVER), str(run), "--summary"], capture_output=True, text=True,
                            env=env, timeout=300)
    assert theirs.returncode == 0, theirs.stderr[-3000:]
    mine = sylla("metrics", "--syllabus", str(ANT), str(run), "--format", "json")
    assert mine.returncode == 0, mine.stderr
    lifetime_theirs = json.loads(theirs.stdout)["lifetime"]
    lifetime_mine = json.loads(mine.stdout)["lifetime"]
    both = [k for k, v in lifetime_theirs.items() if v is not None and k in lifetime_mine]
    assert {"avg_train_perf", "avg_eval_perf", "forward_transfer_ratio"} <= set(both)
    for key in both:
        assert math.isclose(lifetime_mine[key], lifetime_theirs[key], rel_tol=1e-9), key
