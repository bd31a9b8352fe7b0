"""Reading a sweep's output folder (``sylla sweep --out DIR``): its per-run rows.

The rows are the Parquet dataset ``DIR/rows`` that the sweep writes (`sylla.metrics.sweep`);
``DIR/rows`` itself, or one Parquet file of rows, is accepted too. Anything else is a usage
error that says what was expected, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import EXIT_USAGE, MetricsError
from ..readers.common import LARGEST

ROWS_DIR = "rows"


def rows_path(given: str | Path) -> Path:
    """The Parquet file or dataset directory holding a sweep's rows."""
    p = Path(given)
    if not p.exists():
        raise MetricsError("no such sweep output (give the --out folder of `sylla sweep`)",
                           str(p), exit_code=EXIT_USAGE)
    if p.is_dir() and (p / ROWS_DIR).is_dir():
        return p / ROWS_DIR
    if p.is_dir() and any(p.glob("*.parquet")):
        return p
    if p.is_file() and p.suffix == ".parquet":
        return p
    raise MetricsError("not a sweep output: expected a folder with rows/*.parquet "
                       "(the --out folder of `sylla sweep`)", str(p), exit_code=EXIT_USAGE)


def read_rows(given: str | Path) -> pd.DataFrame:
    """The per-run rows of a sweep, as the sweep wrote them."""
    path = rows_path(given)
    try:
        if path.is_dir():
            parts = sorted(path.glob("part-*.parquet")) or sorted(path.glob("*.parquet"))
            frames = [pd.read_parquet(f) for f in parts]
            rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        else:
            rows = pd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise MetricsError(f"cannot read the sweep's rows: {exc}", str(path),
                           exit_code=EXIT_USAGE) from None
    _check_values(rows, path)
    return rows


def _check_values(rows: pd.DataFrame, path: Path) -> None:
    """A sweep writes a metric it could not compute as NaN (dropped, and counted in the report's
    runs line), never inf or a value past ±``LARGEST``: such a row is a damaged or foreign file,
    and 1e308 overflowed the bootstrap's sums into meaningless intervals (issue 38)."""
    if "value" not in rows.columns or rows.empty:
        return
    values = pd.to_numeric(rows["value"], errors="coerce").to_numpy(dtype=float, na_value=float("nan"))
    bad = np.isinf(values) | (np.abs(np.nan_to_num(values)) > LARGEST)
    if bad.any():
        i = int(np.argmax(bad))
        where = ", ".join(f"{k} {rows[k].iloc[i]}" for k in ("run", "metric", "task") if k in rows.columns)
        raise MetricsError(f"a metric value is {values[i]:g} ({where}): inf, and values beyond "
                           f"±{LARGEST:g}, cannot be resampled (their sums overflow 64-bit floats); "
                           "a sweep of readable logs writes neither, so the rows may be damaged", str(path))
