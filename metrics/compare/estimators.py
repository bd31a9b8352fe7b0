"""Point estimates of Agarwal et al. (2021), vectorised over any leading axes.

Every function takes scores laid out as `TaskScores.flat` does (task after task along the last
axis) with the runs per task (``counts``), so that one call evaluates a whole batch of bootstrap
resamples: ``x`` of shape ``(reps, N)`` gives ``reps`` estimates. The definitions follow the
paper ("Deep Reinforcement Learning at the Edge of the Statistical Precipice", NeurIPS 2021,
section 4 and appendix A) and its reference library rliable, so that on a full ``runs x tasks``
matrix the numbers are rliable's:

- IQM: the mean of the middle 50 % of all run x task scores, cutting ``floor(N / 4)`` scores at
  each end (the cut of ``scipy.stats.trim_mean(x, 0.25)``);
- median and mean: of the per-task mean scores (the "aggregate median/mean" of the paper);
- optimality gap: ``gamma - mean(min(score, gamma))`` over all run x task scores, how far the
  scores fall short of the target ``gamma`` (1 for normalised scores);
- probability of improvement P(X > Y): per task, the Mann-Whitney U statistic over the
  ``n_x * n_y`` pairs of runs (a tie counts 1/2), averaged over tasks.
"""

from __future__ import annotations

import numpy as np

AGGREGATES = ("iqm", "median", "mean", "optimality_gap")


def offsets(counts: np.ndarray) -> np.ndarray:
    """Where each task's scores start in the flat layout."""
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


def iqm(x: np.ndarray) -> np.ndarray:
    """Interquartile mean along the last axis. A sort, not ``np.partition`` with two pivots:
    for rows of a few hundred scores numpy's sort is the faster of the two (measured: 0.14
    against 0.40 s for 10,000 rows of 200)."""
    n = x.shape[-1]
    cut = int(0.25 * n)
    if cut == 0:
        return x.mean(axis=-1)
    return np.sort(x, axis=-1)[..., cut:n - cut].mean(axis=-1)


def task_means(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The mean score of each task (last axis: tasks)."""
    return np.add.reduceat(x, offsets(counts), axis=-1) / counts


def median(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return np.median(task_means(x, counts), axis=-1)


def mean(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return task_means(x, counts).mean(axis=-1)


def optimality_gap(x: np.ndarray, gamma: float = 1.0) -> np.ndarray:
    return gamma - np.minimum(x, gamma).mean(axis=-1)


def aggregates(x: np.ndarray, counts: np.ndarray, gamma: float = 1.0) -> dict[str, np.ndarray]:
    """All four aggregates of ``x`` (``(..., N)``), keyed as `AGGREGATES`."""
    means = task_means(x, counts)  # shared by the median and the mean
    return {"iqm": iqm(x), "median": np.median(means, axis=-1), "mean": means.mean(axis=-1),
            "optimality_gap": optimality_gap(x, gamma)}


def wins(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The ``n_x x n_y`` Mann-Whitney kernel of one task: 1 where x_i > y_j, 1/2 on a tie."""
    return (x[:, None] > y[None, :]) + 0.5 * (x[:, None] == y[None, :])


def probability_of_improvement(xs: list[np.ndarray], ys: list[np.ndarray]) -> float:
    """P(X > Y) averaged over tasks: ``xs[t]`` and ``ys[t]`` are the runs' scores on task t."""
    return float(np.mean([wins(x, y).mean() for x, y in zip(xs, ys)]))
