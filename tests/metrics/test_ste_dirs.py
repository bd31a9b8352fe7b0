"""``--ste DIR`` where DIR holds l2logger STE runs side by side, in the layout l2metrics'
examples use: ``DIR/ste_<task>_run<k>/{logger_info.json, scenario_info.json,
<worker>/0-train/data-log.tsv}``. Every run must load; the runs' metadata are never logs."""

from __future__ import annotations

import json

import numpy as np

from sylla.cli import main
from sylla.metrics import compute_metrics
from sylla.metrics.ste import load_ste
from sylla.metrics.synth import write_l2logger


def _ste_dir(tmp_path, runs=3):
    root = tmp_path / "ste"
    for k in range(1, runs + 1):
        write_l2logger(root / f"ste_pong_run{k}", [("train", [("pong", 30)])], seed=k,
                       version="1.0", worker="0", perf="performance")
    write_l2logger(root / "ste_breakout_run1", [("train", [("breakout", 30)])], seed=9,
                   version="1.0", worker="0", perf="performance")
    return root


def test_every_run_in_the_directory_loads(tmp_path):
    ste = load_ste([_ste_dir(tmp_path)])
    assert sorted(ste) == ["breakout", "pong"]
    assert [r.run for r in ste["pong"]] == ["ste_pong_run1", "ste_pong_run2", "ste_pong_run3"]
    assert all(r.perf.size == 30 for r in ste["pong"])
    # three different runs, not one read three times
    assert len({float(np.mean(r.perf)) for r in ste["pong"]}) == 3


def test_metrics_use_all_runs_and_the_declared_column(tmp_path, capsys):
    """metrics_columns is ["performance"]: it is the default --perf for log and STE runs."""
    root = _ste_dir(tmp_path)
    log = write_l2logger(tmp_path / "log", [("train", [("pong", 30)]), ("test", [("pong", 5)]),
                                            ("train", [("breakout", 30)]),
                                            ("test", [("pong", 5), ("breakout", 5)])],
                         seed=4, version="1.0", worker="0", perf="performance")
    assert json.loads((log / "logger_info.json").read_text())["metrics_columns"] == ["performance"]
    assert main(["metrics", "--log", str(log), "--ste", str(root), "--format", "json",
                 "-m", "ste_rel_perf"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["tasks"]) == {"pong", "breakout"}
    r = compute_metrics(log, ste=[root], only=["ste_rel_perf"])
    assert len(r.ste["pong"]) == 3
