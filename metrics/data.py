"""The shapes every stage agrees on: a run's per-episode performance and its block table.

Readers produce an `EpisodeLog` (one row per episode, with whatever structure the log carries);
alignment turns it into `RunData`: a float array of performance in block order plus a block table
whose ``start``/``stop`` slice that array. Metrics only ever see `RunData`, so they work the same
for plain logs, l2logger and learnkit directories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .spill import SpillArray

if TYPE_CHECKING:
    import pandas as pd

    from .numbering import Consecutive

BLOCK_COLUMNS = (
    "block", "task", "phase", "phase_number", "kind", "subtype", "learning",
    "params", "start", "stop", "count", "partial",
)


@dataclass
class EpisodeLog:
    """What a reader returns.

    ``frame`` has one row per episode and at least ``run``, ``worker``, ``episode`` (0-based, per
    run and worker), ``perf`` (float64) and ``row`` (the 1-based row or line in ``file`` of the
    episode's first record, for error messages). Structured formats add ``task``, ``kind``
    (train/test), ``subtype``, ``block_num``, ``params``, ``phase`` and ``exp`` (the log's own
    experience counter).
    """

    frame: "pd.DataFrame | Columns"  # Columns (empty) when a reader returns `runs`
    path: str
    format: str
    files: list[str] = field(default_factory=list)
    perf: str = "reward"
    warnings: list[str] = field(default_factory=list)
    #: every logged row's performance when some episode has several rows (l2logger logs with
    #: several records per experience); ``frame`` then has ``row_start`` and ``nrows``
    #: pointing into it. None when every episode is one row.
    row_perf: np.ndarray | None = None
    #: the runs already aligned into regimes, when the reader reduced the log block by block
    #: (`sylla.metrics.readers.l2logger_stream`); ``frame`` is then empty
    runs: "list[RunData] | None" = None
    #: which worker logged each episode of the streamed ``runs``, when they merge several
    #: (the whole-log reader keeps them apart in ``frame``'s ``worker`` column); a syllabus
    #: schedules each worker's episodes on its own
    workers: "StreamedWorkers | None" = None

    @property
    def structured(self) -> bool:
        return "task" in self.frame.columns and "kind" in self.frame.columns


@dataclass
class StreamedWorkers:
    """The workers of a run read block by block from a log of several workers (all workers'
    experiences merged in experience order): ``episode[i]`` is the code of the worker that
    logged episode ``i`` (``names[code]`` its ``worker_id``), ``nrows[i]`` how many rows it
    logged. `sylla.metrics.align` needs them to lay each worker's share of a syllabus over its
    own episodes; both are spilled to files with the run's values."""

    names: list[str]
    episode: "np.ndarray | SpillArray"
    nrows: "np.ndarray | SpillArray"


class Columns:
    """A block table without pandas: named equal-length numpy arrays.

    The continual-imitation pipeline has a few dozen blocks and reads them with the plugins that
    take test scores (GEM, iscil); building them as a `pandas.DataFrame` would cost the import of
    pandas, which is most of that command's time (issue 24). Code that reads any run's blocks
    takes columns with ``blocks["kind"]`` and the row count with ``len(blocks)``, which both
    types answer alike; `as_frame` gives the DataFrame to code that needs more."""

    def __init__(self, data: dict[str, Any], columns: "tuple[str, ...] | list[str]") -> None:
        self._data = {c: np.asarray(data[c]) for c in columns}
        self.columns = list(columns)

    def __getitem__(self, name: str) -> np.ndarray:
        return self._data[name]

    def __len__(self) -> int:
        return len(self._data[self.columns[0]]) if self.columns else 0

    def __getattr__(self, name: str) -> np.ndarray:
        """``blocks.task`` as on a DataFrame: callers of the Python API read block tables that
        way (l2logger runs read block by block have had `Columns` since issue 24)."""
        data = self.__dict__.get("_data")
        if data is None or name not in data:
            raise AttributeError(name)
        return data[name]

    def __setitem__(self, name: str, values: Any) -> None:
        self._data[name] = np.asarray(values)
        if name not in self.columns:
            self.columns.append(name)

    def copy(self) -> "Columns":
        return Columns({c: self._data[c].copy() for c in self.columns}, self.columns)

    def to_frame(self) -> "pd.DataFrame":
        import pandas as pd  # noqa: PLC0415 - lazy: start-up, pandas loads only when used

        return pd.DataFrame(self._data, columns=self.columns)


def as_frame(blocks: "pd.DataFrame | Columns") -> "pd.DataFrame":
    """``blocks`` as a DataFrame (unchanged if it is one)."""
    return blocks.to_frame() if isinstance(blocks, Columns) else blocks


def with_frames(run: "RunData") -> "RunData":
    """``run`` with its block tables (and its logged rows' block table) as DataFrames, for
    code that selects blocks with DataFrame operations; returns the same run."""
    run.blocks = as_frame(run.blocks)
    if run.rows is not None:
        run.rows.blocks = as_frame(run.rows.blocks)
    return run


def column(blocks: "pd.DataFrame | Columns", name: str) -> np.ndarray:
    """One column of a block table as a numpy array, whichever type the table is."""
    return np.asarray(blocks[name])


@dataclass
class RunData:
    """One run, aligned: ``perf[start:stop]`` is the block's data, in episode order.

    ``exp`` is the x coordinate (the log's experience number if it has one, else the episode
    index); ``blocks`` has the columns in ``BLOCK_COLUMNS``. A long log's ``perf`` and ``exp``
    are `SpillArray`s (read block by block), so metrics slice them rather than take them whole;
    the ``exp`` of a run read by the stream reader, whose numbers run on without gaps, is a
    `Consecutive` (its first number and count), read the same way.
    """

    run: str
    perf: "np.ndarray | SpillArray"
    exp: "np.ndarray | SpillArray | Consecutive"
    blocks: "pd.DataFrame | Columns"
    partial: bool = False
    #: the same run with one value per logged row (see `EpisodeLog.row_perf`), for the
    #: l2metrics-named metrics, which l2metrics computes over rows; None if rows = episodes
    rows: "RunData | None" = None

    @property
    def logged(self) -> "RunData":
        """The row-level view if the log had several rows per episode, else this run."""
        return self.rows if self.rows is not None else self

    @property
    def tasks(self) -> list[str]:
        """Tasks in order of first training, then tasks that are only tested (l2metrics' order)."""
        train = column(self.blocks, "kind") == "train"
        task = column(self.blocks, "task")
        return list(dict.fromkeys(task[train].tolist() + task[~train].tolist()))


def regime_columns(starts: np.ndarray, stops: np.ndarray, kind: np.ndarray, task: np.ndarray,
                   subtype: np.ndarray, params: np.ndarray,
                   phase: np.ndarray | None = None) -> Columns:
    """The block table of a log split into regimes (one entry per block, strings as object
    arrays), without pandas (`sylla.metrics.align.regime_blocks` is its DataFrame); without
    the log's own phase labels, phases are numbered the way syllabi do: each run of train
    blocks opens phase k, the test blocks after it are k.test, tests before any training are
    0.test."""
    if phase is not None:
        number = np.array([phase_number(p) for p in phase])
    else:
        is_train = kind == "train"
        opens = is_train & np.r_[True, ~is_train[:-1]]
        number = np.cumsum(opens)
        phase = np.array([f"{k}.{t}" for k, t in zip(number, kind)], dtype=object)
    return Columns({
        "block": np.arange(len(starts)), "task": task, "phase": phase, "phase_number": number,
        "kind": kind, "subtype": subtype, "learning": kind == "train", "params": params,
        "start": starts, "stop": stops, "count": stops - starts,
        "partial": np.zeros(len(starts), dtype=bool),
    }, BLOCK_COLUMNS)


def phase_number(label: str) -> int:
    """The number of a ``"<n>.<kind>"`` phase label, -1 when it has none."""
    head = label.split(".", 1)[0]
    return int(head) if head.isdigit() else -1



def rows_view(run: RunData, row_perf: np.ndarray, row_start: np.ndarray,
              nrows: np.ndarray) -> RunData:
    """``run`` with each episode expanded into its logged rows (episode order kept, rows of an
    episode in file order); block ``start``/``stop`` count rows."""
    nrows = nrows.astype(np.int64)
    ends = np.r_[0, np.cumsum(nrows)]
    if row_perf.size == ends[-1] and np.array_equal(row_start, ends[:-1]):
        rows = row_perf  # episodes already in log order: the rows need no gathering
    else:
        offsets = np.repeat(row_start.astype(np.int64) - ends[:-1], nrows)
        rows = row_perf[offsets + np.arange(int(ends[-1]))]
    blocks = run.blocks.copy()
    blocks["start"] = ends[column(blocks, "start").astype(np.int64)]
    blocks["stop"] = ends[column(blocks, "stop").astype(np.int64)]
    blocks["count"] = blocks["stop"] - blocks["start"]
    return RunData(run=run.run, perf=rows, exp=np.repeat(run.exp, nrows),
                   blocks=blocks, partial=run.partial)


def variant_base(task: str) -> str:
    """The task of an l2logger ``<task>_<variant>`` name, as l2metrics' agnostic mode cuts it."""
    return str(task).split("_")[0]
