"""Across-run summaries: per group and metric the mean, median, standard deviation, a 95 %
bootstrap interval of the mean and n; and paired differences between the values of one key.

Only run-level rows are summarised: lifetime rows (no task) and per-task rows (a task, or a
transfer pair ``A->B``), with their phase for the phase-indexed ones (GEM's test matrix). Block
rows stay in the per-run dataset: block numbers of different syllabi do not line up.

The interval is ``scipy.stats.bootstrap`` (BCa, 9,999 resamples) with a fixed seed, so a
summary is the same every time it is computed from the same rows. Cells with the same number
of runs are bootstrapped together, up to 64 per vectorised call: SciPy draws one set of resample
indices per call and applies it to each row, so a cell's interval is the one a call of its own
would give, up to the rounding of a vectorised mean (the tests allow 1e-12).

The work is split in two so that the calls can run elsewhere: `plan` groups the cells and cuts
the bootstrap chunks (always the same chunks for the same rows), and `finish` hands every chunk
of every table to one ``mapper`` call. A sweep passes its worker pool or Dask cluster as the
mapper, so the intervals are computed in parallel by processes that already have SciPy loaded;
`bootstrap_chunk` is a pure function of its array, so the bytes do not depend on where it ran.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
import pandas as pd

SEED = 20240601
RESAMPLES = 9999
CONFIDENCE = 0.95
#: resamples and cells per SciPy call: memory is cells x BATCH x n floats, not x 9,999
BATCH = 1000
CELLS_PER_CALL = 64
CELL = ["metric", "task", "phase"]
STATS = ["n", "mean", "median", "std", "ci_low", "ci_high"]

Interval = tuple[np.ndarray, np.ndarray]
#: ``mapper(fn, items)`` -> ``[fn(item) for item in items]``, computed wherever it likes
Mapper = Callable[[Callable[[np.ndarray], Interval], list[np.ndarray]], list[Interval]]


def run_level(rows: pd.DataFrame) -> pd.DataFrame:
    """The lifetime and per-task rows (not block rows, not partial ones)."""
    sel = rows["block"].isna()
    if "partial" in rows.columns:
        sel &= ~rows["partial"].fillna(False).astype(bool)
    return rows[sel]


def bootstrap_chunk(matrix: np.ndarray) -> Interval:
    """95 % BCa intervals of the mean of each row of ``matrix`` (rows of n >= 2 values, not all
    equal): one vectorised SciPy call with the fixed seed."""
    from scipy.stats import bootstrap  # noqa: PLC0415 - lazy: start-up, scipy loads only when used

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate-jackknife warnings: the NaN says it
        res = bootstrap((matrix,), np.mean, axis=-1, vectorized=True,
                        confidence_level=CONFIDENCE, n_resamples=RESAMPLES,
                        batch=BATCH, method="BCa", rng=np.random.default_rng(SEED))
    return np.asarray(res.confidence_interval.low), np.asarray(res.confidence_interval.high)


def inline_map(fn: Callable[[np.ndarray], Interval], items: list[np.ndarray]) -> list[Interval]:
    return [fn(x) for x in items]


@dataclass
class Plan:
    """One summary table before its intervals: the cells, their plain statistics and the
    bootstrap chunks still to compute, each as (indices of its cells, their values as rows)."""

    keys: list[str]
    cells: list[tuple]
    stats: dict[str, np.ndarray]
    chunks: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def frame(self) -> pd.DataFrame:
        if not self.cells:
            return pd.DataFrame(columns=self.keys + STATS)
        out = pd.DataFrame(self.cells, columns=self.keys)
        for name in STATS:
            out[name] = self.stats[name]
        out["n"] = out["n"].astype(int)
        return out


def plan(frame: pd.DataFrame, keys: Sequence[str], column: str = "value") -> Plan:
    """The cells of ``frame`` per ``keys``: n, mean, median, std (n-1) now; the intervals of
    constant cells now (every resample has the same mean), the others as chunks of up to
    `CELLS_PER_CALL` cells with the same n, in cell order."""
    values: list[np.ndarray] = []
    cells: list[tuple] = []
    if not frame.empty:
        for cell, part in frame.groupby(list(keys), sort=True, dropna=False):
            v = part[column].to_numpy(dtype=float)
            values.append(v[np.isfinite(v)])
            cells.append(cell if isinstance(cell, tuple) else (cell,))
    n = np.array([v.size for v in values], dtype=int)
    stats = {
        "n": n,
        "mean": np.array([v.mean() if v.size else np.nan for v in values]),
        "median": np.array([np.median(v) if v.size else np.nan for v in values]),
        "std": np.array([v.std(ddof=1) if v.size > 1 else np.nan for v in values]),
        "ci_low": np.full(len(values), np.nan),
        "ci_high": np.full(len(values), np.nan),
    }
    out = Plan(list(keys), cells, stats)
    for size in sorted(set(n.tolist())):
        if size < 2:
            continue
        idx = np.flatnonzero(n == size)
        matrix = np.vstack([values[i] for i in idx])
        flat = np.ptp(matrix, axis=1) == 0
        stats["ci_low"][idx[flat]] = matrix[flat, 0]
        stats["ci_high"][idx[flat]] = matrix[flat, 0]
        varied = np.flatnonzero(~flat)
        for start in range(0, varied.size, CELLS_PER_CALL):
            chunk = varied[start:start + CELLS_PER_CALL]
            out.chunks.append((idx[chunk], matrix[chunk]))
    return out


def finish(plans: Sequence[Plan], mapper: Mapper | None = None) -> list[pd.DataFrame]:
    """The tables of ``plans``, their intervals computed by one ``mapper`` call over every
    chunk, the largest first so that parallel workers end together."""
    jobs = [(p, c) for p in plans for c in p.chunks]
    jobs.sort(key=lambda job: -job[1][1].size)
    results = (mapper or inline_map)(bootstrap_chunk, [c[1] for _, c in jobs])
    for (p, (idx, _)), (low, high) in zip(jobs, results):
        p.stats["ci_low"][idx] = low
        p.stats["ci_high"][idx] = high
    return [p.frame() for p in plans]


def describe(frame: pd.DataFrame, keys: Sequence[str], column: str = "value",
             mapper: Mapper | None = None) -> pd.DataFrame:
    """One row per ``keys`` cell: n, mean, median, std (n-1) and the interval of ``column``."""
    return finish([plan(frame, keys, column)], mapper)[0]


def summarise(rows: pd.DataFrame, groups: Sequence[str],
              mapper: Mapper | None = None) -> pd.DataFrame:
    """Per group and metric (and task, phase): the statistics across runs."""
    return describe(run_level(rows), list(groups) + CELL, mapper=mapper)


def compare(rows: pd.DataFrame, groups: Sequence[str], key: str, replicate: str | None,
            mapper: Mapper | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Paired differences ``a - b`` for each pair of values ``a < b`` of ``key``.

    Two runs pair when every other group key agrees (the seed included, so agent A's seed 3 is
    compared with agent B's seed 3). The differences are summarised per remaining group (all
    keys but ``key`` and ``replicate``) and metric. A cell with several runs on one side cannot
    be paired and is reported.
    """
    planned, notes = _compare_plan(run_level(rows), groups, key, replicate)
    return finish([planned], mapper)[0], notes


