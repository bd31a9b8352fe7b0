"""T408 ant-c-no-variation."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import type_span

if TYPE_CHECKING:
    from typing import Iterator


class AntCNoVariation(Rule):
    __doc__ = rule_doc(
        "A syllabus declared ANT-C never varies a parameter within a task.",
        "ANT-C exercises parametric variations within and across tasks; a declared ANT-C whose tasks all keep their parameters is ANT-A/B in structure.",
        '{"syllabus_type": "ANT-C", "instructions": [... "Pong" and "Breakout" blocks without parameters ...]}',
        '{"syllabus_type": "ANT-C", "instructions": [... "bot/paddle/width" 0.15, 0.20, 0.25 for each task ...]}',
        "Add the parametric variations, or declare ANT-A or ANT-B.",
        why="**Why it matters.** ANT-C's metrics (transfer of continual learning, improvement of time-to-learn) need the variations.",
    )
    code, name, severity = "T408", "ant-c-no-variation", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type == "ANT-C" and len(ctx.model.tasks) > 1 and not ctx.syllabus_type.inference.variation:
            yield ctx.finding(self, "declared ANT-C but no parameter varies within any task", type_span(ctx))
