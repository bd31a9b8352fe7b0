"""One metric's comparison: the aggregates of every group and the probability of improvement
of every ordered pair, each with its stratified bootstrap interval.

A pure function of the scores and the options (reps, seed, confidence, gamma), so the same
sweep and options give the same numbers, byte for byte, wherever they are computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Callable

import numpy as np

from . import bootstrap as bs
from . import estimators as est
from .scores import Missing, ScoreSet


@dataclass
class Estimate:
    """One aggregate of one group: the point estimate and its 95 % interval(s)."""

    group: str
    stat: str
    point: float
    low: float
    high: float
    bca_low: float | None = None
    bca_high: float | None = None


@dataclass
class Improvement:
    """P(x > y) over the tasks both have, with its percentile interval."""

    x: str
    y: str
    point: float
    low: float
    high: float


@dataclass
class Comparison:
    metric: str
    tasks: list[str]
    #: runs per group and task (the strata sizes)
    runs: dict[str, dict[str, int]]
    estimates: list[Estimate]
    improvements: list[Improvement]
    missing: list[Missing] = field(default_factory=list)
    dropped_tasks: list[str] = field(default_factory=list)


def _bca_statistic(stat: str, counts: np.ndarray, gamma: float) -> Callable[[np.ndarray], np.ndarray]:
    def f(x: np.ndarray) -> np.ndarray:
        return est.aggregates(x, counts, gamma)[stat]
    return f


def analyze(scores: ScoreSet, *, reps: int, seed: int, gamma: float = 1.0, bca: bool = False,
            confidence: float = bs.CONFIDENCE) -> Comparison:
    """Aggregates with intervals for every group, and every pair's probability of improvement."""
    estimates: list[Estimate] = []
    runs: dict[str, dict[str, int]] = {}
    for name, group in scores.groups.items():
        counts = group.counts()
        runs[name] = {t: int(c) for t, c in zip(group.tasks, counts)}
        if not group.tasks:
            continue
        flat = group.flat()
        points = est.aggregates(flat, counts, gamma)
        draws = bs.aggregate_draws(flat, counts, reps, bs.generator(seed, scores.metric, name), gamma)
        for stat in est.AGGREGATES:
            low, high = bs.percentile_interval(draws[stat], confidence)
            e = Estimate(name, stat, float(points[stat]), float(low), float(high))
            if bca:
                try:
                    e.bca_low, e.bca_high = bs.bca_interval(
                        group.values, _bca_statistic(stat, counts, gamma), reps,
                        bs.generator(seed, scores.metric, name, stat), confidence)
                except ValueError:  # a task with one run: SciPy cannot jackknife it
                    e.bca_low = e.bca_high = float("nan")
            estimates.append(e)
    improvements: list[Improvement] = []
    for x, y in permutations(scores.groups, 2):
        gx, gy = scores.groups[x], scores.groups[y]
        if not gx.tasks:
            continue
        point = est.probability_of_improvement(gx.values, gy.values)
        poi = bs.improvement_draws(gx.values, gy.values, reps,
                                   bs.generator(seed, scores.metric, x, "vs", y))
        low, high = bs.percentile_interval(poi, confidence)
        improvements.append(Improvement(x, y, point, float(low), float(high)))
    return Comparison(metric=scores.metric, tasks=scores.tasks, runs=runs, estimates=estimates,
                      improvements=improvements, missing=list(scores.missing),
                      dropped_tasks=list(scores.dropped_tasks))
