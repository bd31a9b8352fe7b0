"""The rows appended to an l2logger log (to the last block's ``data-log.tsv``, or in new block
folders after it), parsed for an incremental update, or None when only the whole-log reader
may judge them.

Why this narrow shape: `sylla.metrics.readers.l2logger.read_l2logger` checks the log as a
whole (folder numbering, experiences missing or repeated, a task coming back inside a block,
several workers, spellings of a task). This takes the appended rows only where none of those
checks can say anything: one worker, ``complete`` rows whose experience numbers run on by
one (or stay, for another row of the same experience, in a log that has such experiences
already), each block folder the next number and one task, that task spelled as before,
``block_subtype`` wake. An experience's rows come out as one episode whose value is their
mean, as the reader makes it (``row_perf`` and ``nrows`` keep the rows). An appended row that
continues the last experience already read changes an episode that was counted: the follower
re-reads the log whole then. The rows are parsed with the stream reader's own pyarrow options
(`csv_options` with the folder's type: the same number types), so each value is the value the
reader gets. Anything else returns None and the follower re-reads the log whole.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from sylla.metrics.readers.arrow_pool import give_back
from sylla.metrics.readers.l2logger_files import FOLDER, csv_options, natural_order
from sylla.metrics.readers.l2logger_stream import Irregular, value_runs

from .labels import Labels, concat, constant
from .tail import START, Position, appended

if TYPE_CHECKING:
    from .mirror import Mirror

#: bytes of new rows from which an update gives its parse buffers' pages back at once
#: (`arrow_pool`): a small update's serve the next one's parse, and what a watch keeps is
#: bounded by one such update
GIVE_BACK_FROM = 8 << 20
DATA = "data-log.tsv"  # an l2logger block folder's data file


@dataclass
class _File:
    path: Path
    position: Position  # how far the file has been read (`START`: a new file)
    block: int  # the folder's block number
    task: str | None  # the folder's one task, once a row named it


class L2loggerTail:
    """What has been read of a followed l2logger log, and the rows appended since."""

    def __init__(self, root: Path, frame: pd.DataFrame, perf: str, subtype: bool,
                 mirror: "Mirror | None" = None) -> None:
        self.root = root
        #: the mirror ``root`` is the folder of, whose record of its files lists them
        self.mirror = mirror
        #: the mirror's count of writes when the files were read to their positions
        self._mark = mirror.writes if mirror is not None else 0
        self._layout = -1
        self._sorted: list[Path] = []
        self._grouped: tuple[list[Path], dict[str, list[Path]]] | None = None
        #: each data file's sort key (`natural_order`) and worker, made once for each file:
        #: a run of 300 block files sorted and grouped them again at every update that
        #: added one (~5 ms of an update, issue 40)
        self._keys: dict[Path, tuple[Any, ...]] = {}
        self._workers: dict[Path, str] = {}
        #: the parse options of a data file, by its header line and block type
        self._options: dict[tuple[bytes, str], dict[str, Any]] = {}
        self.perf = perf
        self.subtype = subtype
        self.run = str(frame["run"].iloc[0])
        self.parsed = 0  # bytes of rows the last update parsed
        self.next_exp = int(frame["exp"].iloc[-1]) + 1
        #: each worker's last experience number (its next must be larger)
        self.last = {str(w): int(e) for w, e in frame.groupby(
            "worker", observed=True, sort=False)["exp"].max().items()}
        #: whether the log has an experience of several rows: its episodes are then the
        #: means of their rows (`read_l2logger`), and a repeated experience is no news
        self.rows = "nrows" in frame.columns
        # the first spelling of each task, as the reader's `TaskNames` keeps it
        self.spelling = {str(t).lower(): str(t) for t in pd.unique(frame["task"].astype(str))}
        #: each worker's data files (``<root>/<worker>/<block>-<type>/data-log.tsv``)
        self.files: dict[str, list[_File]] = {}
        by_file = frame.groupby("file", sort=True, observed=True)["task"].agg(
            lambda t: str(t.iloc[-1]))
        for index, path in enumerate(self._listing()):
            folder = FOLDER.match(path.parent.name)
            assert folder is not None  # the reader accepted the log
            stat = os.stat(path)
            self._workers[path] = worker = _worker(self.root, path)
            self.files.setdefault(worker, []).append(
                _File(path, Position(stat.st_ino, stat.st_size), int(folder.group(1)),
                      by_file.get(index)))

    def _touched(self, files: list[_File]) -> bool:
        """Whether any of ``files`` (read up to their positions) changed since: from the
        mirror's record of its writes when the tail follows a mirror (no ``stat`` of each
        finished block file at every update), else from each file's inode and size."""
        if self.mirror is not None:
            return any(self.mirror.written_since(f.path, self._mark) for f in files)
        for f in files:
            stat = os.stat(f.path)
            if stat.st_ino != f.position.inode or stat.st_size != f.position.offset:
                return True
        return False

    def _listing(self) -> list[Path]:
        """The log's data files in the whole-log reader's order: from the mirror's record of
        its files when the tail follows a mirror, sorted again only when a file came or went."""
        if self.mirror is None:
            return sorted(self.root.rglob(DATA), key=natural_order)
        if self._layout != self.mirror.layout:
            keys = self._keys
            self._keys = {path: keys.get(path) or natural_order(path)
                          for path in self.mirror.mirrored(DATA)}
            self._sorted = sorted(self._keys, key=self._keys.__getitem__)
            self._layout = self.mirror.layout
        return self._sorted

    def _by_worker(self) -> dict[str, list[Path]]:
        """`_listing` by worker (not to be changed: kept while the listing is the same)."""
        paths = self._listing()
        if self._grouped is None or self._grouped[0] is not paths:
            workers = self._workers
            self._workers = {path: workers.get(path) or _worker(self.root, path)
                             for path in paths}
            grouped: dict[str, list[Path]] = {}
            for path, worker in self._workers.items():
                grouped.setdefault(worker, []).append(path)
            self._grouped = (paths, grouped)
        return self._grouped[1]

    @classmethod
    def fits(cls, frame: Any, root: Path) -> bool:
        """Whether a log the whole-log reader read is in the shape this follows: experiences
        numbered from 0 (each of one row or several), each worker's files in its own folder
        named as the worker, each file one task."""
        if not isinstance(frame, pd.DataFrame) or frame.empty:
            return False
        needed = {"exp", "file", "task", "worker", "run", "subtype", "kind", "params"}
        if not needed <= set(frame.columns):
            return False
        exp = frame["exp"].to_numpy()
        if not np.array_equal(exp, np.arange(len(exp))):
            return False
        files = sorted(root.rglob(DATA), key=natural_order)
        named = np.array([_worker(root, f) for f in files], dtype=object)
        if not (named[frame["file"].to_numpy()] == frame["worker"].astype(str).to_numpy()).all():
            return False
        tasks_per_file = frame.groupby("file", observed=True)["task"].nunique()
        return bool((tasks_per_file == 1).all()) and bool(
            (frame["subtype"].astype(str) == "wake").all())

    def read(self) -> dict[str, dict[str, Any]] | None:
        """Each worker's appended complete rows as columns (``exp`` and ``perf`` float64
        arrays, ``task``, ``kind``, ``params``, ``worker``, ``run`` `labels.Labels`; the logged
        rows ``row_perf`` and ``nrows``), or None when the log changed in a way only the
        reader judges. An update of at least `GIVE_BACK_FROM` bytes gives its parse buffers'
        pages back when it is read."""
        self.parsed = 0
        try:
            return self._read()
        finally:
            if self.parsed >= GIVE_BACK_FROM:
                give_back()

    def _read(self) -> dict[str, dict[str, Any]] | None:
        listing = self._by_worker()
        if set(listing) != set(self.files):
            return None  # a new worker, or one gone
        plans: list[tuple[str, list[_File]]] = []
        for worker, files in self.files.items():
            paths = listing[worker]
            if paths[: len(files)] != [f.path for f in files]:
                return None  # a file gone, or a new one sorted among the old ones
            if self._touched(files[:-1]):
                return None  # replaced, cut, or an earlier block's file grew after a later began
            todo = [files[-1]]
            for path in paths[len(files):]:
                folder = FOLDER.match(path.parent.name)
                if folder is None or int(folder.group(1)) != todo[-1].block + 1:
                    return None  # the reader checks folder names and numbering
                todo.append(_File(path, START, int(folder.group(1)), None))
            plans.append((worker, todo))
        spelling = dict(self.spelling)
        out: dict[str, dict[str, Any]] = {}
        done: list[tuple[_File, Position, str | None]] = []
        last = dict(self.last)
        for worker, todo in plans:
            parts: list[dict[str, Any]] = []
            for f in todo:
                new = appended(f.path, f.position, header=True)
                if new.fresh and f.position != START:
                    return None  # the last file replaced or cut
                rows = new.data[len(new.header):] if new.fresh else new.data
                if not rows:
                    if new.fresh:
                        return None  # a new file with its header only: the reader refuses that
                    continue
                self.parsed += len(rows)
                part = self._parse(f, worker, new.header, rows, last[worker])
                if part is None:
                    return None
                task = str(part["task"][0])
                if f.task not in (None, task) or spelling.setdefault(task.lower(), task) != task:
                    return None  # a second task in a folder, or a task spelled anew
                parts.append(part)
                done.append((f, new.position, task))
                last[worker] = int(part["exp"][-1])
            if parts:
                out[worker] = parts[0] if len(parts) == 1 else {
                    c: (np.concatenate([p[c] for p in parts])
                        if isinstance(parts[0][c], np.ndarray) else concat([p[c] for p in parts]))
                    for c in parts[0]}
        if not out:
            return None
        # the workers share one experience counter: the new experiences of all of them run on
        # from the last one read, each number once (the reader words a gap or a repeat)
        exps = np.sort(np.concatenate([rows["exp"] for rows in out.values()]))
        if not np.array_equal(exps, np.arange(self.next_exp, self.next_exp + len(exps))):
            return None
        # every part accepted: consume them
        for f, position, named in done:
            f.position, f.task = position, named
        for worker, todo in plans:
            self.files[worker] = [*self.files[worker][:-1], *todo]
        self.spelling, self.last = spelling, last
        self.next_exp += len(exps)
        self._mark = self.mirror.writes if self.mirror is not None else 0
        return out

    def _parse(self, f: _File, worker: str, head: bytes, data: bytes,
               after: int) -> dict[str, Any] | None:
        """The rows ``data`` of one of ``worker``'s data files (whose header is ``head``), its
        experiences numbered after ``after`` and rising; None if any is not in the shape.

        Parsed as the stream reader parses a block (`csv_options` with the folder's type):
        the text columns as bytes, ``block_type`` and ``exp_status`` checked by the parser
        itself, so no text is dictionary-encoded (issue 40: the parse was a quarter of an
        update with several rows per experience, 5.0 -> 3.8 ms for 20,000 rows)."""
        import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: as above

        if not head.endswith(b"\n"):
            return None
        folder = FOLDER.match(f.path.parent.name)
        assert folder is not None  # checked by `read`
        kind = folder.group(2)
        try:
            options = self._options.get((head, kind))
            if options is None:  # the header checked once for each header and block type
                options = csv_options(f.path, self.perf, self.subtype, kind=kind)
                options["read_options"] = pacsv.ReadOptions(
                    use_threads=False, column_names=head.decode().rstrip("\r\n").split("\t"))
                self._options[head, kind] = options
            table = pacsv.read_csv(pa.py_buffer(data), **options)
        except Exception:  # noqa: BLE001 - any parse failure: the reader words it
            return None
        n = table.num_rows
        status = table.column("exp_status")
        if not n or status.null_count or sum(c.true_count for c in status.chunks) != n or any(
                table.column(c).null_count for c in table.column_names
                if c not in ("block_type", "exp_status")):
            return None
        numbers = {c: table.column(c).to_numpy() for c in ("block_num", "exp_num", self.perf)}
        try:  # a column that holds one value has one run of it
            tasks, workers = _runs(table.column("task_name")), _runs(table.column("worker_id"))
            subtypes = _runs(table.column("block_subtype")) if self.subtype else ["wake"]
            params = value_runs(table.column("task_params").combine_chunks())
        except Irregular:
            return None
        if ((numbers["block_num"] != f.block).any() or workers != [worker] or subtypes != ["wake"]
                or len(tasks) != 1 or not np.isfinite(numbers[self.perf]).all()):
            return None
        exp = numbers["exp_num"]
        # each row a later experience (the workers share the counter: the others' come
        # between) or another row of the one before (step 0)
        steps = np.diff(np.r_[after, exp])
        if steps[0] <= 0 or (steps < 0).any() or (not self.rows and not steps.all()):
            return None  # a repeat elsewhere, or the log's first repeated experience
        values = numbers[self.perf].astype(np.float64)
        starts = np.flatnonzero(steps)
        nrows = np.diff(np.r_[starts, n])
        k = len(starts)
        return {"exp": exp[starts].astype(np.float64),
                # the whole-log reader's mean of an experience's rows, in the same order
                "perf": np.add.reduceat(values, starts) / nrows if self.rows else values,
                "task": constant(tasks[0], k), "kind": constant(kind, k),
                "params": _labels_at(params, starts),
                "worker": constant(worker, k), "run": constant(self.run, k),
                "row_perf": values, "nrows": nrows}


def _runs(column: "pa.ChunkedArray") -> list[str]:
    """The value of each run of equal values in a text column read as bytes
    (`l2logger_stream.value_runs`); `Irregular` for one that changes too often or is not
    UTF-8."""
    return value_runs(column.combine_chunks())[1]


def _labels_at(runs: tuple[np.ndarray, list[str]], rows: np.ndarray) -> Labels:
    """The values of a text column at ``rows`` (ascending), as `Labels` (the values in the
    order they first appear), from its runs of equal values (`value_runs`: each run's first
    row and value): each row's run is looked up, no code is made for the other rows."""
    starts, values = runs
    codes: dict[str, int] = {}
    of_run = np.array([codes.setdefault(v, len(codes)) for v in values], dtype=np.int64)
    return Labels(of_run[np.searchsorted(starts, rows, side="right") - 1], tuple(codes))


def _worker(root: Path, path: Path) -> str:
    """The worker folder a data file is in (l2logger writes one per ``worker_id``)."""
    return path.relative_to(root).parts[0]
