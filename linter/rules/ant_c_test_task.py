"""T409 ant-c-test-same-task."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.model import Severity

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule
from ._phases import blocks_by_phase
from ..rule import rule_doc


class AntCTestSameTask(Rule):
    __doc__ = rule_doc(
        "In an ANT-C syllabus a test phase tests the task its train phase just trained.",
        "Each `n.test` phase of an ANT-C syllabus should test a different task from the one `n.train` trained (then the order is switched).",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong", ...}}, {"$phase": "1.test"}, ..., {"$repeat": {"$episode": "Pong", ...}}',
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong", ...}}, {"$phase": "1.test"}, ..., {"$repeat": {"$episode": "Breakout", ...}}',
        "Test the other task in this phase.",
        why="**Why it matters.** ANT-C assesses parametric skill transfer: the test task of a "
        "phase must differ from its train task for transfer to be measured.",
    )
    code, name, severity = "T409", "ant-c-test-same-task", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type != "ANT-C":
            return
        trained: dict[str, object] = {}
        for phase, blocks in blocks_by_phase(ctx.model):
            if phase is None or phase.kind is None:
                continue
            if phase.kind == "train":
                trained = {b.task: b for b in blocks}
                continue
            reported: set[str] = set()
            for b in blocks:
                if b.task in trained and b.task not in reported:
                    reported.add(b.task)
                    yield ctx.finding(
                        self,
                        f'test phase "{phase.label}" tests "{b.task}", the task its train phase trained; ANT-C tests a different task',
                        b.task_span,
                        related=(RelatedSpan("trained here", trained[b.task].task_span),),  # type: ignore[attr-defined]
                    )
