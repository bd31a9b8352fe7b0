"""sylla compare against rliable 1.2.0, the reference implementation of Agarwal et al. (2021).

rliable runs in its own venv (``.venv-rliable``, made by scripts/setup.d/25-rliable.sh) through
``rliable_driver.py`` in a subprocess: it needs arch < 8, which does not import with the pandas
sylla uses. The same score matrices go to both.

- Point estimates (IQM, median, mean, optimality gap, probability of improvement) must be equal
  to 1e-12: they are deterministic functions of the same numbers.
- Interval endpoints cannot be equal: the two tools draw different resamples. Each endpoint is a
  2.5 % or 97.5 % quantile of B bootstrap draws, so its Monte Carlo error is that of a sample
  quantile. The check is on the probability scale, where that error does not depend on the
  shape of the bootstrap distribution (which is lumpy with 5 runs per task): the fraction of
  sylla's draws below rliable's endpoint must be the endpoint's level p within
  5 * sqrt(2 p (1 - p) / B) (five standard errors of the difference of two independent
  B-draw quantile estimates; 0.011 at p = 0.025 and B = 10,000). With ties in the draws the
  fraction is an interval [strictly below, at or below], and p must be within the tolerance
  of that interval. The absolute differences are reported too.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sylla.metrics.compare import bootstrap as bs
from sylla.metrics.compare import estimators as est
from sylla.metrics.compare.analyze import analyze
from sylla.metrics.compare.normalize import normalize
from sylla.metrics.compare.scores import from_matrices, score_sets
from sylla.metrics.compare.source import read_rows

ROOT = Path(__file__).resolve().parents[3]
RLIABLE_PY = Path(os.environ.get("SYLLA_RLIABLE_PYTHON", ROOT / ".venv-rliable" / "bin" / "python"))
DRIVER = Path(__file__).with_name("rliable_driver.py")
FIXTURES = ROOT / "tests" / "fixtures" / "compare"
REPS = 10000
POI_REPS = 2000

pytestmark = [
    pytest.mark.parity,
    pytest.mark.slow,
    pytest.mark.skipif(
        not RLIABLE_PY.exists() and not os.environ.get("CI"),
        reason=f"rliable venv missing at {RLIABLE_PY}; run scripts/setup.d/25-rliable.sh"),
]


def rliable(matrices: dict[str, np.ndarray], pairs: list[tuple[str, str]], seed: int = 0) -> dict:
    job = {"scores": {g: m.tolist() for g, m in matrices.items()}, "pairs": pairs,
           "reps": REPS, "poi_reps": POI_REPS, "seed": seed}
    done = subprocess.run([str(RLIABLE_PY), str(DRIVER)], input=json.dumps(job), text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def cases() -> dict[str, dict[str, np.ndarray]]:
    rng = np.random.default_rng(26)
    continuous = {f"agent{i}": rng.normal(0.6 + 0.1 * i, 0.3, size=(5, 4)) for i in range(3)}
    # integer scores: ties within and across agents (the 1/2 of the Mann-Whitney statistic)
    ties = {f"agent{i}": rng.integers(0, 4, size=(6, 3)).astype(float) for i in range(2)}
    (real,) = score_sets(read_rows(FIXTURES / "sweep"), ["avg_eval_perf"])
    normalize(real, "steady")
    sweep = {g: s.matrix() for g, s in real.groups.items()}
    return {"continuous": continuous, "ties": ties, "sweep": sweep}  # type: ignore[dict-item]


def within_mc_error(draws: np.ndarray, endpoint: float, p: float, reps: int) -> tuple[bool, str]:
    below = float(np.mean(draws < endpoint))
    at_or_below = float(np.mean(draws <= endpoint))
    tol = 5 * math.sqrt(2 * p * (1 - p) / reps)
    ok = below - tol <= p <= at_or_below + tol
    return ok, f"p={p}: sylla draws below rliable's endpoint {below:.4f}..{at_or_below:.4f}, tol {tol:.4f}"


@pytest.mark.parametrize("case", ["continuous", "ties", "sweep"])
def test_same_numbers_as_rliable(case: str) -> None:
    matrices = cases()[case]
    groups = list(matrices)
    # one pair both ways: rliable's interval of P(X > Y) costs a SciPy test per task per
    # resample, minutes for every pair on a shared machine
    pairs = [(groups[0], groups[1]), (groups[1], groups[0])]
    ref = rliable(matrices, pairs)
    scores = from_matrices("score", matrices)
    mine = analyze(scores, reps=REPS, seed=1)
    for e in mine.estimates:
        point, low, high = ref["aggregates"][e.group][e.stat]
        assert abs(e.point - point) <= 1e-12, (case, e.group, e.stat, e.point, point)
        g = scores.groups[e.group]
        draws = bs.aggregate_draws(g.flat(), g.counts(), REPS, bs.generator(1, "score", e.group))[e.stat]
        for endpoint, p in ((low, 0.025), (high, 0.975)):
            ok, why = within_mc_error(draws, endpoint, p, REPS)
            assert ok, (case, e.group, e.stat, why)
    for i in mine.improvements:
        if f"{i.x},{i.y}" not in ref["improvement"]:
            continue
        point, low, high = ref["improvement"][f"{i.x},{i.y}"]
        assert abs(i.point - point) <= 1e-12, (case, i.x, i.y, i.point, point)
        gx, gy = scores.groups[i.x], scores.groups[i.y]
        draws = bs.improvement_draws(gx.values, gy.values, POI_REPS,
                                     bs.generator(1, "score", i.x, "vs", i.y))
        for endpoint, p in ((low, 0.025), (high, 0.975)):
            ok, why = within_mc_error(draws, endpoint, p, POI_REPS)
            assert ok, (case, i.x, i.y, why)


def test_the_point_estimates_do_not_depend_on_sylla_s_layout() -> None:
    """The flat layout and the estimators agree with the matrix formulas directly."""
    m = np.random.default_rng(0).normal(size=(7, 3))
    flat, counts = m.T.ravel(), np.full(3, 7)
    from scipy.stats import trim_mean

    assert abs(est.iqm(flat) - trim_mean(m, 0.25, axis=None)) < 1e-12
    assert abs(est.median(flat, counts) - np.median(m.mean(axis=0))) < 1e-12
