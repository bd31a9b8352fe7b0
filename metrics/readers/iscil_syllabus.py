"""A continual-imitation log against its syllabus: phase by phase, not episode by episode.

Its runs have no per-episode training data, only one score per (phase, task) evaluation, so the
syllabus is compared with the log's phase lines (their train tasks), and alignment then needs no
syllabus (`sylla.metrics.readers.Iscil.checks_syllabus`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sylla.grammar.syllabus.schedule import schedule

from ..data import EpisodeLog
from ..errors import MetricsError
from .iscil import IscilLog

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus


def check(log: EpisodeLog, model: "Syllabus") -> None:
    """Check the log against ``model``; raises at the first divergence."""
    if not isinstance(log, IscilLog):  # an `EpisodeLog` built by hand with format "iscil"
        raise MetricsError(f"{log.path}: the continual-imitation log has no experiments to "
                           "check against the syllabus; pass the log's path instead")
    check_syllabus(log, model)


def _norm(task: str) -> str:
    return task.strip().lower().replace(" ", "-")


def train_phases(model: "Syllabus") -> list[tuple[str, list[str]]]:
    """(label, train tasks in order) for each train phase of the syllabus."""
    out = []
    for run in schedule(model).phases:
        if run.phase.kind != "train":
            continue
        tasks = [b.task for b in run.blocks if b.learning is not False]
        out.append((run.phase.label, list(dict.fromkeys(tasks))))
    return out


def check_syllabus(log: IscilLog, model: "Syllabus") -> None:
    """Every phase line of every experiment, in order, against the syllabus's train phases
    (task names compared case-insensitively, spaces as ``-``, order within a phase ignored)."""
    wanted = train_phases(model)
    for exp in log.experiments:
        who = f"experiment {exp.name!r}"
        for i, phase in enumerate(exp.all_phases):
            if i >= len(wanted):
                raise MetricsError(
                    f"{who}: phase {phase.number} (trains {', '.join(phase.train)}) is beyond "
                    f"the syllabus's {len(wanted)} train phase(s)", exp.file, phase.line)
            label, tasks = wanted[i]
            if {_norm(t) for t in phase.train} != {_norm(t) for t in tasks}:
                raise MetricsError(
                    f"{who}: phase {phase.number} trains {', '.join(phase.train)}; the "
                    f"syllabus's train phase {label!r} trains {', '.join(tasks) or 'nothing'}",
                    exp.file, phase.line)
        if len(exp.all_phases) < len(wanted):
            label, tasks = wanted[len(exp.all_phases)]
            last = exp.all_phases[-1]
            raise MetricsError(
                f"{who}: the log ends after {len(exp.all_phases)} phase(s); the syllabus's train "
                f"phase {label!r} ({', '.join(tasks)}) is missing", exp.file, last.line)
