"""How a continual-imitation log joins the pipeline: its check against a syllabus, and which
plugins apply.

Its runs have no per-episode training data, only one score per (phase, task) evaluation, so the
syllabus is compared phase by phase (train tasks), not episode by episode, and only plugins that
read test scores (``tests``/``scores`` inputs: GEM and iscil) run unless ``--metric`` names others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import EpisodeLog
from .errors import MetricsError
from .readers.iscil import IscilLog

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus

    from .registry import Metric

SCORE_INPUTS = {"tests", "scores"}


def prepare(log: EpisodeLog, model: "Syllabus | None", plugins: list["Metric"],
            only_given: bool) -> tuple[None, list["Metric"]]:
    """Check the log against ``model`` (raises at the first divergence) and return no model for
    alignment (the check is done) and the plugins to run."""
    if model is not None:
        if not isinstance(log, IscilLog):  # an `EpisodeLog` built by hand with format "iscil"
            raise MetricsError(f"{log.path}: the continual-imitation log has no experiments to "
                               "check against the syllabus; pass the log's path instead")
        check_syllabus(log, model)
    if not only_given:
        plugins = [p for p in plugins if SCORE_INPUTS & set(p.inputs)]
    return None, plugins


def _norm(task: str) -> str:
    return task.strip().lower().replace(" ", "-")


def train_phases(model: "Syllabus") -> list[tuple[str, list[str]]]:
    """(label, train tasks in order) for each train phase of the syllabus."""
    from sylla.grammar.syllabus.schedule import schedule  # noqa: PLC0415 - lazy: the syllabus model loads only when a syllabus is given (a log alone is most runs)

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
