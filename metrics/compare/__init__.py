"""``sylla compare``: rliable-style evaluation of the groups of a sweep (issue 26).

Agarwal et al., "Deep Reinforcement Learning at the Edge of the Statistical Precipice" (NeurIPS
2021) showed that a handful of runs per agent calls for robust aggregates (IQM, median, mean,
optimality gap), the probability of improvement, and intervals from a bootstrap stratified by
task. This package computes them over a sweep's per-run rows:

- `scores`: rows -> groups x runs x tasks, per metric, missing values listed;
- `normalize`: by a baseline group, by the single-task experts, or not at all;
- `estimators`: the point estimates, vectorised over resamples;
- `bootstrap`: the stratified resampling, percentile and BCa intervals;
- `analyze`: one metric's comparison; `report`: text, JSON, CSV; `profiles`, `plots`: PNGs.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .analyze import Comparison, Estimate, Improvement, analyze
from .normalize import normalize
from .scores import ScoreSet, score_sets

__all__ = ["Comparison", "Estimate", "Improvement", "ScoreSet", "analyze", "compare",
           "normalize", "score_sets"]


def compare(rows: pd.DataFrame | str | Path, *, metrics: list[str] | None = None,
            how: str = "none", reps: int = 50000, seed: int = 0, gamma: float = 1.0,
            bca: bool = False, replicate: str = "seed", ste: list[str] | None = None,
            perf: str = "reward") -> list[Comparison]:
    """Every chosen metric's comparison, from a sweep's rows (a frame, or its ``--out``)."""
    from .source import read_rows  # noqa: PLC0415 - lazy: pyarrow's parquet reader loads only when rows are read from disk

    frame = rows if isinstance(rows, pd.DataFrame) else read_rows(rows)
    return [analyze(normalize(s, how, ste, perf), reps=reps, seed=seed, gamma=gamma, bca=bca)
            for s in score_sets(frame, metrics, replicate)]
