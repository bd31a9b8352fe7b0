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
re-reads the log whole then. The rows are parsed with the reader's own pyarrow options
(`csv_options`: the same column types), so each value is the value the reader gets. Anything
else returns None and the follower re-reads the log whole.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sylla.metrics.readers.l2logger_files import FOLDER, csv_options, natural_order

from .labels import Labels, concat, constant, equals, from_arrow
from .tail import START, Position, appended


@dataclass
class _File:
    path: Path
    position: Position  # how far the file has been read (`START`: a new file)
    block: int  # the folder's block number
    task: str | None  # the folder's one task, once a row named it


class L2loggerTail:
    """What has been read of a followed l2logger log, and the rows appended since."""

    def __init__(self, root: Path, frame: pd.DataFrame, perf: str, subtype: bool) -> None:
        self.root = root
        self.perf = perf
        self.subtype = subtype
        self.run = str(frame["run"].iloc[0])
        self.worker = str(frame["worker"].iloc[0])
        self.next_exp = int(frame["exp"].iloc[-1]) + 1
        #: whether the log has an experience of several rows: its episodes are then the
        #: means of their rows (`read_l2logger`), and a repeated experience is no news
        self.rows = "nrows" in frame.columns
        # the first spelling of each task, as the reader's `TaskNames` keeps it
        self.spelling = {str(t).lower(): str(t) for t in pd.unique(frame["task"].astype(str))}
        self.files: list[_File] = []
        by_file = frame.groupby("file", sort=True, observed=True)["task"].agg(
            lambda t: str(t.iloc[-1]))
        for index, path in enumerate(self._listing()):
            folder = FOLDER.match(path.parent.name)
            assert folder is not None  # the reader accepted the log
            stat = os.stat(path)
            self.files.append(_File(path, Position(stat.st_ino, stat.st_size),
                                    int(folder.group(1)), by_file.get(index)))

    def _listing(self) -> list[Path]:
        return sorted(self.root.rglob("data-log.tsv"), key=natural_order)  # the whole-log reader's order

    @classmethod
    def fits(cls, frame: Any) -> bool:
        """Whether a log the whole-log reader read is in the shape this follows: one worker,
        experiences numbered from 0 (each of one row or several), each folder one task."""
        if not isinstance(frame, pd.DataFrame) or frame.empty:
            return False
        needed = {"exp", "file", "task", "worker", "run", "subtype", "kind", "params"}
        if not needed <= set(frame.columns):
            return False
        exp = frame["exp"].to_numpy()
        if frame["worker"].nunique() != 1 or not np.array_equal(exp, np.arange(len(exp))):
            return False
        tasks_per_file = frame.groupby("file", observed=True)["task"].nunique()
        return bool((tasks_per_file == 1).all()) and bool(
            (frame["subtype"].astype(str) == "wake").all())

    def read(self) -> dict[str, Any] | None:
        """The appended complete rows as columns (``exp`` and ``perf`` float64 arrays,
        ``task``, ``kind``, ``params``, ``worker``, ``run`` `labels.Labels`), or None when the log changed in a way only the reader judges."""
        listing = self._listing()
        known = [f.path for f in self.files]
        if listing[: len(known)] != known:
            return None  # a file gone, or a new one sorted among the old ones
        for f in self.files[:-1]:
            stat = os.stat(f.path)
            if stat.st_ino != f.position.inode or stat.st_size != f.position.offset:
                return None  # replaced, cut, or an earlier block's file grew after a later began
        todo = [self.files[-1]]
        for path in listing[len(known):]:
            folder = FOLDER.match(path.parent.name)
            if folder is None or int(folder.group(1)) != todo[-1].block + 1:
                return None  # the reader checks folder names and numbering
            todo.append(_File(path, START, int(folder.group(1)), None))
        parts: list[dict[str, Any]] = []
        done: list[tuple[Position, str | None]] = []
        first = self.next_exp
        spelling = dict(self.spelling)
        for f in todo:
            new = appended(f.path, f.position, header=True)
            if new.fresh and f.position != START:
                return None  # the last file replaced or cut
            rows = new.data[len(new.header):] if new.fresh else new.data
            if not rows:
                if new.fresh:
                    return None  # a new file with its header only: the reader refuses that
                done.append((f.position, f.task))
                continue
            part = self._parse(f, new.header, rows, first)
            if part is None:
                return None
            task = str(part["task"][0])
            if f.task not in (None, task) or spelling.setdefault(task.lower(), task) != task:
                return None  # a second task in a folder, or a task spelled anew
            parts.append(part)
            done.append((new.position, task))
            first = int(part["exp"][-1]) + 1
        if not parts:
            return None
        # every part accepted: consume them
        for f, (position, named) in zip(todo, done):
            f.position, f.task = position, named
        self.files = [*self.files[:-1], *todo]  # todo starts with the last known file
        self.spelling = spelling
        self.next_exp = first
        if len(parts) == 1:
            return parts[0]
        return {c: (np.concatenate([p[c] for p in parts]) if isinstance(parts[0][c], np.ndarray)
                    else concat([p[c] for p in parts])) for c in parts[0]}

    def _parse(self, f: _File, head: bytes, data: bytes, first: int) -> dict[str, Any] | None:
        """The rows ``data`` of one data file (whose header is ``head``), numbered from
        experience ``first``; None if any is not in the shape."""
        import pyarrow as pa  # noqa: PLC0415 - lazy: loads with the readers, only when a log is followed
        import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: as above

        if not head.endswith(b"\n"):
            return None
        try:
            table = pacsv.read_csv(pa.py_buffer(head + data),
                                   **csv_options(f.path, self.perf, self.subtype))
        except Exception:  # noqa: BLE001 - any parse failure: the reader words it
            return None
        n = table.num_rows
        if not n or any(table.column(c).null_count for c in table.column_names):
            return None
        numbers = {c: table.column(c).to_numpy() for c in ("block_num", "exp_num", self.perf)}
        text = {c: from_arrow(table.column(c)) for c in table.column_names if c not in numbers}
        folder = FOLDER.match(f.path.parent.name)
        assert folder is not None  # checked by `read`
        tasks = text["task_name"]
        if ((numbers["block_num"] != f.block).any() or not equals(text["block_type"], folder.group(2))
                or not equals(text["exp_status"], "complete")
                or not equals(text["worker_id"], self.worker)
                or (self.subtype and not equals(text["block_subtype"], "wake"))
                or (tasks.codes != tasks.codes[0]).any() or not np.isfinite(numbers[self.perf]).all()):
            return None
        exp = numbers["exp_num"]
        # each row the next experience (step 1) or another row of the one before (step 0)
        steps = np.diff(np.r_[first - 1, exp])
        if steps[0] != 1 or not ((steps == 0) | (steps == 1)).all() or (
                not self.rows and not steps.all()):
            return None  # a gap, a repeat elsewhere, or the log's first repeated experience
        values = numbers[self.perf].astype(np.float64)
        starts = np.flatnonzero(steps)
        nrows = np.diff(np.r_[starts, n])
        k = len(starts)
        return {"exp": exp[starts].astype(np.float64),
                # the whole-log reader's mean of an experience's rows, in the same order
                "perf": np.add.reduceat(values, starts) / nrows if self.rows else values,
                "task": _at(tasks, starts), "kind": _at(text["block_type"], starts),
                "params": _at(text["task_params"], starts),
                "worker": constant(self.worker, k), "run": constant(self.run, k),
                "row_perf": values, "nrows": nrows}


def _at(values: Labels, rows: np.ndarray) -> Labels:
    return Labels(values.codes[rows], values.values)
