"""T402 cl-multiple-tasks."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class ClMultipleTasks(Rule):
    __doc__ = rule_doc(
        "A syllabus declared CL exercises more than one task.",
        "A Continual Learning syllabus consists of a single task with parametric variations. "
        "Reported at the first block of the second task.",
        '{"syllabus_type": "CL", "instructions": [..., {"$repeat": {"$episode": "Pong"}, ...}, {"$repeat": {"$episode": "Breakout"}, ...}]}',
        '{"syllabus_type": "CL", "instructions": [..., {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.2}, ...}]}',
        "Use one task, or declare the syllabus ANT.",
        why="**Why it matters.** The reference disallows it: CL metrics compare performance on one "
        "task across parameter changes, and a second task makes those comparisons meaningless.",
    )
    code, name, severity = "T402", "cl-multiple-tasks", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type != "CL":
            return
        tasks = ctx.model.tasks
        if len(tasks) < 2:
            return
        first = next(b for b in ctx.model.blocks if b.task == tasks[1])
        home = next(b for b in ctx.model.blocks if b.task == tasks[0])
        yield ctx.finding(
            self,
            f"declared CL but exercises {len(tasks)} tasks ({', '.join(tasks[:5])}); CL has exactly one task",
            first.task_span,
            related=(RelatedSpan(f'first task "{tasks[0]}"', home.task_span),),
        )
