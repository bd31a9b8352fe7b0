"""Incremental updates of a followed log: a plain CSV/TSV/JSON Lines file, or an l2logger run
folder in any shape l2logger writes (rows appended to each worker's last block
``data-log.tsv``, new block folders after it; one worker or several, one row per experience
or several), with a syllabus. Only the appended rows are parsed (`chunk.parse_rows`,
`l2logger_tail`), checked against each worker's schedule and aligned; each worker's arrays
grow in place (`growing.Growing`, `shares.Share`) and are laid out in align's order
(`shares.Layout`, which writes again only the blocks that changed).

Why this is safe to do beside the batch path: the fast path only ever handles the case where
the batch path cannot complain. The appended rows must continue the episode (experience)
numbering exactly (no gap, no repeat, no episode split across the boundary), name each block's
own task (no variant spelling, which align's count check treats differently), carry the
block's train/test kind, phase label and parameters, and stay within the schedule; the reader
must have nothing to warn about. Anything else (a rewritten file, a second run, a
divergence, a reader error) returns None and the caller recomputes from the mirror with the
batch code, which then seeds this again. Under those conditions align's output is a function
of each worker's episode count alone (`_blocks` builds its block table with
`sylla.metrics.align.schedule_blocks`, as the batch aligner does, and `_notes` words the batch
aligner's note for a worker short of its schedule), so the document equals ``sylla
metrics``'s; `seed` checks that the run laid out at the start is align's, and the equality
tests check every update at cut points and random append splits.

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
from sylla.metrics.data import BLOCK_COLUMNS, Columns, EpisodeLog, RunData, column
from sylla.metrics.errors import MetricsError
from sylla.metrics.memo import BlockMemo
from sylla.metrics.readers.l2logger import read_info
from sylla.metrics.readers.l2logger_files import natural_order
from sylla.metrics.readers.plain import read_plain
from sylla.metrics.registry import load_plugins
from sylla.metrics.result import MetricsResult, compute_metrics
from sylla.metrics.scheduled import schedule_blocks

from .chunk import parse_rows
from .conformance import Progress, block_ordinals, params_divergence
from .growing import Growing
from .l2logger_tail import L2loggerTail
from .labels import Labels, concat, constant, equals, labels, matches
from .logged import LoggedRows
from .shares import Layout, Share
from .ste_runs import SteRuns
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
    """The aligned state of a single-run log followed with a syllabus (one worker or several)."""

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
            self.tail = L2loggerTail(self.path, log.frame, log.perf, subtype, mirror)
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
        self.model = model
        self.options = options
        #: each worker's episodes with its own schedule, in the natural order of their names
        self.shares = _shares(frame, run, log.row_perf, model)
        #: the last worker's schedule: align takes the block table's columns from it
        self.sched: Schedule = self.shares[-1].sched
        # found once (it reads every entry_points.txt): the follower's, else here
        self.plugins = plugins if plugins is not None else load_plugins()
        #: False while an update is half applied: the state is then no start for another
        self.intact = True
        #: the plugins' per-block values of the rows read so far (the follower's, from `seed`)
        self.memo = BlockMemo()
        #: the run laid out from the shares, over the arrays of the last update's
        self.layout = Layout()
        #: the STE runs as the follower keeps them (from `seed`), else read from their paths
        self.ste: SteRuns | None = None
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
             memo: BlockMemo | None = None,
             plugins: "list[Metric] | None" = None,
             ste: SteRuns | None = None) -> "Incremental | None":
        """An incremental follower for this log, or None when the log is one the fast path
        does not handle (then every update recomputes). ``memo``: what computing ``result``
        kept (`compute_metrics`'s ``memo``), for the first update to start from. ``ste``: the
        STE runs as the follower keeps them (read once, `SteRuns`)."""
        if (model is None or log.runs is not None or len(result.runs) != 1 or log.warnings
                or result.params.get("variant_mode") == "agnostic"):
            return None
        frame = log.frame
        if not isinstance(frame, pd.DataFrame):
            return None
        if log.format == "l2logger":
            if not mirror.path.is_dir() or not L2loggerTail.fits(frame, mirror.path) or (
                    (log.row_perf is not None) != (result.runs[0].rows is not None)):
                return None
        elif (log.format not in LINE_FORMATS or not mirror.path.is_file()
              or log.row_perf is not None or result.runs[0].rows is not None
              or "exp" in frame.columns or "nrows" in frame.columns
              or frame["run"].nunique() != 1 or frame["worker"].nunique() != 1):
            return None
        inc = cls(mirror, log, result.runs[0], model, options, plugins)
        inc.ste = ste
        run = result.runs[0]
        counts = [share.n for share in inc.shares]
        partial = inc._partial_blocks(counts)
        laid = inc.layout(inc.shares, inc.run, inc._blocks(inc._present(), partial),
                          bool(partial))
        if not _same_run(laid, run) or not all(
                inc._conforms(_columns(frame, share.name), 0, share) for share in inc.shares):
            inc.close()
            return None  # not the run align made: every update recomputes
        if memo is not None:
            inc.memo = memo
            # the run laid out is align's bit for bit (`_same_run`): the memo keeps every
            # block's key without comparing, and holds the laid-out arrays from now on (with
            # one worker its growing arrays, which the first update finds in the same memory;
            # with several, arrays each update writes over, which it never compares)
            memo.vouch(laid, set(), in_place=len(inc.shares) > 1)
            memo.admit(laid)
        return inc

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)

    @property
    def episodes(self) -> int:
        return sum(share.n for share in self.shares)

    def _conforms(self, rows: Rows, first: int, share: Share) -> bool:
        """Whether ``rows`` (the worker's episodes ``first``, ``first + 1``, ...) are exactly
        what its schedule plans there: numbering, the block's own task name, kind and phase."""
        sched = share.sched
        episodes = np.asarray(rows["episode"])
        n = len(episodes)
        if not np.array_equal(episodes, np.arange(first, first + n)):
            return False
        if first + n > sched.episodes:
            return False
        ordinals = block_ordinals(sched, np.arange(first, first + n))
        for name in ("task", "kind", "phase"):  # a task compared lower-case, as align does
            if name in rows and not matches(labels(rows[name]), share.planned[name], ordinals,
                                            name == "task"):
                return False
        if "params" in rows:  # an l2logger log's task parameters, as `check` reads them
            # each distinct (block, parameters) pair once
            params = labels(rows["params"])
            k = len(params.values)
            pairs = np.unique(ordinals * k + params.codes)
            texts = np.asarray(params.values, dtype=object)
            found = params_divergence(texts[pairs % k], pairs // k, sched.blocks)
            if found is not None:
                return False
        return True

    def _read_new(self) -> dict[str, Rows] | None:
        """Each worker's appended complete rows as columns, or None when the mirror file was
        replaced or the new rows are not a plain continuation."""
        if self.mirror.generation != self.generation:
            return None
        if self.tail is not None:
            parts = self.tail.read()
            if parts is None:
                return None
            for share in self.shares:
                rows = parts.get(share.name)
                if rows is None:
                    continue
                rows["episode"] = np.arange(share.n, share.n + len(rows["exp"]))
                if not self._conforms(rows, share.n, share):
                    # the tail has moved past these rows: this state cannot take the next ones
                    self.intact = False
                    return None
            return parts
        (share,) = self.shares
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
        if rows is None or not self._conforms(rows, share.n, share):
            return None
        self.position = read.position
        return {share.name: rows}

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
        parts = self._read_new()
        if parts is None:
            return None
        self.intact = False  # until the update is whole (a plugin may refuse the run)
        changed: set[int] = set()  # the ordinals of the blocks that get rows
        for share in self.shares:
            rows = parts.get(share.name)
            if rows is not None:
                n = share.n
                share.extend(rows["perf"], rows["exp" if "exp" in rows else "episode"],
                             rows.get("row_perf"), rows.get("nrows"))
                bounds = share.bounds
                changed.update(np.flatnonzero((bounds[:, 0] < share.n)
                                              & (bounds[:, 1] > n)).tolist())
        counts = [share.n for share in self.shares]
        partial = self._partial_blocks(counts)
        run = self.layout(self.shares, self.run, self._blocks(self._present(), partial),
                          bool(partial))
        # only appended rows reach here (`_read_new`): the memo need not compare the others
        self.memo.vouch(run, changed, in_place=len(self.shares) > 1)
        log = EpisodeLog(frame=Columns({}, []), path=str(self.path), format=self.format,
                         files=[str(self.path)], perf=self.perf_name,
                         warnings=self.reader_warnings + self._notes(counts), runs=[run])
        o = self.options
        ste = self.ste.snapshot() if self.ste is not None else o.ste
        result = compute_metrics(log, None, ste=ste, perf=o.perf, log_format=o.log_format,
                                 params=dict(o.params), allow_partial=True, only=o.only,
                                 progress=False, duplicates=o.duplicates, memo=self.memo,
                                 plugins=self.plugins)
        self.memo.sweep()
        self.intact = True
        return Update(result, self._progress(counts), _in_log_order(parts))

    def _progress(self, counts: list[int]) -> Progress:
        """`conformance.check`'s progress: the slowest worker's place in its schedule."""
        k = min(range(len(counts)),
                key=lambda i: counts[i] / max(self.shares[i].sched.episodes, 1))
        sched, n = self.shares[k].sched, counts[k]
        block = sched.block_at(max(n - 1, 0))
        planned = (sched.episodes if len(counts) == 1 else
                   sum(share.sched.episodes for share in self.shares) // len(counts))
        return Progress(n, planned, block.phase_label if block else None,
                        block.ordinal if block else None)

    def _present(self) -> np.ndarray:
        """The episodes read of each scheduled block, all workers together."""
        return np.sum([share.present() for share in self.shares], axis=0)

    def _partial_blocks(self, counts: list[int]) -> set[int]:
        """align's partial blocks: for each worker short of its schedule, the block its next
        episode falls in, and every later one."""
        partial: set[int] = set()
        for share, n in zip(self.shares, counts):
            if n < share.sched.episodes:
                ordinal = next(b.ordinal for b in share.sched.blocks if b.end > n)
                partial.update(range(ordinal, len(share.sched.blocks)))
        return partial

    def _notes(self, counts: list[int]) -> list[str]:
        """align's note for each worker whose log ends before its schedule."""
        notes = []
        for share, n in zip(self.shares, counts):
            sched = share.sched
            if n >= sched.episodes:
                continue
            who = f"run {self.run!r}" + (f", worker {share.name!r}" if len(counts) > 1 else "")
            block = next(b for b in sched.blocks if b.end > n)
            notes.append(f"{who}: the log ends after {n} episodes but the syllabus schedules "
                         f"{sched.episodes}; block {block.ordinal} ({block.task}, phase "
                         f"{block.phase_label}) covers episodes {block.start}-{block.end - 1}"
                         "; metrics of that block and later are marked partial")
        return notes

    def _blocks(self, present: np.ndarray, partial: set[int]) -> Columns:
        """align's block table for ``present`` episodes of each scheduled block of a
        conforming log: the columns `schedule_blocks` gives every scheduled block (converted
        once, ``_table``), cut to the blocks with episodes, with their counts and ranges."""
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


def _shares(frame: pd.DataFrame, run: RunData, row_perf: np.ndarray | None,
            model: "Syllabus") -> list[Share]:
    """Each worker's episodes of the reader's table (in experience order), its logged rows
    when the log has several per experience, and its share of the schedule."""
    workers = sorted(frame["worker"].astype(str).unique(), key=natural_order)
    if len(workers) == 1:  # the aligned run is the worker's, in its order
        logged = (LoggedRows(np.asarray(run.rows.perf), np.asarray(run.rows.exp),
                             frame["nrows"].to_numpy())
                  if run.rows is not None else None)
        return [Share(workers[0], schedule(model), Growing(np.asarray(run.perf, np.float64)),
                      Growing(np.asarray(run.exp, np.float64)), logged)]
    names = frame["worker"].astype(str).to_numpy()
    shares = []
    for k, worker in enumerate(workers):
        mine = names == worker
        exp = frame["exp"].to_numpy(dtype=np.float64)[mine]
        logged = None
        if row_perf is not None and "nrows" in frame.columns:
            nrows = frame["nrows"].to_numpy().astype(np.int64)[mine]
            starts = frame["row_start"].to_numpy().astype(np.int64)[mine]
            at = np.repeat(starts - (np.cumsum(nrows) - nrows), nrows) + np.arange(nrows.sum())
            logged = LoggedRows(row_perf[at], np.repeat(exp, nrows), nrows)
        shares.append(Share(worker, schedule(model, workers=len(workers), worker=k),
                            Growing(frame["perf"].to_numpy(dtype=np.float64)[mine]),
                            Growing(exp), logged))
    return shares


def _same_run(laid: RunData, run: RunData) -> bool:
    """Whether the run laid out from the workers' episodes is the one align made."""
    pairs = [(laid.perf, run.perf), (laid.exp, run.exp)]
    if (laid.rows is None) != (run.rows is None) or laid.partial != run.partial:
        return False
    if laid.rows is not None and run.rows is not None:
        pairs += [(laid.rows.perf, run.rows.perf), (laid.rows.exp, run.rows.exp)]
        pairs += [(column(laid.rows.blocks, c), column(run.rows.blocks, c))
                  for c in ("start", "stop")]
    pairs += [(column(laid.blocks, c), column(run.blocks, c))
              for c in ("block", "start", "stop", "partial")]
    return all(_bits_equal(np.asarray(a), np.asarray(b)) for a, b in pairs)


def _bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` hold the same values, floats bit for bit (``-0.0`` is no
    ``0.0``, a NaN is itself): the memo takes the laid-out run's blocks for align's."""
    if a.dtype == b.dtype == np.float64 and a.shape == b.shape:
        return bool(np.array_equal(np.ascontiguousarray(a).view(np.uint64),
                                   np.ascontiguousarray(b).view(np.uint64)))
    return bool(np.array_equal(a, b))


def _columns(frame: pd.DataFrame, worker: str) -> Rows:
    """The columns the schedule is checked against, of one worker's episodes."""
    names = [c for c in ("episode", "task", "kind", "phase", "params") if c in frame.columns]
    if frame["worker"].nunique() == 1:
        return {c: frame[c] for c in names}
    mine = (frame["worker"].astype(str) == worker).to_numpy()
    return {c: frame[c][mine] for c in names}


def _in_log_order(parts: dict[str, Rows]) -> Rows:
    """The workers' appended episodes in experience order, as the reader's table has them
    (the curve is fed in that order)."""
    if len(parts) == 1:
        return next(iter(parts.values()))
    every = list(parts.values())
    order = np.argsort(np.concatenate([np.asarray(r["exp"]) for r in every]), kind="stable")
    out: Rows = {}
    for c in every[0]:
        if c in ("row_perf", "nrows") or not all(c in r for r in every):
            continue
        if isinstance(every[0][c], Labels):
            joined = concat([r[c] for r in every])
            out[c] = Labels(joined.codes[order], joined.values)
        else:
            out[c] = np.concatenate([np.asarray(r[c]) for r in every])[order]
    return out
