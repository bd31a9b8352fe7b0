"""Reading a sweep's output folder (``sylla sweep --out DIR``): its per-run rows.

The rows are the Parquet dataset ``DIR/rows`` that the sweep writes (`sylla.metrics.sweep`);
``DIR/rows`` itself, or one Parquet file of rows, is accepted too. Anything else is a usage
error that says what was expected, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import EXIT_USAGE, MetricsError

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
            return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        return pd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise MetricsError(f"cannot read the sweep's rows: {exc}", str(path),
                           exit_code=EXIT_USAGE) from None
