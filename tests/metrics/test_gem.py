"""GEM ACC/BWT/FWT by hand, both averagings."""

from __future__ import annotations

import pytest

from sylla.metrics.plugins.gem import Gem, performance_matrix
from sylla.metrics.registry import Context

from .conftest import make_run


def run3():
    # baseline test, then train A / test, train B / test, train C / test
    t = lambda a, b, c: [("A", "test", [a]), ("B", "test", [b]), ("C", "test", [c])]
    return make_run(t(0, 1, 2) + [("A", "train", [5])] + t(10, 3, 2) + [("B", "train", [5])]
                    + t(8, 12, 4) + [("C", "train", [5])] + t(6, 11, 14))


def test_matrix_rows_and_baseline():
    order, R, base, labels = performance_matrix(run3())
    assert order == ["A", "B", "C"]
    assert R.tolist() == [[10, 3, 2], [8, 12, 4], [6, 11, 14]]
    assert base.tolist() == [0, 1, 2]
    assert labels == ["1.test", "2.test", "3.test"]


def test_acc_bwt_fwt_paper_and_code():
    rows = {r["metric"]: r["value"] for r in Gem().compute(Context(run3(), {}, {}))
            if r["task"] is None}
    assert rows["gem_acc"] == pytest.approx((6 + 11 + 14) / 3)
    # BWT terms: 6-10, 11-12 -> sum -5
    assert rows["gem_bwt_paper"] == pytest.approx(-5 / 2)
    assert rows["gem_bwt_code"] == pytest.approx(-5 / 3)
    # FWT terms: R[0][1]-b1 = 3-1, R[1][2]-b2 = 4-2 -> sum 4
    assert rows["gem_fwt_paper"] == pytest.approx(4 / 2)
    assert rows["gem_fwt_code"] == pytest.approx(4 / 3)


def test_gem_on_fixture_without_baseline():
    from sylla.metrics import compute_metrics

    from .conftest import FIXTURES, SYLLABUS
    from .test_reference import value

    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, only=["gem"])
    assert value(r, "gem_acc") == pytest.approx(5.5)       # final row: Pong 4, Breakout 7
    assert value(r, "gem_bwt_paper") == pytest.approx(-1.0)  # 4 - 5
    assert value(r, "gem_bwt_code") == pytest.approx(-0.5)
    assert r.rows[r.rows.metric == "gem_fwt_paper"].value.isna().all()
    assert any("baseline" in w for w in r.warnings)


def test_revisits_use_each_tasks_last_training():
    """A, B, then A again: relearning A must not count as backward transfer. Tasks are ordered
    by their last training (B, A); R[B] is the test after B, R[A] the final test."""
    t = lambda a, b: [("A", "test", [a]), ("B", "test", [b])]
    run = make_run([("A", "train", [5])] + t(10, 1) + [("B", "train", [5])] + t(4, 9)
                   + [("A", "train", [5])] + t(11, 8))
    order, R, _base, _labels = performance_matrix(run)
    assert order == ["B", "A"]
    assert R.tolist() == [[9, 4], [8, 11]]
    ctx = Context(run, {}, {})
    rows = {r["metric"]: r["value"] for r in Gem().compute(ctx) if r["task"] is None}
    # BWT: B forgot 1 (8 - 9); the first-training definition would give (11 - 10) / 1 = +1
    assert rows["gem_bwt_paper"] == pytest.approx(-1.0)
    assert any("more than once" in w for w in ctx.warnings)


def test_a_training_with_no_test_after_it_is_named_as_the_cause():
    """The last task is trained but never tested afterwards: its row of R is missing. The
    warning names that cause, not "tasks not tested in every phase" (they all are)."""
    t = lambda a, b: [("A", "test", [a]), ("B", "test", [b])]
    run = make_run(t(0, 1) + [("A", "train", [5])] + t(10, 3) + [("B", "train", [5])])
    ctx = Context(run, {}, {})
    Gem().compute(ctx)
    gem = [w for w in ctx.warnings if w.startswith("gem:")]
    assert any("no test phase follows the training of B" in w for w in gem), gem
    assert not any("do not test every task" in w for w in gem), gem


def test_a_test_phase_that_skips_a_task_is_named_with_its_phase():
    run = make_run([("A", "test", [0]), ("B", "test", [1]), ("A", "train", [5]),
                    ("A", "test", [10]), ("B", "train", [5]), ("A", "test", [8]),
                    ("B", "test", [12])])
    ctx = Context(run, {}, {})
    Gem().compute(ctx)
    gem = [w for w in ctx.warnings if w.startswith("gem:")]
    assert any("do not test every task (B in 1.test)" in w for w in gem), gem
    assert not any("no test phase follows" in w for w in gem), gem
