"""Runs in the separate rliable venv (``.venv-rliable``), never in sylla's: reads score
matrices as JSON on stdin, answers rliable's point and interval estimates as JSON on stdout.

Input: ``{"scores": {group: runs x tasks}, "pairs": [[x, y], ...], "reps": N, "poi_reps": M,
"seed": S, "gamma": G}``. rliable draws its resamples from numpy's global generator, so that
is what the seed seeds. Also imported by bench/compare.py's rliable side (``timed``).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from rliable import library as rly
from rliable import metrics


def aggregate_func(gamma: float):  # type: ignore[no-untyped-def]
    def f(x: np.ndarray) -> np.ndarray:
        return np.array([metrics.aggregate_iqm(x), metrics.aggregate_median(x),
                         metrics.aggregate_mean(x), metrics.aggregate_optimality_gap(x, gamma)])
    return f


def main() -> None:
    job = json.load(sys.stdin)
    scores = {g: np.asarray(m, dtype=np.float64) for g, m in job["scores"].items()}
    np.random.seed(job["seed"])
    t0 = time.perf_counter()
    points, cis = rly.get_interval_estimates(scores, aggregate_func(job.get("gamma", 1.0)),
                                             reps=job["reps"])
    t1 = time.perf_counter()
    pairs = {f"{x},{y}": [scores[x], scores[y]] for x, y in job.get("pairs", [])}
    poi_points, poi_cis = ({}, {})
    if pairs:
        poi_points, poi_cis = rly.get_interval_estimates(
            pairs, metrics.probability_of_improvement, reps=job.get("poi_reps", job["reps"]))
    t2 = time.perf_counter()
    names = ["iqm", "median", "mean", "optimality_gap"]
    out = {
        "aggregates": {g: {n: [float(points[g][i]), float(cis[g][0][i]), float(cis[g][1][i])]
                           for i, n in enumerate(names)} for g in scores},
        "improvement": {k: [float(poi_points[k]), float(np.ravel(poi_cis[k])[0]),
                            float(np.ravel(poi_cis[k])[1])] for k in pairs},
        "seconds": {"aggregates": t1 - t0, "improvement": t2 - t1},
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