def summaries(rows: pd.DataFrame, groups: Sequence[str], keys: Sequence[str],
              compare_key: str | None, replicate: str | None,
              mapper: Mapper | None = None) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """`summarise` and (with ``compare_key``) `compare` of the same rows, every bootstrap chunk
    of both in one ``mapper`` call."""
    level = run_level(rows)
    plans = [plan(level, list(groups) + CELL)]
    notes: list[str] = []
    if compare_key is not None:
        planned, notes = _compare_plan(level, keys, compare_key, replicate)
        plans.append(planned)
    frames = finish(plans, mapper)
    return frames[0], frames[1] if compare_key is not None else pd.DataFrame(), notes


def _compare_plan(level: pd.DataFrame, groups: Sequence[str], key: str,
                  replicate: str | None) -> tuple[Plan, list[str]]:
    others = [g for g in groups if g != key]
    strata = [g for g in others if g != replicate]
    keys = list(strata) + ["a", "b"] + CELL
    notes: list[str] = []
    if level.empty:
        return plan(level, keys, "diff"), notes
    match = others + CELL
    level = level.assign(**{key: level[key].astype(str)})
    dup = level.duplicated(match + [key], keep=False)
    if dup.any():
        bad = level[dup].drop_duplicates(others + [key])
        notes.append(f"--compare {key}: {len(bad)} cell(s) have more than one run with the same "
                     f"{', '.join(others + [key]) or 'keys'} and are left out of the pairs; "
                     "add the distinguishing part to --group-by")
        level = level[~dup]
    values = sorted(level[key].unique())
    parts = []
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            left = level[level[key] == a][match + ["value"]]
            right = level[level[key] == b][match + ["value"]]
            merged = left.merge(right, on=match, suffixes=("_a", "_b"))
            if merged.empty:
                continue
            merged["diff"] = merged["value_a"] - merged["value_b"]
            merged["a"], merged["b"] = a, b
            parts.append(merged)
    if not parts:
        if len(values) < 2:
            notes.append(f"--compare {key}: needs at least two values of {key}, found "
                         f"{len(values)}")
        return plan(pd.DataFrame(), keys, "diff"), notes
    return plan(pd.concat(parts, ignore_index=True), keys, "diff"), notes
