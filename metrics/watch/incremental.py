"""Incremental updates of a followed log: a plain CSV/TSV/JSON Lines file, or an l2logger run
folder (rows appended to the last block's ``data-log.tsv``, new block folders after it), with
a syllabus. Only the appended rows are parsed (`chunk.parse_rows`, `l2logger_tail`), checked
against the schedule and aligned; the run's arrays grow in place (`growing.Growing`).

Why this is safe to do beside the batch path: the fast path only ever handles the case where
the batch path cannot complain. The appended rows must continue the episode (experience)
numbering exactly (no gap, no repeat, no episode split across the boundary), name each block's
own task (no variant spelling, which align's count check treats differently), carry the
block's train/test kind, phase label and parameters, and stay within the schedule; the reader
must have nothing to warn about. Anything else (a rewritten file, a second worker or run, a
divergence, a reader error) returns None and the caller recomputes from the mirror with the
batch code, which then seeds this again. Under those conditions align's output is a function
of the episode count alone (`_blocks` builds its block table with
`sylla.metrics.align.schedule_blocks`, as the batch aligner does, and `_notes` words the batch
aligner's note for a short run), so the document equals ``sylla metrics``'s; the equality
tests check it at cut points.

The metric plugins run again on the whole aligned run, but take every finished block's
smoothing and per-block values from the follower's memo (`sylla.metrics.memo`), so an update
recomputes the growing block, the blocks of a task whose normalisation range moved, and the
per-task sums. `bench/watch.py` prints the cost.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sylla.grammar.syllabus.schedule import Schedule, schedule
from sylla.metrics.data import BLOCK_COLUMNS, Columns, EpisodeLog, RunData
from sylla.metrics.errors import MetricsError
from sylla.metrics.memo import RangeMemo
from sylla.metrics.readers.l2logger import read_info
from sylla.metrics.readers.plain import read_plain
from sylla.metrics.registry import load_plugins
from sylla.metrics.result import MetricsResult, compute_metrics
from sylla.metrics.scheduled import block_kind, schedule_blocks

from .chunk import parse_rows
from .conformance import Progress, block_ordinals, params_divergence
from .growing import Growing
from .l2logger_tail import L2loggerTail
from .labels import constant, equals, labels, matches
from .logged import LoggedRows
from .tail import START, appended

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.metrics.registry import Metric

    from .mirror import Mirror
    from .state import Options

#: appended rows as columns: ``episode`` (int64), ``perf`` (and an l2logger log's ``exp``)
#: float64 arrays, the text columns (``task``, ``kind``, ``run``...) `labels.Labels`
Rows = dict[str, Any]

#: the plain formats whose files only grow by whole lines (Parquet is rewritten whole)
LINE_FORMATS = ("csv", "tsv", "jsonl")


@dataclass
class Update:
    """What one incremental step produced: the result, progress and the new rows' frame."""

    result: MetricsResult
    progress: Progress
    rows: "Rows"


