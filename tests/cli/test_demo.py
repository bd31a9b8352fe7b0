"""README's first command, ``bash scripts/demo.sh``, tells its story on real runs: step 3 is a
``sylla run`` of tabular Q-learning on MiniGrid (not ``sylla simulate``), whose l2logger log
``sylla metrics`` reads and which learns; steps 5 and 6 sweep and compare real runs of two agents.

The demo runs in this checkout with its ``.venv`` (as a user runs it; scripts/setup.sh leaves
the stamp that lets it skip pip) and rewrites ``out/demo/``, the demo's own output folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "scripts/demo.sh"
OUT = ROOT / "out/demo"
SYLLA = ROOT / ".venv/bin/sylla"


def block_means(report: dict, phase: str, task: str) -> float:
    """The mean test performance of the block of ``phase`` on ``task`` in ``sylla metrics``' JSON."""
    (block,) = [b for b in report["blocks"] if b["phase"] == phase and b["task"] == task]
    return float(block["metrics"]["avg_eval_perf"])


@pytest.fixture(scope="module")
def demo() -> subprocess.CompletedProcess[str]:
    if not SYLLA.exists() or shutil.which("bash") is None:
        pytest.fail("the demo needs bash and the checkout's .venv (run scripts/setup.sh)")
    return subprocess.run(["bash", str(DEMO)], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_demo_finishes_every_step(demo: subprocess.CompletedProcess[str]) -> None:
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert "── step 6/6" in demo.stdout
    assert "sylla simulate" not in demo.stdout


def test_step_3_is_a_real_run_that_metrics_reads_and_that_learns(demo: subprocess.CompletedProcess[str]) -> None:
    assert demo.returncode == 0, demo.stderr[-3000:]
    manifest = json.loads((OUT / "run/run.json").read_text(encoding="utf-8"))
    assert manifest["agent"] == "tabular-q" and manifest["status"] == "complete"
    assert {"gymnasium", "minigrid", "l2logger"} <= set(manifest["versions"])
    rows = sum(len(p.read_text(encoding="utf-8").splitlines()) - 1
               for p in (OUT / "run").glob("worker-default/*/data-log.tsv"))
    assert rows == manifest["episodes"] > 0
    syllabus = OUT / "rooms.json"
    metrics = subprocess.run([str(SYLLA), "metrics", "--syllabus", str(syllabus), str(OUT / "run"),
                              "-m", "avg_perf", "--format", "json"], capture_output=True, text=True)
    assert metrics.returncode == 0, metrics.stderr
    report = json.loads(metrics.stdout)
    # learning: each room's test after its train block beats its pre-test
    assert block_means(report, "1.test", "Minigrid5x5") > block_means(report, "0.test", "Minigrid5x5")
    assert block_means(report, "2.test", "Minigrid6x6") > block_means(report, "0.test", "Minigrid6x6")


def test_steps_5_and_6_sweep_and_compare_real_runs_of_two_agents(demo: subprocess.CompletedProcess[str]) -> None:
    assert demo.returncode == 0, demo.stderr[-3000:]
    for agent in ("random", "tabular-q"):
        for seed in (0, 1):
            manifest = json.loads((OUT / f"runs/{agent}/seed-{seed}/run.json").read_text(encoding="utf-8"))
            assert (manifest["agent"], manifest["seed"], manifest["status"]) == (agent, seed, "complete")
    compared = json.loads((OUT / "compare/compare.json").read_text(encoding="utf-8"))
    (metric,) = compared["metrics"]
    assert set(metric["runs"]) == {"random", "tabular-q"}
    iqm = {a["group"]: a["point"] for a in metric["aggregates"] if a["stat"] == "iqm"}
    assert iqm["tabular-q"] > iqm["random"]
