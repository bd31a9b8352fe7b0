"""The continual-imitation score matrix through the existing GEM plugin and transfer plot, and
the check of a log's phases against its syllabus."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sylla.metrics.errors import MetricsError
from sylla.metrics.plots import write_plots
from sylla.metrics.result import compute_metrics

from .test_iscil_metrics import lifetime
from .test_iscil_reader import ISCIL, TREE, WORKED, A, B, C

SYLLABI = ISCIL / "syllabi"


def test_gem_reads_the_score_matrix():
    result = compute_metrics(WORKED)
    # R: after A (1.test) A .75; after B (2.test) A .5, B 1; after C (3.test) A .25, B .75, C .5
    assert result.test_matrix() == {"1.test": {A: 0.75}, "2.test": {A: 0.5, B: 1.0},
                                    "3.test": {A: 0.25, B: 0.75, C: 0.5}}
    v = lifetime(result, "exp_worked_seed0")
    assert v["gem_acc"] == pytest.approx((0.25 + 0.75 + 0.5) / 3)
    bwt = (0.25 - 0.75) + (0.75 - 1.0)
    assert v["gem_bwt_paper"] == pytest.approx(bwt / 2)
    assert v["gem_bwt_code"] == pytest.approx(bwt / 3)
    # no evaluation before training: GEM's FWT baseline is missing, and it says so
    assert v["gem_fwt_paper"] != v["gem_fwt_paper"]  # NaN
    assert any("baseline" in w for w in result.warnings)


def test_only_score_plugins_run_unless_asked():
    result = compute_metrics(WORKED)
    assert {p.name for p in result.plugins} == {"gem", "iscil"}
    only = compute_metrics(WORKED, only=["iscil"])
    assert set(only.rows.metric.str.split("_").str[0]) == {"iscil"}


def test_transfer_plot(tmp_path):
    written = write_plots(compute_metrics(WORKED), tmp_path)
    names = {p.name for p in written}
    assert "exp_worked_seed0_transfer_matrix.png" in names
    assert all(p.stat().st_size > 1000 for p in written)


def test_syllabus_that_matches():
    result = compute_metrics(WORKED, SYLLABI / "worked.json")
    assert lifetime(result, "exp_worked_seed0")["iscil_fwt"] == pytest.approx(75.0)


@pytest.mark.parametrize(("log", "syllabus", "line", "message"), [
    (WORKED, "swapped.json", 14, "phase 2 trains bottom-burner-light-switch; the syllabus's "
                                 "train phase '2.train' trains slide-cabinet-hinge-cabinet"),
    (WORKED, "longer.json", 26, "the log ends after 3 phase(s); the syllabus's train phase "
                                "'4.train' (microwave-kettle) is missing"),
    # the phase without evaluations (line 14) still counts; the comma-joined one diverges
    (ISCIL / "mixed" / "training_log.log", "worked.json", 18,
     "phase 3 trains bottom-burner-light-switch, slide-cabinet-hinge-cabinet; the syllabus's "
     "train phase '3.train' trains slide-cabinet-hinge-cabinet"),
])
def test_first_divergence_from_the_syllabus(log, syllabus, line, message):
    with pytest.raises(MetricsError) as info:
        compute_metrics(log, SYLLABI / syllabus)
    assert (info.value.file, info.value.row) == (str(log), line)
    assert message in info.value.message


def test_log_longer_than_syllabus():
    log = ISCIL / "relearn" / "training_log.log"
    with pytest.raises(MetricsError) as info:
        compute_metrics(log, SYLLABI / "worked.json")
    assert (info.value.file, info.value.row) == (str(log), 40)
    assert "phase 4 (trains microwave-kettle) is beyond the syllabus's 3 train phase(s)" in str(
        info.value)
    assert lifetime(compute_metrics(log, SYLLABI / "longer.json"), "relearn")["iscil_entries"] == 4


def test_syllabus_divergence_through_the_cli():
    tree = TREE / "iscil" / "kitchen"
    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(tree),
                           "-P", "iscil_filter=exp_", "--syllabus", str(SYLLABI / "worked.json")],
                          capture_output=True, text=True)
    assert done.returncode == 1
    other = tree / "exp_other_seed1" / "training_log.log"
    assert done.stderr.startswith(f"sylla: {other}:14: experiment 'exp_other_seed1'"
                                  ": the log ends after 2 phase(s)")


def test_other_formats_get_no_iscil_rows():
    from .conftest import FIXTURES, SYLLABUS

    result = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS)
    assert "iscil" in {p.name for p in result.plugins}
    assert not result.rows.metric.str.startswith("iscil").any()
    from sylla.metrics.report import render_text

    assert "Continual-imitation" not in render_text(result)
