"""T406 ant-single-task."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import ANT, type_span

if TYPE_CHECKING:
    from typing import Iterator


class AntSingleTask(Rule):
    __doc__ = rule_doc(
        "A syllabus declared ANT exercises only one task.",
        "Adapting to New Tasks syllabi consist of multiple, distinct tasks.",
        '{"syllabus_type": "ANT-A", "instructions": [... only "Pong" blocks ...]}',
        '{"syllabus_type": "CL", "instructions": [... only "Pong" blocks ...]}',
        "Add the other tasks, or declare the syllabus CL.",
        why="**Why it matters.** With one task there is no new task to adapt to: forgetting and "
        "transfer across tasks are undefined.",
    )
    code, name, severity = "T406", "ant-single-task", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type in ANT and ctx.syllabus_type.declared and len(ctx.model.tasks) == 1:
            yield ctx.finding(
                self, f'declared {ctx.syllabus_type.type} but exercises one task ("{ctx.model.tasks[0]}"); ANT needs several', type_span(ctx)
            )
