"""The STE runs of ``sylla watch --ste``, read once and again only when one of their files
changed.

Why: the STE runs do not grow with the followed run, but `compute_metrics` given their paths
reads (and aligns) them at every update: on the bench's l2logger shapes a fifth of a full
run's time at each update. The follower hands `compute_metrics` the runs read here instead.

A file counts as changed when its size, modification time, inode or change time differ from
the last read. A file whose times lie within `RACY` seconds of the last check may have been
written again within the file system's time granularity without its times moving (git's
"racily clean" entries), so its bytes' digest is compared too, until a check finds its times
older than that.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from sylla.metrics.ste import load_ste

if TYPE_CHECKING:
    from sylla.metrics.data import RunData

#: seconds before a check within which a file's times may not show a rewrite
RACY = 2.0

Stat = tuple[int, int, int, int]


class SteRuns:
    """The runs under the ``--ste`` paths (`load_ste`), kept while their files are unchanged."""

    def __init__(self, paths: list[str], perf: str | None) -> None:
        self.paths = list(paths)
        self.perf = perf
        self._runs: dict[str, list[RunData]] | None = None
        self._stats: dict[str, Stat] = {}
        self._digests: dict[str, bytes] = {}  # of the files racy when read
        self._confirmed = 0.0  # when the kept runs were last found to match the files
        self.reads = 0  # how often the files were read

    def runs(self) -> "dict[str, list[RunData]]":
        """Task -> STE runs, read again when a file under the paths changed (a
        `MetricsError` of the reader is raised each time, as reading the paths would)."""
        now = time.time()
        stats = self._stats_now()
        if self._runs is None or stats != self._stats or any(
                _digest(f) != self._digests.get(f) for f, st in stats.items() if self._racy(st)):
            self._runs = None
            self._confirmed = now
            # stats and digests taken before the read: a write during it shows next time
            digests = {f: _digest(f) for f, st in stats.items() if self._racy(st)}
            runs = load_ste(list(self.paths), self.perf)
            self.reads += 1
            self._stats, self._digests, self._runs = stats, digests, runs
        self._confirmed = now
        return self._runs

    def snapshot(self) -> "Mapping[str, list[RunData]]":
        """The runs as `compute_metrics` takes them for ``ste``: read (or checked) when it
        first looks at them, where it would read the paths, so a reader error is reported
        where the batch command reports it; then fixed for that computation."""
        return _Snapshot(self)

    def _racy(self, st: Stat) -> bool:
        """Whether a file's times may not show a write since the last confirmation."""
        return max(st[1], st[3]) / 1e9 >= self._confirmed - RACY

    def _stats_now(self) -> dict[str, Stat]:
        out: dict[str, Stat] = {}
        for given in self.paths:
            path = Path(given)
            files = [path] if not path.is_dir() else sorted(
                p for p in path.rglob("*") if p.is_file())
            for file in files:
                try:
                    st = os.stat(file)
                except OSError:
                    out[str(file)] = (-1, -1, -1, -1)
                    continue
                out[str(file)] = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
        return out


def _digest(file: str) -> bytes:
    try:
        with open(file, "rb") as handle:
            return hashlib.file_digest(handle, "blake2b").digest()
    except OSError:
        return b"?"


class _Snapshot(Mapping[str, "list[RunData]"]):
    """`SteRuns.runs` taken at the first look, then the same for every look after."""

    def __init__(self, source: SteRuns) -> None:
        self._source = source
        self._runs: dict[str, list[RunData]] | None = None

    def _taken(self) -> "dict[str, list[RunData]]":
        if self._runs is None:
            self._runs = self._source.runs()
        return self._runs

    def __getitem__(self, task: str) -> "list[RunData]":
        return self._taken()[task]

    def __iter__(self) -> Iterator[str]:
        return iter(self._taken())

    def __len__(self) -> int:
        return len(self._taken())
