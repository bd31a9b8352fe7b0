"""The stratified bootstrap: strata respected, seeds reproducible, intervals sensible."""

from __future__ import annotations

import numpy as np

from sylla.metrics.compare import bootstrap as bs
from sylla.metrics.compare import estimators as est


def test_each_slot_draws_from_its_own_task() -> None:
    counts = np.array([3, 1, 4])
    idx = bs.stratified_indices(np.random.default_rng(0), counts, 500)
    assert idx.shape == (500, 8)
    assert ((idx[:, :3] >= 0) & (idx[:, :3] < 3)).all()
    assert (idx[:, 3] == 3).all()
    assert ((idx[:, 4:] >= 4) & (idx[:, 4:] < 8)).all()
    # every run of a task is drawn somewhere (not a fixed subset)
    assert set(np.unique(idx[:, 4:])) == {4, 5, 6, 7}


def test_equal_seeds_give_equal_bytes_and_other_seeds_differ() -> None:
    flat = np.random.default_rng(3).normal(size=12)
    counts = np.array([4, 4, 4])
    a = bs.aggregate_draws(flat, counts, 3000, bs.generator(7, "m", "g"))
    b = bs.aggregate_draws(flat, counts, 3000, bs.generator(7, "m", "g"))
    c = bs.aggregate_draws(flat, counts, 3000, bs.generator(8, "m", "g"))
    for k in est.AGGREGATES:
        assert a[k].tobytes() == b[k].tobytes()
        assert a[k].tobytes() != c[k].tobytes()


def test_chunking_does_not_change_the_draws(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    flat = np.arange(10.0)
    counts = np.array([5, 5])
    whole = bs.aggregate_draws(flat, counts, 100, bs.generator(1, "x"))["iqm"]
    monkeypatch.setattr(bs, "CHUNK_CELLS", 10 * 7)  # chunks of 7 resamples
    assert bs.aggregate_draws(flat, counts, 100, bs.generator(1, "x"))["iqm"].tobytes() == whole.tobytes()


def test_improvement_draws_match_a_direct_resample() -> None:
    """The weighted-kernel form equals resampling the runs and counting pairs."""
    rng = np.random.default_rng(5)
    xs = [rng.integers(0, 4, 3).astype(float), rng.normal(size=5)]
    ys = [rng.integers(0, 4, 4).astype(float), rng.normal(size=2)]
    draws = bs.improvement_draws(xs, ys, 50, bs.generator(2, "p"))
    # replay the same random stream by hand
    g = bs.generator(2, "p")
    cx, cy = np.array([3, 5]), np.array([4, 2])
    ix = bs.stratified_indices(g, cx, 50)
    iy = bs.stratified_indices(g, cy, 50)
    fx, fy = np.concatenate(xs), np.concatenate(ys)
    for r in range(50):
        rx = [fx[ix[r, :3]], fx[ix[r, 3:]]]
        ry = [fy[iy[r, :4]], fy[iy[r, 4:]]]
        assert abs(draws[r] - est.probability_of_improvement(rx, ry)) < 1e-12


def test_percentile_interval_holds_the_point_for_a_clear_sample() -> None:
    flat = np.random.default_rng(0).normal(5, 1, size=40)
    counts = np.array([10, 10, 10, 10])
    draws = bs.aggregate_draws(flat, counts, 4000, bs.generator(0, "g"))
    low, high = bs.percentile_interval(draws["mean"])
    assert low < est.mean(flat, counts) < high
    assert 0.2 < high - low < 1.5  # about 2 * 1.96 / sqrt(40) = 0.62


def test_bca_interval_from_scipy_brackets_the_point() -> None:
    values = [np.random.default_rng(i).normal(size=6) for i in range(3)]
    counts = np.array([6, 6, 6])
    flat = np.concatenate(values)
    low, high = bs.bca_interval(values, lambda x: est.iqm(x), 2000, bs.generator(0, "b"))
    assert low <= est.iqm(flat) <= high
    again = bs.bca_interval(values, lambda x: est.iqm(x), 2000, bs.generator(0, "b"))
    assert (low, high) == again
    del counts
