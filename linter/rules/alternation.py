"""P306 phase-alternation."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import valid_phases

if TYPE_CHECKING:
    from typing import Iterator


class PhaseAlternation(Rule):
    __doc__ = rule_doc(
        "Two train phases follow each other without a test phase between them.",
        "In a syllabus that has test phases, train and test phases are expected to alternate. "
        "Files with no test phase at all are left to the per-type rules (T404, T405).",
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, ..., {"$phase": "2.train"}, ..., {"$phase": "3.train"}, ...',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, ..., {"$phase": "2.train"}, ..., {"$phase": "2.test"}, ...',
        "Add the missing test phase.",
        why="**Why it matters.** Performance maintenance and transfer are measured in the test "
        "phase after each training phase; a missing one leaves a hole in those curves.",
    )
    code, name, severity = "P306", "phase-alternation", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        phases = valid_phases(ctx.model)
        if not any(p.kind == "test" for p in phases):
            return
        for prev, cur in zip(phases, phases[1:]):
            if prev.kind == "train" and cur.kind == "train":
                yield ctx.finding(
                    self, f'no test phase between "{prev.label}" and "{cur.label}": expected "{prev.number}.test"', cur.label_span
                )
