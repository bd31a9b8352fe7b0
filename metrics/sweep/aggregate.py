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
"""

from __future__ import annotations

from typing import Sequence

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


def run_level(rows: pd.DataFrame) -> pd.DataFrame:
    """The lifetime and per-task rows (not block rows, not partial ones)."""
    sel = rows["block"].isna()
    if "partial" in rows.columns:
        sel &= ~rows["partial"].fillna(False).astype(bool)
    return rows[sel]


def _intervals(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """95 % BCa intervals of the mean of each row of ``matrix`` (all rows have n >= 2)."""
    from scipy.stats import bootstrap

    low = np.full(matrix.shape[0], np.nan)
    high = np.full(matrix.shape[0], np.nan)
    flat = np.ptp(matrix, axis=1) == 0
    low[flat] = high[flat] = matrix[flat, 0]  # every resample has the same mean
    varied = ~flat
    if varied.any():
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # degenerate-jackknife warnings: the NaN says it
            rows = np.flatnonzero(varied)
            for start in range(0, rows.size, CELLS_PER_CALL):
                chunk = rows[start:start + CELLS_PER_CALL]
                res = bootstrap((matrix[chunk],), np.mean, axis=-1, vectorized=True,
                                confidence_level=CONFIDENCE, n_resamples=RESAMPLES,
                                batch=BATCH, method="BCa", rng=np.random.default_rng(SEED))
                low[chunk] = res.confidence_interval.low
                high[chunk] = res.confidence_interval.high
    return low, high


def describe(frame: pd.DataFrame, keys: Sequence[str], column: str = "value") -> pd.DataFrame:
    """One row per ``keys`` cell: n, mean, median, std (n-1) and the interval of ``column``."""
    out_cols = list(keys) + STATS
    if frame.empty:
        return pd.DataFrame(columns=out_cols)
    values: list[np.ndarray] = []
    cells: list[tuple] = []
    for cell, part in frame.groupby(list(keys), sort=True, dropna=False):
        v = part[column].to_numpy(dtype=float)
        values.append(v[np.isfinite(v)])
        cells.append(cell if isinstance(cell, tuple) else (cell,))
    n = np.array([v.size for v in values])
    stats = {
        "n": n,
        "mean": np.array([v.mean() if v.size else np.nan for v in values]),
        "median": np.array([np.median(v) if v.size else np.nan for v in values]),
        "std": np.array([v.std(ddof=1) if v.size > 1 else np.nan for v in values]),
        "ci_low": np.full(len(values), np.nan),
        "ci_high": np.full(len(values), np.nan),
    }
    for size in sorted(set(n.tolist())):
        if size < 2:
            continue
        idx = np.flatnonzero(n == size)
        low, high = _intervals(np.vstack([values[i] for i in idx]))
        stats["ci_low"][idx] = low
        stats["ci_high"][idx] = high
    out = pd.DataFrame(cells, columns=list(keys))
    for name in STATS:
        out[name] = stats[name]
    out["n"] = out["n"].astype(int)
    return out


def summarise(rows: pd.DataFrame, groups: Sequence[str]) -> pd.DataFrame:
    """Per group and metric (and task, phase): the statistics across runs."""
    return describe(run_level(rows), list(groups) + CELL)


def compare(rows: pd.DataFrame, groups: Sequence[str], key: str,
            replicate: str | None) -> tuple[pd.DataFrame, list[str]]:
    """Paired differences ``a - b`` for each pair of values ``a < b`` of ``key``.

    Two runs pair when every other group key agrees (the seed included, so agent A's seed 3 is
    compared with agent B's seed 3). The differences are summarised per remaining group (all
    keys but ``key`` and ``replicate``) and metric. A cell with several runs on one side cannot
    be paired and is reported.
    """
    level = run_level(rows)
    others = [g for g in groups if g != key]
    strata = [g for g in others if g != replicate]
    notes: list[str] = []
    cols = list(strata) + ["a", "b"] + CELL + STATS
    if level.empty:
        return pd.DataFrame(columns=cols), notes
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
        return pd.DataFrame(columns=cols), notes
    diffs = pd.concat(parts, ignore_index=True)
    return describe(diffs, list(strata) + ["a", "b"] + CELL, column="diff"), notes