class Incremental:
    """The aligned state of a single-run, single-worker log followed with a syllabus."""

    def __init__(self, mirror: "Mirror", log: EpisodeLog, run: RunData, model: "Syllabus",
                 options: "Options", plugins: "list[Metric] | None" = None) -> None:
        self.path = mirror.path
        self.mirror = mirror
        self.generation = mirror.generation
        self.format = log.format
        self.tail: L2loggerTail | None = None
        #: how far a plain log's file has been read, and its header line (none in JSON Lines)
        self.position = START
        self.header = b""
        if log.format == "l2logger":
            assert isinstance(log.frame, pd.DataFrame)
            subtype = str(read_info(self.path).get("log_format_version", "1.0")) == "1.1"
            self.tail = L2loggerTail(self.path, log.frame, log.perf, subtype)
        else:
            read = appended(self.path, header=True)
            self.position = read.position
            self.header = read.header if log.format != "jsonl" else b""
        self.perf_name = log.perf
        self.reader_warnings = list(log.warnings)
        frame = log.frame
        assert isinstance(frame, pd.DataFrame)  # a plain reader's table, not `Columns`
        self.columns = sorted(frame.columns)
        self.run = str(frame["run"].iloc[0])
        self.worker = str(frame["worker"].iloc[0])
        self.sched: Schedule = schedule(model)
        self.model = model
        self.options = options
        self._perf = Growing(np.asarray(run.perf, dtype=np.float64))
        self._exp = Growing(np.asarray(run.exp, dtype=np.float64))
        self.perf, self.exp = self._perf.values, self._exp.values
        #: the logged rows of a log whose experiences have several (`RunData.rows`)
        self.logged = (LoggedRows(run.rows, frame["nrows"].to_numpy())
                       if run.rows is not None else None)
        # found once (it reads every entry_points.txt): the follower's, else here
        self.plugins = plugins if plugins is not None else load_plugins()
        #: False while an update is half applied: the state is then no start for another
        self.intact = True
        #: the plugins' per-block values of the rows read so far (the follower's, from `seed`)
        self.memo = RangeMemo()
        self._tmp = Path(tempfile.mkdtemp(prefix="sylla-watch-rows-"))
        # the chunk file has the log's own name, so the reader names its run as it does the log
        self._chunk = self._tmp / self.path.name
        #: `schedule_blocks`' columns for every scheduled block, as `Columns` holds them
        #: (built once: per update they cost 3-5 ms of DataFrame building on the bench)
        every = schedule_blocks(self.sched, np.ones(len(self.sched.blocks), dtype=np.int64),
                                set())
        self._table = {c: np.asarray(every[c]) for c in _SCHEDULED}

    @classmethod
    def seed(cls, mirror: "Mirror", log: EpisodeLog, result: MetricsResult,
             model: "Syllabus | None", options: "Options",
             memo: RangeMemo | None = None,
             plugins: "list[Metric] | None" = None) -> "Incremental | None":
        """An incremental follower for this log, or None when the log is one the fast path
        does not handle (then every update recomputes). ``memo``: what computing ``result``
        kept (`compute_metrics`'s ``memo``), for the first update to start from."""
        if (model is None or log.runs is not None or len(result.runs) != 1 or log.warnings
                or result.params.get("variant_mode") == "agnostic"):
            return None
        frame = log.frame
        if not isinstance(frame, pd.DataFrame):
            return None
        if log.format == "l2logger":
            if not mirror.path.is_dir() or not L2loggerTail.fits(frame) or (
                    (log.row_perf is not None) != (result.runs[0].rows is not None)):
                return None
        elif (log.format not in LINE_FORMATS or not mirror.path.is_file()
              or log.row_perf is not None or result.runs[0].rows is not None
              or "exp" in frame.columns or "nrows" in frame.columns
              or frame["run"].nunique() != 1 or frame["worker"].nunique() != 1):
            return None
        inc = cls(mirror, log, result.runs[0], model, options, plugins)
        if memo is not None:
            inc.memo = memo
            # the memo compares the rows of each computation with the last one's; shown the
            # run's own growing arrays now (one comparison, inside this full computation),
            # the first update finds them in the same memory instead of comparing 1M rows
            run = result.runs[0]
            shown = RunData(run=run.run, perf=inc.perf, exp=inc.exp, blocks=run.blocks)
            if inc.logged is not None:
                shown.rows = inc.logged.view(shown)
            memo.admit(shown)
        if len(inc.perf) != len(frame) or not inc._conforms(
                {c: frame[c] for c in ("episode", "task", "kind", "phase", "params")
                 if c in frame.columns}, 0):
            inc.close()
            return None
        return inc

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)

    @property
    def episodes(self) -> int:
        return len(self.perf)

    def _conforms(self, rows: Rows, first: int) -> bool:
        """Whether ``rows`` (episodes ``first``, ``first + 1``, ...) are exactly what the
        schedule plans there: numbering, the block's own task name, its kind and phase."""
        episodes = np.asarray(rows["episode"])
        n = len(episodes)
        if not np.array_equal(episodes, np.arange(first, first + n)):
            return False
        if first + n > self.sched.episodes:
            return False
        blocks = self.sched.blocks
        ordinals = block_ordinals(self.sched, np.arange(first, first + n))
        checks: list[tuple[str, list[str], bool]] = []
        if "task" in rows:  # compared lower-case, as align compares task names
            checks.append(("task", [b.task.lower() for b in blocks], True))
        if "kind" in rows:
            checks.append(("kind", [block_kind(b) for b in blocks], False))
        if "phase" in rows:
            checks.append(("phase", [b.phase_label or "" for b in blocks], False))
        for column, wanted, lower in checks:
            if not matches(labels(rows[column]), wanted, ordinals, lower):
                return False
        if "params" in rows:  # an l2logger log's task parameters, as `check` reads them
            # each distinct (block, parameters) pair once
            params = labels(rows["params"])
            k = len(params.values)
            pairs = np.unique(ordinals * k + params.codes)
            texts = np.asarray(params.values, dtype=object)
            found = params_divergence(texts[pairs % k], pairs // k, blocks)
            if found is not None:
                return False
        return True

    def _read_new(self) -> Rows | None:
        """The appended complete rows as columns, or None when the mirror file was replaced
        or the new rows are not a plain continuation."""
        if self.mirror.generation != self.generation:
            return None
        if self.tail is not None:
            rows = self.tail.read()
            if rows is None:
                return None
            rows["episode"] = np.arange(self.episodes, self.episodes + len(rows["exp"]))
            if not self._conforms(rows, self.episodes):
                # the tail has moved past these rows: this state cannot take the next ones
                self.intact = False
                return None
            return rows
        try:
            read = appended(self.path, self.position)
        except FileNotFoundError:
            return None
        data = read.data
        if read.fresh or not data.strip():
            return None
        rows = self._parse_lean(data)
        if rows is None:
            rows = self._parse_batch(data)
        if rows is None or not self._conforms(rows, self.episodes):
            return None
        self.position = read.position
        return rows

    def _parse_lean(self, data: bytes) -> Rows | None:
        """The appended rows through `chunk.parse_rows` (CSV/TSV whose columns need none of
        the batch reader's handling), or None."""
        if self.format not in ("csv", "tsv"):
            return None
        cols = parse_rows(data, self.header, "," if self.format == "csv" else "\t",
                          self.perf_name)
        if cols is None:
            return None
        n = len(cols["episode"])
        for name, own in (("run", self.run), ("worker", self.worker)):
            if name in cols and not equals(cols[name], own):
                return None
            cols[name] = constant(own, n)
        return cols

    def _parse_batch(self, data: bytes) -> Rows | None:
        """The appended rows as the batch reader makes them, or None when it warns or fails."""
        self._chunk.write_bytes(self.header + data)
        try:
            chunk = read_plain(self._chunk, self.perf_name, self.format, False,
                               allow_partial=False, duplicates=self.options.duplicates)
        except MetricsError:
            return None
        frame = chunk.frame
        if (chunk.warnings or sorted(frame.columns) != self.columns
                or (frame["run"] != self.run).any() or (frame["worker"] != self.worker).any()):
            return None
        return {c: (np.asarray(frame[c]) if c in ("episode", "perf", "exp")
                    else labels(frame[c])) for c in frame.columns}

    def update(self) -> Update | None:
        """Apply the appended rows; None when the caller must recompute from the mirror."""
        rows = self._read_new()
        if rows is None:
            return None
        self.intact = False  # until the update is whole (a plugin may refuse the run)
        self.perf = self._perf.extend(np.asarray(rows["perf"], dtype=np.float64))
        self.exp = self._exp.extend(np.asarray(rows["exp" if "exp" in rows else "episode"],
                                               dtype=np.float64))
        n = self.episodes
        partial = self._partial_blocks(n)
        run = RunData(run=self.run, perf=self.perf, exp=self.exp, blocks=self._blocks(n, partial),
                      partial=bool(partial))
        if self.logged is not None:
            self.logged.extend(rows["row_perf"], rows["exp"], rows["nrows"])
            run.rows = self.logged.view(run)
        log = EpisodeLog(frame=Columns({}, []), path=str(self.path), format=self.format,
                         files=[str(self.path)], perf=self.perf_name,
                         warnings=self.reader_warnings + self._notes(n), runs=[run])
        o = self.options
        result = compute_metrics(log, None, ste=o.ste, perf=o.perf, log_format=o.log_format,
                                 params=dict(o.params), allow_partial=True, only=o.only,
                                 progress=False, duplicates=o.duplicates, memo=self.memo,
                                 plugins=self.plugins)
        self.memo.sweep()
        self.intact = True
        block = self.sched.block_at(max(n - 1, 0))
        progress = Progress(n, self.sched.episodes, block.phase_label if block else None,
                            block.ordinal if block else None)
        return Update(result, progress, rows)

    def _partial_blocks(self, n: int) -> set[int]:
        """align's partial blocks: the one episode ``n`` falls in, and every later one."""
        if n >= self.sched.episodes:
            return set()
        ordinal = next(b.ordinal for b in self.sched.blocks if b.end > n)
        return set(range(ordinal, len(self.sched.blocks)))

    def _notes(self, n: int) -> list[str]:
        """align's note for a log that ends before its schedule (single run and worker)."""
        if n >= self.sched.episodes:
            return []
        block = next(b for b in self.sched.blocks if b.end > n)
        return [f"run {self.run!r}: the log ends after {n} episodes but the syllabus schedules "
                f"{self.sched.episodes}; block {block.ordinal} ({block.task}, phase "
                f"{block.phase_label}) covers episodes {block.start}-{block.end - 1}"
                "; metrics of that block and later are marked partial"]

    def _blocks(self, n: int, partial: set[int]) -> Columns:
        """align's block table for the first ``n`` episodes of a conforming log: the columns
        `schedule_blocks` gives every scheduled block (converted once, ``_table``), cut
        to the blocks with episodes, with their counts and ranges."""
        blocks = self.sched.blocks
        present = np.array([max(0, min(n, b.end) - b.start) for b in blocks], dtype=np.int64)
        have = present > 0
        stops = np.cumsum(present)
        table = self._table
        data = {c: table[c][have] for c in _SCHEDULED}
        data["count"] = present[have]
        data["stop"] = stops[have]
        data["start"] = data["stop"] - data["count"]
        data["partial"] = np.isin(table["block"][have], np.fromiter(partial, dtype=np.int64,
                                                                    count=len(partial)))
        return Columns(data, BLOCK_COLUMNS)


#: the block-table columns that depend on the schedule alone, not on the episodes read
_SCHEDULED = ("block", "task", "phase", "phase_number", "kind", "subtype", "learning", "params")
