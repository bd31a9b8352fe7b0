"""BWT/FWT/AUC as the continual-imitation reference text defines them, checked against values
worked out by hand, plus the pooled row and the output shapes."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pandas as pd
import pytest

from sylla.metrics.report import render_text, write_outputs
from sylla.metrics.result import compute_metrics

from .test_iscil_reader import ISCIL, KITCHEN, TREE, WORKED, A, B, C

# t(0.975, df) from a printed table (NIST/SEMATECH e-Handbook, Table 1.3.6.7.2)
T975 = {1: 12.706, 2: 4.303}


def lifetime(result, run):
    sel = result.rows[(result.rows.run == run) & result.rows.task.isna()
                      & result.rows.block.isna()]
    return dict(zip(sel.metric, sel.value))


def detail(result, run):
    sel = result.rows[(result.rows.run == run) & result.rows.task.notna()
                      & result.rows.metric.str.startswith("iscil_")]
    out: dict[tuple[str, str], dict[str, float]] = {}
    for task, phase, metric, value in zip(sel.task, sel.phase, sel.metric, sel.value):
        out.setdefault((task, phase), {})[metric[6:]] = value
    return out


def test_worked_example_from_the_issue():
    # phases train A, B, C; p0 A=3/4; p1 A=2/4 B=4/4; p2 A=1/4 B=3/4 C=2/4
    # A: FWT .75, BWT mean(.5-.75, .25-.75) = -.375, AUC mean(.75,.5,.25) = .5
    # B: FWT 1, BWT .75-1 = -.25, AUC .875;  C: FWT .5, BWT 0 (last phase), AUC .5
    result = compute_metrics(WORKED.parent)
    v = lifetime(result, "exp_worked_seed0")
    assert v["iscil_bwt"] == pytest.approx(100 * (-0.375 - 0.25 + 0) / 3)  # -20.83 %
    assert v["iscil_fwt"] == pytest.approx(75.0)
    assert v["iscil_auc"] == pytest.approx(62.5)
    assert v["iscil_entries"] == 3
    assert f"{v['iscil_bwt']:.2f}" == "-20.83"
    assert detail(result, "exp_worked_seed0") == {
        (A, "1.train"): {"bwt": -37.5, "fwt": 75.0, "auc": 50.0},
        (B, "2.train"): {"bwt": -25.0, "fwt": 100.0, "auc": 87.5},
        (C, "3.train"): {"bwt": 0.0, "fwt": 50.0, "auc": 50.0},
    }


def test_old_style_only_gives_the_same_numbers_in_sylla():
    v = lifetime(compute_metrics(KITCHEN / "ablation_oldstyle_seed0"), "ablation_oldstyle_seed0")
    assert (v["iscil_bwt"], v["iscil_fwt"], v["iscil_auc"]) == pytest.approx(
        (-125 / 6, 75.0, 62.5))


@pytest.mark.parametrize("folder", ["mixed", "mixed_crlf"])
def test_mixed_overwritten_relearned_comma_joined(folder):
    # kept phases 1 (A .75), 3 (trains B, C; A .5, B 1, C .25), 4 (trains A again; A 1, B .75,
    # C .75). Entries: A@1 (BWT mean(-.25, .25) = 0, AUC .75), B@3 (BWT -.25, AUC .875),
    # C@3 (BWT .5, AUC .5), A@4 (BWT 0, FWT 1, AUC 1).
    result = compute_metrics(ISCIL / folder)
    v = lifetime(result, folder)
    assert v["iscil_bwt"] == pytest.approx(100 * 0.25 / 4)
    assert v["iscil_fwt"] == pytest.approx(100 * 3.0 / 4)
    assert v["iscil_auc"] == pytest.approx(100 * 3.125 / 4)
    d = detail(result, folder)
    assert set(d) == {(A, "1.train"), (B, "3.train"), (C, "3.train"), (A, "4.train")}
    assert d[(A, "4.train")] == {"bwt": 0.0, "fwt": 100.0, "auc": 100.0}
    assert d[(C, "3.train")] == {"bwt": 50.0, "fwt": 25.0, "auc": 50.0}


def test_tree_with_filter_and_pooled_interval():
    result = compute_metrics(TREE, params={"iscil_filter": "exp_"})
    per_run = {
        "iscil/kitchen/exp_other_seed1": (0.0, 75.0, 75.0),
        "iscil/kitchen/exp_worked_seed0": (-125 / 6, 75.0, 62.5),
        "iscil/kitchen/exp_zthird_seed2": (0.0, 50.0, 50.0),
    }
    for run, expected in per_run.items():
        v = lifetime(result, run)
        assert (v["iscil_bwt"], v["iscil_fwt"], v["iscil_auc"]) == pytest.approx(expected)
    pooled = lifetime(result, "pooled")
    assert pooled["iscil_experiments"] == 3
    auc = [75.0, 62.5, 50.0]  # mean 62.5, sample sd 12.5
    half = T975[2] * 12.5 / math.sqrt(3)
    assert pooled["iscil_auc"] == pytest.approx(62.5)
    assert pooled["iscil_auc_ci95_low"] == pytest.approx(62.5 - half, abs=0.01)
    assert pooled["iscil_auc_ci95_high"] == pytest.approx(62.5 + half, abs=0.01)
    assert sum(auc) / 3 == 62.5
    assert pooled["iscil_fwt"] == pytest.approx(200 / 3)
    # the ablation folder does not contain "exp_"
    assert not (result.rows.run == "iscil/kitchen/ablation_oldstyle_seed0").any()


def test_one_experiment_has_no_interval():
    pooled = lifetime(compute_metrics(WORKED), "pooled")
    assert pooled["iscil_experiments"] == 1
    assert math.isnan(pooled["iscil_bwt_ci95_low"]) and math.isnan(pooled["iscil_bwt_ci95_high"])


def test_text_output_per_experiment_and_detail():
    result = compute_metrics(TREE, params={"iscil_filter": "exp_", "iscil_detail": "true"})
    text = render_text(result)
    assert "iscil/kitchen/exp_worked_seed0   -20.83%    75.00%    62.50%" in text
    assert "mean of 3" in text and "95% t interval" in text
    # 62.5 -/+ 4.303 * 12.5 / sqrt(3) = 31.45 .. 93.55
    assert "AUC [31.45, 93.55]" in text
    assert "slide-cabinet-hinge-cabinet (learned in 3.train): BWT 0.00%  FWT 50.00%" in text
    plain = render_text(compute_metrics(WORKED))
    assert "learned in" not in plain


def test_json_csv_parquet_shapes(tmp_path):
    result = compute_metrics(TREE, params={"iscil_filter": "exp_"})
    data = json.loads(json.dumps(result.to_json()))
    assert data["lifetime"]["iscil_fwt"] == pytest.approx(
        (75 + 75 + 50 + 200 / 3) / 4)  # mean over the three runs and the pooled row (= mean)
    block_metrics = [b["metrics"] for b in data["blocks"]
                     if b["run"] == "iscil/kitchen/exp_worked_seed0" and b["kind"] == "train"]
    assert [m["iscil_bwt"] for m in block_metrics] == [-37.5, -25.0, 0.0]
    write_outputs(result, "csv", tmp_path, None)
    write_outputs(result, "parquet", tmp_path, None)
    csv = pd.read_csv(tmp_path / "metrics.csv")
    parquet = pd.read_parquet(tmp_path / "metrics.parquet")
    assert list(csv.columns) == ["run", "task", "block", "phase", "metric", "value"]
    for frame in (csv, parquet):
        sel = frame[(frame.run == "pooled") & (frame.metric == "iscil_experiments")]
        assert sel.value.tolist() == [3.0]
        sel = frame[(frame.run == "iscil/kitchen/exp_worked_seed0") & (frame.task == B)
                    & (frame.metric == "iscil_auc")]
        assert sel.value.tolist() == [87.5]


def test_cli_text(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(WORKED)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "exp_worked_seed0   -20.83%    75.00%    62.50%" in done.stdout


def test_t_table_is_scipys():
    """The pooled interval's critical values without scipy are scipy's, bit for bit."""
    from scipy.stats import t

    from sylla.metrics.score_matrix import T975, t975

    assert [t975(df) for df in range(1, len(T975) + 2)] == [
        float(t.ppf(0.975, df)) for df in range(1, len(T975) + 2)]
