"""Properties of the point estimates (Hypothesis) and hand-checked values."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sylla.metrics.compare import estimators as est

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
#: runs x tasks matrices, 1-8 runs, 1-6 tasks
matrices = st.tuples(st.integers(1, 8), st.integers(1, 6)).flatmap(
    lambda shape: arrays(np.float64, shape, elements=finite))


def flat(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return m.T.ravel(), np.full(m.shape[1], m.shape[0])


@settings(max_examples=200, deadline=None)
@given(matrices)
def test_iqm_lies_between_the_quartiles(m: np.ndarray) -> None:
    x, _ = flat(m)
    q25, q75 = np.percentile(x, [25, 75], method="lower"), np.percentile(x, [25, 75], method="higher")
    value = est.iqm(x)
    tol = 1e-9 * (1 + np.abs(x).max())
    assert q25[0] - tol <= value <= q75[1] + tol


@settings(max_examples=200, deadline=None)
@given(matrices, st.floats(-1e3, 1e3, allow_nan=False))
def test_adding_a_constant_shifts_iqm_by_it(m: np.ndarray, c: float) -> None:
    x, _ = flat(m)
    assert np.isclose(est.iqm(x + c), est.iqm(x) + c, rtol=1e-9, atol=1e-6)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.data())
def test_improvement_of_x_over_y_and_y_over_x_sum_to_one(tasks: int, data: st.DataObject) -> None:
    # small integer scores so that ties are common: a tie must count 1/2 each way
    xs = [np.array(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=6)), float)
          for _ in range(tasks)]
    ys = [np.array(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=6)), float)
          for _ in range(tasks)]
    total = est.probability_of_improvement(xs, ys) + est.probability_of_improvement(ys, xs)
    assert abs(total - 1.0) < 1e-12


def test_iqm_cuts_a_quarter_at_each_end() -> None:
    x = np.array([100.0, 1, 2, 3, 4, 5, 6, -100])  # 8 scores: 2 cut each end -> mean(2..5)
    assert est.iqm(x) == 3.5


def test_median_and_mean_are_of_task_means() -> None:
    # task a: runs 1, 3 (mean 2); task b: 10 (mean 10); task c: 4, 4, 7 (mean 5)
    x = np.array([1.0, 3, 10, 4, 4, 7])
    counts = np.array([2, 1, 3])
    assert est.median(x, counts) == 5.0
    assert est.mean(x, counts) == (2 + 10 + 5) / 3


def test_optimality_gap_clips_at_gamma() -> None:
    assert est.optimality_gap(np.array([0.5, 1.5, 1.0, 0.0])) == 1 - (0.5 + 1 + 1 + 0) / 4


def test_probability_of_improvement_by_hand() -> None:
    # task 1: x (2, 3) vs y (1, 3): pairs 2>1, 2<3, 3>1, 3=3 -> (1 + 0 + 1 + 0.5) / 4
    # task 2: x always higher -> 1
    p = est.probability_of_improvement([np.array([2.0, 3]), np.array([5.0])],
                                       [np.array([1.0, 3]), np.array([4.0, 0])])
    assert p == (2.5 / 4 + 1) / 2


def test_batched_estimates_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(1)
    counts = np.array([3, 5, 2])
    batch = rng.normal(size=(7, counts.sum()))
    together = est.aggregates(batch, counts)
    for i in range(7):
        alone = est.aggregates(batch[i], counts)
        for k in est.AGGREGATES:
            assert abs(together[k][i] - alone[k]) < 1e-12
