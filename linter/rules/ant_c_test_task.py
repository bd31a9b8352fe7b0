"""T409 ant-c-test-same-task."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc
from ._phases import blocks_by_phase

if TYPE_CHECKING:
    from typing import Iterator


class AntCTestSameTask(Rule):
    __doc__ = rule_doc(
        "In an ANT-C syllabus a test phase tests only the task its train phase just trained.",
        "Each `n.test` phase of an ANT-C syllabus should test a different task from the one `n.train` trained (then the order is switched). "
        "A test phase that also tests another task is fine: the l2metrics documentation's own example tests every task in each test phase, the trained one included.",
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
            if not blocks or any(b.task not in trained for b in blocks):
                continue  # the phase tests another task too (as l2metrics' example tests every task)
            reported: set[str] = set()
            for b in blocks:
                if b.task not in reported:
                    reported.add(b.task)
                    yield ctx.finding(
                        self,
                        f'test phase "{phase.label}" tests only "{b.task}", the task its train phase trained; ANT-C tests a different task',
                        b.task_span,
                        related=(RelatedSpan("trained here", trained[b.task].task_span),),  # type: ignore[attr-defined]  # ``trained`` holds the train phase's blocks, typed object
                    )
