"""How far a continual-imitation run has come through its syllabus.

Why its own count: such a log holds no episodes, only a config line opening each train phase
(``{'data_name': ...``) and the evaluation lines after its training, so the episode check of
`conformance` does not apply, and ``sylla watch --check`` never saw the run complete (issue
38). The reader refuses the log all along a run written against a syllabus (its later train
phases are missing until they are written), and refuses a line it cannot read, so the count is
taken from the lines themselves, leniently: a phase line or an evaluation line that the reader
would refuse still says that a phase opened or a task was evaluated. The numbers and the
reader's message stay the reader's.

Placed in the schedule: a train phase is done once its evaluation begins (or the next phase
opens); the test phase after the k-th train phase has as many blocks done as the k-th phase
has tasks evaluated. Progress is the schedule's episodes up to the last block done, so the run
is complete when its last train phase has been evaluated on as many tasks as the syllabus's
last test phase lists. Each file is counted from the bytes appended since the last update.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sylla.grammar.syllabus.schedule import schedule
from sylla.metrics.errors import MetricsError
from sylla.metrics.readers.iscil import find_logs

from .conformance import Progress

if TYPE_CHECKING:
    from pathlib import Path

    from sylla.grammar.syllabus.model import Syllabus
    from sylla.grammar.syllabus.schedule import Schedule, ScheduledBlock

    from .mirror import Mirror

#: a phase opening, or an evaluation line (new style ``[task N] sub_goal sequence is``, old
#: style ``[N]skill is``) with the task's index
_LINE = re.compile(rb"(?m)^[ \t]*(?:(?P<phase>\{'data_name':)|\[task[ \t]+(?P<new>\d+)\]"
                   rb"[ \t]*sub_goal sequence is|\[(?P<old>\d+)\]skill is)")


@dataclass
class _Counted:
    """One file's phases and the tasks evaluated in its last phase, up to ``offset``."""

    inode: int
    offset: int = 0
    phases: int = 0
    evaluated: set[bytes] = field(default_factory=set)


class IscilProgress:
    """The phase counts of a followed continual-imitation log's files."""

    def __init__(self, mirror: "Mirror") -> None:
        self.mirror = mirror
        self.generation = mirror.generation
        self.files: dict[Path, _Counted] = {}

    def progress(self, model: "Syllabus", name_filter: str = "") -> Progress:
        """The slowest experiment's place in ``model``'s schedule."""
        sched = schedule(model)
        if self.mirror.generation != self.generation:  # a file copied anew: count anew
            self.files = {}
            self.generation = self.mirror.generation
        try:
            logs = find_logs(self.mirror.path, name_filter)
        except MetricsError:
            return Progress(0, sched.episodes, None, None)
        places = [place(sched, *self._count(file)) for _, file in logs]
        return min(places, key=lambda p: p.episodes_read)

    def _count(self, file: "Path") -> tuple[int, int]:
        stat = os.stat(file)
        known = self.files.get(file)
        if known is None or known.inode != stat.st_ino or stat.st_size < known.offset:
            known = self.files[file] = _Counted(stat.st_ino)
        with open(file, "rb") as handle:
            handle.seek(known.offset)
            data = handle.read(stat.st_size - known.offset)
        data = data[: data.rfind(b"\n") + 1]  # whole lines (the mirror holds no others)
        for m in _LINE.finditer(data):
            if m.group("phase"):
                known.phases += 1
                known.evaluated = set()
            elif known.phases:  # evaluations before the first phase belong to no phase
                known.evaluated.add(m.group("new") or m.group("old"))
        known.offset += len(data)
        return known.phases, len(known.evaluated)


def place(sched: "Schedule", phases: int, evaluated: int) -> Progress:
    """Where a log with ``phases`` train phases opened, the last with ``evaluated`` tasks
    evaluated, stands in ``sched``."""
    done: list[ScheduledBlock] = []
    trained = 0
    for run in sched.phases:
        if run.phase.kind == "train":
            trained += 1
            if phases < trained or (phases == trained and not evaluated):
                break
            done.extend(run.blocks)
        else:
            ready = len(run.blocks) if phases > trained else evaluated if phases == trained else 0
            done.extend(run.blocks[:ready])
            if ready < len(run.blocks):
                break
    last = done[-1] if done else None
    return Progress(last.end if last else 0, sched.episodes,
                    last.phase_label if last else None, last.ordinal if last else None)
