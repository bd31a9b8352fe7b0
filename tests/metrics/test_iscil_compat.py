"""``-P iscil_compat=true``: the reference script's printed numbers, derived by hand from its
behaviour (old-style names keep ``rew``; one calculator pools the experiments in path order and
renames a repeated task to ``<task>_<phase index>``, overwriting an existing key)."""

from __future__ import annotations

import pytest

from sylla.metrics.report import render_text
from sylla.metrics.result import compute_metrics

from .test_iscil_metrics import detail, lifetime
from .test_iscil_reader import ISCIL, KITCHEN, TREE, A, B

COMPAT = {"iscil_compat": "true"}


def triple(v):
    return (v["iscil_bwt"], v["iscil_fwt"], v["iscil_auc"])


def test_old_style_only_prints_zero_everywhere():
    # every old-style name is '<list>-rew', so no train task is ever found: 0.00 % (the script's
    # empty-calculator default), and sylla says why
    result = compute_metrics(KITCHEN / "ablation_oldstyle_seed0", params=COMPAT)
    v = lifetime(result, "ablation_oldstyle_seed0")
    assert triple(v) == (0.0, 0.0, 0.0)
    assert v["iscil_entries"] == 0
    assert any("old-style names keep 'rew'" in w for w in result.warnings)
    # the default reading of the same file is the worked example
    strict = compute_metrics(KITCHEN / "ablation_oldstyle_seed0")
    assert lifetime(strict, "ablation_oldstyle_seed0")["iscil_fwt"] == pytest.approx(75.0)


def test_mixed_file():
    # phase 0: A .75 (its old-style line is 'microwave-kettle-rew', a separate key)
    # phase 1 trains B, C: B 1.0; C was logged old-style -> '...-rew' -> C is skipped
    # phase 2 trains A again: key 'microwave-kettle' exists -> 'microwave-kettle_2', last phase
    # A: later A scores .5, 1.0 -> BWT mean(-.25, .25) = 0, AUC mean(.75,.5,1) = .75
    # B: phase 2 has B only as 'bottom-burner-light-switch-rew' -> BWT 0, AUC 1.0
    # global: BWT 0, FWT (.75+1+1)/3, AUC (.75+1+1)/3
    result = compute_metrics(ISCIL / "mixed", params=COMPAT)
    v = lifetime(result, "mixed")
    assert triple(v) == pytest.approx((0.0, 275 / 3, 275 / 3))
    assert f"{v['iscil_fwt']:.2f}" == "91.67"
    assert detail(result, "mixed") == {
        (A, "compat"): {"bwt": 0.0, "fwt": 75.0, "auc": 75.0},
        (B, "compat"): {"bwt": 0.0, "fwt": 100.0, "auc": 100.0},
        (f"{A}_2", "compat"): {"bwt": 0.0, "fwt": 100.0, "auc": 100.0},
    }


def test_multi_experiment_tree_pools_and_overwrites():
    result = compute_metrics(TREE, params={**COMPAT, "iscil_filter": "exp_"})
    # exp_other_seed1: A (0, 1, 1), B (last phase: 0, .5, .5)          -> 0 / 75 / 75
    assert triple(lifetime(result, "iscil/kitchen/exp_other_seed1")) == pytest.approx(
        (0.0, 75.0, 75.0))
    # exp_worked_seed0 adds A_0 (-.375, .75, .5), B_1 (-.25, 1, .875), C (0, .5, .5):
    # five keys: BWT -.625/5, FWT 3.75/5, AUC 3.375/5                    -> -12.5 / 75 / 67.5
    assert triple(lifetime(result, "iscil/kitchen/exp_worked_seed0")) == pytest.approx(
        (-12.5, 75.0, 67.5))
    # exp_zthird_seed2: A (.5, last phase) is keyed A_0 and overwrites exp_worked's A_0:
    # keys A (0,1,1), B (0,.5,.5), A_0 (0,.5,.5), B_1 (-.25,1,.875), C (0,.5,.5)
    #                                                                    -> -5 / 70 / 67.5
    third = "iscil/kitchen/exp_zthird_seed2"
    assert triple(lifetime(result, third)) == pytest.approx((-5.0, 70.0, 67.5))
    assert detail(result, third)[(f"{A}_0", "compat")] == {"bwt": 0.0, "fwt": 50.0,
                                                           "auc": 50.0}
    assert lifetime(result, third)["iscil_entries"] == 5
    # the default mode does not pool: exp_zthird_seed2 alone is 0 / 50 / 50
    strict = compute_metrics(TREE, params={"iscil_filter": "exp_"})
    assert triple(lifetime(strict, third)) == pytest.approx((0.0, 50.0, 50.0))
    text = render_text(result)
    assert "reference-script compat" in text
    assert "iscil/kitchen/exp_worked_seed0   -12.50%    75.00%    67.50%" in text


def test_old_style_experiment_first_in_the_pool_adds_nothing():
    whole = compute_metrics(TREE, params=COMPAT)
    assert triple(lifetime(whole, "iscil/kitchen/ablation_oldstyle_seed0")) == (0.0, 0.0, 0.0)
    assert triple(lifetime(whole, "iscil/kitchen/exp_worked_seed0")) == pytest.approx(
        (-12.5, 75.0, 67.5))


def test_compat_accepts_a_score_over_its_max(tmp_path):
    log = tmp_path / "exp" / "training_log.log"
    log.parent.mkdir()
    log.write_text("{'data_name': 'a', 'data_paths': []}\n"
                   "[task 0] sub_goal sequence is ['a'] task GC : 125.00% (5.00 / 4.00)\n")
    assert triple(lifetime(compute_metrics(log, params=COMPAT), "exp")) == (0.0, 125.0, 125.0)
    with pytest.raises(Exception, match="over its max"):
        compute_metrics(log)


def test_compat_needs_the_compat_reading():
    from sylla.metrics.readers.iscil import read_iscil

    log = read_iscil(ISCIL / "mixed")  # read without compat, then asked for compat numbers
    result = compute_metrics(log, params=COMPAT)
    assert not result.rows.metric.str.startswith("iscil").any()
    assert any("read without iscil_compat" in w for w in result.warnings)
