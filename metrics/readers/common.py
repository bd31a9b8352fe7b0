"""Checks every reader shares: the performance column must exist and hold finite numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import EXIT_USAGE, MetricsError


def read_failure(path: Path, exc: Exception) -> MetricsError:
    """Turn a parser or OS exception into a message that names the file."""
    if isinstance(exc, FileNotFoundError):
        return MetricsError("no such file", str(path), exit_code=EXIT_USAGE)
    if isinstance(exc, (IsADirectoryError, PermissionError)):
        return MetricsError(f"cannot read: {exc.strerror}", str(path), exit_code=EXIT_USAGE)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return MetricsError(f"cannot parse: {text}", str(path), exit_code=EXIT_USAGE)


def check_perf(raw: pd.DataFrame, perf: str, file: str, rows: np.ndarray) -> np.ndarray:
    """The performance column as float64, or an error naming the first bad row.

    NaN, inf, empty cells and text are all refused: silently dropping an episode would shift
    every later episode onto the wrong block.
    """
    if perf not in raw.columns:
        have = ", ".join(map(str, raw.columns)) or "none"
        raise MetricsError(
            f"no performance column {perf!r} (columns: {have}); choose one with --perf",
            file, exit_code=EXIT_USAGE)
    values, problem = perf_values(raw[perf])
    if problem is not None:
        i, what = problem
        raise MetricsError(f"{perf} {what}", file, int(rows[i]))
    return values


def perf_values(column: pd.Series) -> tuple[np.ndarray, tuple[int, str] | None]:
    """Float64 values and, if any is bad, the position of the first and what is wrong with it."""
    if column.dtype.kind in "fiu":
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64,
                                                                  na_value=np.nan)
    bad = ~np.isfinite(values)
    if not bad.any():
        return values, None
    i = int(np.argmax(bad))
    original = column.iloc[i]
    if original is None or (isinstance(original, float) and np.isnan(original)) or (
            isinstance(original, str) and original.strip().lower() in ("", "nan", "na", "null")):
        what = "is missing or NaN"
    elif isinstance(original, str) and pd.isna(pd.to_numeric(original, errors="coerce")):
        what = f"is not a number: {original!r}"
    else:
        what = f"is not finite: {original}"
    return values, (i, what)
