"""What a metric needs from the schedule (and from STE runs), so feasibility can be decided
before any run.

A plugin declares ``needs``: a mapping from each metric name it emits to a ``Need``. The need
names one structural condition (``schedule``) that ``sylla.metrics.feasibility`` knows how to
decide from a parsed syllabus alone, whether the metric also needs single-task-expert runs of
the task (``ste``), and, for metrics that only some parameter settings emit, that setting
(``when``). A plugin without ``needs`` (or a metric missing from it) is reported as "not
declared": feasibility cannot say no for it. The module imports nothing heavy, so the linter
and the language server can read declarations without numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

#: the structural conditions the feasibility function can decide, with what each means
SCHEDULE_NEEDS: Mapping[str, str] = {
    "blocks": "any scheduled block",
    "train": "a train block",
    "test": "a test block (learning off)",
    "test_after_train": "a test of a task after its first training",
    "test_before_train": "a test of a task before its first training",
    "retrain": "a task with at least `count` train blocks",
    "reevaluation": "a task tested again after its first post-training evaluation",
    "forward_pairs": "a task A trained before B's first training, between two tests of B",
    "backward_pairs": "a task A trained after B's first training, between two tests of B",
    "later_task_trained": "a trained task that is not the first one trained",
    "gem_final_row": "the last test phase tests every trained task",
    "gem_diagonal": "two trained tasks, each tested right after its own (last) training, and the final row",
    "gem_forward": "two trained tasks, a test phase before any training testing each, and R[i-1][i]",
    "gem_matrix": "a test phase after some training",
    "gem_baseline": "a test phase before any training",
    "scores": "an iSCIL score log (not produced by a syllabus run)",
}


@dataclass(frozen=True)
class Need:
    """One metric's prerequisites (see the module docstring)."""

    schedule: str = "blocks"
    ste: bool = False
    count: int = 1
    #: (parameter, values): the metric is only emitted when the parameter has one of the values
    when: tuple[str, tuple[str, ...]] | None = None
    #: when the structure allows a value that the data can still leave empty, why (shown with
    #: the "yes"); e.g. time to learn needs the learner to reach the expert's saturation
    unless: str = ""

    def __post_init__(self) -> None:
        if self.schedule not in SCHEDULE_NEEDS:
            raise ValueError(f"unknown schedule need {self.schedule!r} (known: {', '.join(SCHEDULE_NEEDS)})")


def needs_of(plugin: object) -> Mapping[str, Need]:
    """The plugin's declaration, empty when it has none (third-party plugins written before
    the attribute existed keep working)."""
    declared = getattr(plugin, "needs", None)
    return declared if isinstance(declared, Mapping) else {}
