"""Sweep rows -> groups x runs x tasks, with every missing value named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sylla.metrics.compare.normalize import normalize
from sylla.metrics.compare.scores import LIFETIME, score_sets
from sylla.metrics.compare.source import read_rows
from sylla.metrics.errors import MetricsError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "compare"


def test_groups_runs_and_tasks_of_a_real_sweep() -> None:
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["avg_eval_perf"])
    assert list(s.groups) == ["forgetful", "steady"]
    assert s.tasks == ["Breakout", "Pong"]  # per-task rows: the lifetime row is not a task
    for g in s.groups.values():
        assert g.counts().tolist() == [3, 3]
        assert g.matrix() is not None and g.matrix().shape == (3, 2)
    assert s.missing == [] and s.dropped_tasks == []


def test_a_lifetime_only_metric_is_one_task() -> None:
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["gem_acc"])
    assert s.tasks == [LIFETIME]


def test_phase_indexed_rows_are_tasks_of_their_own() -> None:
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["test_matrix"])
    assert s.tasks == ["Breakout [1.test]", "Breakout [2.test]", "Pong [1.test]", "Pong [2.test]"]


def test_missing_values_are_counted_and_named() -> None:
    ev, sat = score_sets(read_rows(FIXTURES / "gaps"), ["avg_eval_perf", "saturation_value"])
    assert {(m.group, m.task, m.reason) for m in ev.missing} == {
        ("forgetful", "Pong", "not finite"), ("steady", "Breakout", "no row")}
    assert [r.split("seed")[-1] for r in (m.run for m in ev.missing)] == ["2.csv", "3.csv"]
    assert ev.groups["forgetful"].counts().tolist() == [3, 2]
    assert ev.groups["steady"].counts().tolist() == [2, 3]
    assert ev.groups["steady"].matrix() is None  # ragged: no rliable matrix
    assert sat.dropped_tasks == ["Breakout"] and sat.tasks == ["Pong"]
    assert len([m for m in sat.missing if m.task == "Breakout"]) == 3


def test_an_unknown_metric_names_what_there_is() -> None:
    with pytest.raises(MetricsError, match="avg_perf.*avg_eval_perf"):
        score_sets(read_rows(FIXTURES / "sweep"), ["avg_perf"])


def test_baseline_normalisation_makes_the_baseline_mean_one() -> None:
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["avg_eval_perf"])
    normalize(s, "steady")
    for v in s.groups["steady"].values:
        assert abs(v.mean() - 1) < 1e-12
    assert all(np.all(v < 1) for v in s.groups["forgetful"].values)


def test_normalising_by_an_unknown_group_is_a_usage_error() -> None:
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["avg_eval_perf"])
    with pytest.raises(MetricsError, match="not a group.*forgetful, steady") as info:
        normalize(s, "nobody")
    assert info.value.exit_code == 2


def test_ste_normalisation_divides_by_the_experts_mean(fixtures: Path) -> None:
    ste = Path(__file__).resolve().parents[3] / "examples" / "metrics" / "ste"
    (s,) = score_sets(read_rows(FIXTURES / "sweep"), ["avg_eval_perf"])
    before = [v.copy() for v in s.groups["steady"].values]
    normalize(s, "ste", [str(ste)])
    ratios = [b / a for a, b in zip(s.groups["steady"].values, before)]
    for r in ratios:  # one reference per task: every run divided by the same number
        assert np.allclose(r, r[0]) and r[0] > 0
