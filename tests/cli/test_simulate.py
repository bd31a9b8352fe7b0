"""``sylla simulate`` as a user runs it: new -> simulate -> metrics end to end, in both log
shapes; deterministic per seed; the l2logger output read by l2metrics 3.1.0 itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
L2M_PY = Path(os.environ.get("SYLLA_L2M_PYTHON", ROOT / ".venv-l2m" / "bin" / "python"))
DRIVER = ROOT / "tests" / "metrics" / "l2m_driver.py"


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture()
def syllabus(tmp_path: Path) -> Path:
    path = tmp_path / "s.json"
    proc = sylla("new", "--type", "ANT-B", "--task", "Pong", "--task", "Breakout", "--pretest",
                 "--episodes", "200", "--test-episodes", "20", "-o", str(path))
    assert proc.returncode == 0, proc.stderr
    return path


def test_csv_log_runs_through_metrics_and_follows_the_schedule(syllabus: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    assert sylla("simulate", str(syllabus), "-o", str(log), "--seed", "3").returncode == 0
    frame = pd.read_csv(log)
    # 0.test (2x20), 1.train Pong 200, 1.test (2x20), 2.train Breakout 200, 2.test (2x20)
    assert len(frame) == 520 and list(frame.columns) == ["episode", "task", "block_type", "reward"]
    train = frame[(frame.task == "Pong") & (frame.block_type == "train")].reward.to_numpy()
    assert train[-20:].mean() > train[:20].mean() + 1  # learning rises during training
    tests = frame.iloc[240:280]  # 1.test, after Pong's training
    assert tests.block_type.eq("test").all() and tests[tests.task == "Pong"].reward.std() < 0.5  # flat with learning off
    proc = sylla("metrics", "--syllabus", str(syllabus), "--log", str(log), "-f", "json", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    lifetime = json.loads(proc.stdout)["lifetime"]
    assert lifetime["forward_transfer_ratio"] is not None and lifetime["gem_acc"] is not None
    again = tmp_path / "again.csv"
    sylla("simulate", str(syllabus), "-o", str(again), "--seed", "3")
    assert again.read_bytes() == log.read_bytes()
    other = tmp_path / "other.csv"
    sylla("simulate", str(syllabus), "-o", str(other), "--seed", "4")
    assert other.read_bytes() != log.read_bytes()


def test_l2logger_log_runs_through_metrics(syllabus: Path, tmp_path: Path) -> None:
    log = tmp_path / "run"
    assert sylla("simulate", str(syllabus), "-o", str(log), "--format", "l2logger").returncode == 0
    assert sorted(p.name for p in (log / "worker-default").iterdir())[:2] == ["0-test", "1-test"]
    proc = sylla("metrics", "--syllabus", str(syllabus), "--log", str(log), "-f", "json", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    again = sylla("simulate", str(syllabus), "-o", str(log), "--format", "l2logger")
    assert again.returncode == 2 and "non-empty directory" in again.stderr


def test_bad_options_and_inputs(syllabus: Path, tmp_path: Path) -> None:
    proc = sylla("simulate", str(syllabus), "-o", str(tmp_path / "x.csv"), "--forgetting", "1.5")
    assert proc.returncode == 2 and "--forgetting" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}')
    proc = sylla("simulate", str(bad), "-o", str(tmp_path / "y.csv"))
    assert proc.returncode == 1 and "bad.json" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parity
@pytest.mark.skipif(not L2M_PY.exists() and not os.environ.get("CI"),
                    reason=f"l2metrics 3.1.0 venv missing at {L2M_PY}; run scripts/setup.d/20-l2metrics.sh")
def test_l2metrics_reads_the_simulated_log(syllabus: Path, tmp_path: Path) -> None:
    log = tmp_path / "run"
    assert sylla("simulate", str(syllabus), "-o", str(log), "--format", "l2logger").returncode == 0
    stes = []
    for task in ("Pong", "Breakout"):
        ste_syllabus = tmp_path / f"ste-{task}.json"
        assert sylla("new", "--type", "STE", "--task", task, "--episodes", "200", "-o", str(ste_syllabus)).returncode == 0
        stes.append(tmp_path / f"ste-{task}")
        assert sylla("simulate", str(ste_syllabus), "-o", str(stes[-1]), "--format", "l2logger").returncode == 0
    cmd = [str(L2M_PY), str(DRIVER), str(log), "--summary"] + [a for s in stes for a in ("--ste", str(s))]
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, L2DATA=str(tmp_path)), timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    summary = json.loads(out.stdout)
    assert summary  # l2metrics computed lifetime values from the simulated run
