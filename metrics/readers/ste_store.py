"""sylla's STE store: one Parquet or CSV file per single-task-expert run, read back exactly.

``sylla metrics --ste RUN... --ste-store DIR`` writes ``DIR/<task>/<run>.parquet|csv`` (see
`sylla.metrics.ste.store_ste`); ``--ste DIR`` later reads those files here. A file keeps every
logged row with its experience number and its block's structure, so a run with several rows per
experience comes back as it was read (l2metrics computes over rows: dropping them or their
``exp_num`` changed ``ste_rel_perf`` and the normalisation range). The performance column keeps
its name (``reward``, ``score``, ...), and it is the one column that is not structural, so no
``--perf`` is needed to read a store back.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data import RunData, regime_columns
from ..errors import MetricsError
from .common import perf_values, read_failure

#: the structural columns of a stored run, in file order; the performance column follows
COLUMNS = ("task", "block", "block_type", "block_subtype", "params", "exp_num")
SUFFIXES = (".parquet", ".csv")


def header(path: Path) -> list[str] | None:
    """The column names of a Parquet or CSV file, read without its data (None if unreadable)."""
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

            return list(pq.read_schema(path).names)
        if path.suffix == ".csv":
            with open(path, encoding="utf-8") as handle:
                return handle.readline().rstrip("\r\n").split(",")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return None


def is_ste_store(path: Path) -> bool:
    """A file written by `store_ste`: the structural columns and one performance column."""
    if not path.is_file() or path.suffix not in SUFFIXES:
        return False
    names = header(path)
    return names is not None and tuple(names[:len(COLUMNS)]) == COLUMNS \
        and len(names) == len(COLUMNS) + 1


def read_ste_store(path: Path) -> RunData:
    """One stored STE run as the reader of its log gave it (rows kept; episodes are the
    means of their rows)."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24): telling a store from a log needs none

    try:
        frame = (pd.read_parquet(path) if path.suffix == ".parquet"
                 else pd.read_csv(path, dtype={c: str for c in ("task", "block_type",
                                                                "block_subtype", "params")},
                                  keep_default_na=False))
    except Exception as exc:  # noqa: BLE001 - any parser error becomes a message with the file
        raise read_failure(path, exc) from None
    perf = frame.columns[len(COLUMNS)]
    values, problem = perf_values(frame[perf])
    if problem is not None:
        raise MetricsError(f"{perf} {problem[1]}", str(path), problem[0] + 2)
    if values.size == 0:
        raise MetricsError("a stored STE run has no rows", str(path))
    block = frame["block"].to_numpy(dtype=np.int64)
    exp = frame["exp_num"].to_numpy(dtype=np.float64)
    new_block = np.r_[True, block[1:] != block[:-1]]
    starts = np.flatnonzero(new_block | np.r_[True, exp[1:] != exp[:-1]])  # episode starts
    counts = np.diff(np.r_[starts, values.size])
    means = np.add.reduceat(values, starts) / counts
    block_rows = np.flatnonzero(new_block)
    row_edges: np.ndarray = np.r_[block_rows, values.size]  # np.r_ is untyped: without this, searchsorted reads as a scalar
    episode_edges = np.searchsorted(starts, row_edges)

    def at(column: str) -> np.ndarray:
        return frame[column].astype(str).to_numpy(dtype=object)[block_rows]

    kind, task, sub, params = at("block_type"), at("task"), at("block_subtype"), at("params")
    blocks = regime_columns(episode_edges[:-1], episode_edges[1:], kind, task, sub, params).to_frame()
    run = RunData(run=path.stem, perf=means, exp=exp[starts], blocks=blocks)
    if (counts > 1).any():
        rows = regime_columns(row_edges[:-1], row_edges[1:], kind, task, sub, params).to_frame()
        run.rows = RunData(run=path.stem, perf=values, exp=exp, blocks=rows)
    return run
