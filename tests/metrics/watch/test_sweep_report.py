"""``sylla report SWEEP_OUT``: block curves per group with the summaries' intervals, the
summary table, one file; options that only a sweep can apply are refused."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sylla.metrics.watch.sweep_report import block_curves, sweep_report

from ..conftest import FIXTURES

pytestmark = pytest.mark.slow  # runs a (two-plugin) sweep over six runs

AGENTS = FIXTURES / "sweep" / "agents"


@pytest.fixture(scope="module")
def sweep_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "out"
    done = subprocess.run([sys.executable, "-m", "sylla", "sweep", str(AGENTS), "--group-by",
                           "{agent}/seed{seed}/{name}", "--jobs", "1", "--out", str(out),
                           "-m", "avg_perf", "-m", "gem", "--no-progress"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


def test_block_curves_are_each_groups_mean_over_its_runs(sweep_out: Path) -> None:
    rows = pd.read_parquet(sweep_out / "rows")
    groups = json.loads((sweep_out / "summary.json").read_text())["groups"]
    curves = block_curves(rows, groups)
    assert {c["group"] for c in curves} == {"agent=agentA", "agent=agentB"}
    assert {c["kind"] for c in curves} == {"train", "test"}
    for c in curves:
        agent = c["group"].split("=")[1]
        metric = "avg_train_perf" if c["kind"] == "train" else "avg_eval_perf"
        mine = rows[(rows.agent == agent) & (rows.block == c["block"]) & (rows.task == c["task"])
                    & (rows.metric == metric)]
        assert c["n"] == len(mine) == 3
        assert c["mean"] == pytest.approx(float(np.mean(mine.value)))
        assert c["ci_low"] <= c["mean"] <= c["ci_high"]


def test_the_report_is_one_file_with_the_summary_table(sweep_out: Path, tmp_path: Path) -> None:
    html, ok = sweep_report(sweep_out)
    assert ok
    summary = json.loads((sweep_out / "summary.json").read_text())["summary"]
    start = html.index('<table id="summary">')
    table = html[start:html.index("</table>", start)]
    assert table.count("<tr>") == len(summary) + 1  # the header row
    assert not re.search(r"""(src|href)=["']https?:""", html)
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(sweep_out), "-o",
                           str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == html


def test_run_options_are_refused_for_a_sweep(sweep_out: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(sweep_out), "--syllabus",
                           "x.json", "-o", str(tmp_path / "r.html")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"sylla: {sweep_out} is a sweep's --out: its report shows what the sweep computed, so "
        "--syllabus cannot apply (give them to sylla sweep)"]
    assert not (tmp_path / "r.html").exists()
