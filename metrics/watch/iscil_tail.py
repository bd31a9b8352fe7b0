"""A followed continual-imitation log (``training_log.log`` files) read from the lines
appended since the last update, not from its first byte.

Why: a training log is mostly loss lines and grows to tens of megabytes; the batch reader
scans it whole (`sylla.metrics.readers.iscil.read_iscil`), so every update of ``sylla watch``
scanned the whole file again. Each file's `PhaseScan` is kept and fed the appended whole
lines of the mirror (which holds only complete lines: a half-written last line is neither an
error nor a number). A file the mirror copied again from the start (truncated, replaced,
rewritten: `Mirror.generation`), or whose inode or size says so, is scanned anew.

The log it returns is the batch reader's on the mirror as it stands: `PhaseScan` is the batch
reader's own scan, fed in pieces (tests/metrics/test_iscil_reader.py checks that pieces read as
the whole). Where the batch reader must judge the whole file (``iscil_compat``, whose reference
reading re-tokenises every line; ``\\r`` line ends, which `_normalise` rewrites only when they
are not all ``\\r\\n``; a NUL byte; any error) this returns None and the caller reads it whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.iscil import Experiment, IscilLog, Phase, PhaseScan, check_yields, find_logs, runs_of

from .tail import START, Position, appended

if TYPE_CHECKING:
    from pathlib import Path

    from .mirror import Mirror


@dataclass
class _Scanned:
    position: Position  # how far `scan` has been fed
    scan: PhaseScan


class IscilTail:
    """The scans of a followed continual-imitation log's files."""

    def __init__(self, mirror: "Mirror") -> None:
        self.mirror = mirror
        self.generation = mirror.generation
        self.files: dict[Path, _Scanned] = {}
        #: bytes fed to the scans, in all (what the tests check an update costs)
        self.fed = 0

    def read(self, options: Mapping[str, Any]) -> IscilLog | None:
        """The log as `read_iscil` reads the mirror now, or None when it must read it."""
        if options.get("iscil_compat"):
            return None
        if self.mirror.generation != self.generation:  # a file copied anew: scan all anew
            self.files = {}
            self.generation = self.mirror.generation
        root = self.mirror.path
        try:
            logs = find_logs(root, str(options.get("iscil_filter") or ""))
            experiments = []
            for name, file in logs:
                phases = self._phases(file)
                if phases is None:
                    return None
                # a copy: the next update goes on filling the scan's last phase
                experiment = Experiment(name=name, file=str(file), all_phases=[
                    Phase(p.number, p.line, list(p.train), dict(p.evals)) for p in phases])
                check_yields(experiment)
                experiments.append(experiment)
        except MetricsError:
            return None  # the batch reader words it, from the whole file
        return IscilLog(path=str(root), files=[e.file for e in experiments],
                        experiments=experiments, runs=runs_of(experiments))

    def _phases(self, file: "Path") -> list[Phase] | None:
        """``file``'s phases after feeding its scan the whole lines appended since the last
        read (raises the scan's `MetricsError`, after which the file is scanned anew)."""
        known = self.files.pop(file, None)  # until the piece is scanned without error
        new = appended(file, known.position if known is not None else START)
        if known is None or new.fresh:
            known = _Scanned(START, PhaseScan(str(file)))
        if b"\r" in new.data or b"\x00" in new.data:
            return None
        if new.data:
            known.scan.feed(new.data)
            self.fed += len(new.data)
        known.position = new.position
        self.files[file] = known
        return known.scan.result()
