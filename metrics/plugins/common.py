"""Helpers the built-in plugins share: block selections and the aggregation parameter."""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from ..data import RunData, column
from ..registry import Parameter, fraction
from ..spill import gather

AGGREGATION = Parameter("aggregation", "mean", "how task values become a lifetime value",
                        choices=("mean", "median"), l2metrics="-a/--aggregation-method")
S = Parameter("s", 0.1, "reference smoothing: window of round(s*n) episodes, 0 < s <= 1",
              type=fraction)


def aggregate(values: Iterable[float], how: str) -> float:
    """NaN-ignoring mean or median; NaN when nothing is left."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    x = x[~np.isnan(x)]
    if not x.size:
        return math.nan
    return float(np.mean(x) if how == "mean" else np.median(x))


def task_train_values(run: RunData, task: str) -> np.ndarray:
    """All training episodes of a task, concatenated in block order: read straight into one
    new array (`gather`; issue 40: each block read from its spill file and then concatenated
    was twice a task's values at a 10M-episode run's peak)."""
    b = run.blocks
    sel = (column(b, "task") == task) & (column(b, "kind") == "train")
    if not sel.any():
        return np.empty(0)
    return gather(run.perf, list(zip(column(b, "start")[sel], column(b, "stop")[sel])))


def ste_train_values(ste_run: RunData) -> np.ndarray:
    b = ste_run.blocks
    sel = column(b, "kind") == "train"
    if not sel.any():
        return np.empty(0)
    return gather(ste_run.perf, list(zip(column(b, "start")[sel], column(b, "stop")[sel])))
