"""A followed learnkit log (``worker-env-K/<block>-<phase>_<kind>/<task>/data-log.tsv``
files) read from the lines appended since the last update, not from each file's first byte.

Why: the batch reader (`sylla.metrics.readers.learnkit.read_learnkit`) parses every data file
whole, so each update of ``sylla watch`` parsed the whole run again. Each file's episodes
(`read_file`) are kept with the bytes they came from; a file that grew has only its new whole
lines parsed (with its header, numbered from the line they start at) and added to them; a new
file is read whole; a file the mirror copied anew (`Mirror.generation`), or whose inode or size
says it was replaced or cut, or whose folder's ``block-report.tsv`` changed, is read whole
again. The files' episodes are then merged as the batch reader merges them (`merge`, its own
code), so the log is the batch reader's on the mirror as it stands.

What the piece cannot decide alone goes to the whole-file reader: an error in the new lines (its
message must name the file's own line), and a quote in them (a quoted field may hold a line
break, so only the whole file says where its lines end).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd

from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.learnkit import data_files, merge, read_file

from .tail import Position, appended

if TYPE_CHECKING:
    from pathlib import Path

    from sylla.metrics.data import EpisodeLog

    from .mirror import Mirror


@dataclass
class _Read:
    stamp: tuple[int, int, int | None]  # the data file's inode, its report's (inode, size)
    position: Position  # how far the file has been read
    lines: int  # data lines read (after the header)
    perf: str
    part: pd.DataFrame
    shape: str


class LearnkitTail:
    """The episodes read so far of a followed learnkit log's data files."""

    def __init__(self, mirror: "Mirror") -> None:
        self.mirror = mirror
        self.generation = mirror.generation
        self.files: dict[Path, _Read] = {}
        #: bytes parsed, in all (what the tests check an update costs)
        self.parsed = 0

    def read(self, perf: str, allow_partial: bool) -> "EpisodeLog | None":
        """The log as `read_learnkit` reads the mirror now, or None when it must read it."""
        if self.mirror.generation != self.generation:
            self.files = {}
            self.generation = self.mirror.generation
        root = self.mirror.path
        try:
            files = data_files(root)
            read = [self._file(file, index, perf) for index, file in enumerate(files)]
            for gone in set(self.files) - set(files):
                del self.files[gone]
            return merge(root, files, read, perf, allow_partial)
        except MetricsError:
            return None  # the batch reader words it, from the whole files

    def _file(self, file: "Path", index: int, perf: str) -> tuple[pd.DataFrame, str]:
        stat = os.stat(file)
        report = file.parent / "block-report.tsv"
        stamp: tuple[int, int, int | None]
        try:
            seen = os.stat(report)
            stamp = (stat.st_ino, seen.st_ino, seen.st_size)
        except FileNotFoundError:
            stamp = (stat.st_ino, 0, None)
        known = self.files.pop(file, None)
        if (known is not None and known.stamp == stamp and known.perf == perf
                and stat.st_size >= known.position.offset):
            grown = self._grown(file, index, known, stat.st_size)
            if grown is not None:
                self.files[file] = grown
                return grown.part, grown.shape
        part, shape = read_file(file, index, perf)
        self.parsed += stat.st_size
        self.files[file] = _Read(stamp, Position(stat.st_ino, stat.st_size), len(part), perf,
                                 part, shape)
        return part, shape

    def _grown(self, file: "Path", index: int, known: _Read, size: int) -> _Read | None:
        """``known`` with the whole lines appended since, or None: read the file whole."""
        if size == known.position.offset:
            if (known.part["file"] != index).any():  # a new file sorted before it
                known.part = known.part.assign(file=index)
            return known
        new = appended(file, known.position, header=True)
        data, head = new.data, new.header
        if new.fresh or not data or b'"' in data or not head.endswith(b"\n"):
            return None
        try:
            part, shape = read_file(file, index, known.perf, head + data, known.lines + 2)
        except MetricsError:
            return None
        if shape != known.shape or len(part) != data.count(b"\n"):
            return None  # a blank line or another oddity: the whole file says what it is
        self.parsed += len(data)
        whole = pd.concat([known.part.assign(file=index), part], ignore_index=True)
        return _Read(known.stamp, new.position, known.lines + len(part), known.perf, whole,
                     shape)
