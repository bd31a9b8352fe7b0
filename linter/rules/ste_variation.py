"""T412 ste-parameter-variation."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import variations

if TYPE_CHECKING:
    from typing import Iterator


class SteParameterVariation(Rule):
    __doc__ = rule_doc(
        "A single-task-expert (STE) syllabus varies a parameter of its task.",
        "Judged as for ANT-A/B: a parameter with the same value in every block is not variation. "
        "One finding per parameter, at the first block where its value changes.",
        '{"syllabus_type": "STE", "instructions": [..., {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, ...}, {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.3}, ...}]}',
        '{"syllabus_type": "STE", "instructions": [..., {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, "count": 5000}]}',
        "Keep the task's parameters fixed, or declare the syllabus CL.",
        why="**Why it matters.** The expert curve is the reference for one task in one "
        "configuration; a changed environment in the middle of it shows up as a drop the "
        "lifelong learner is then measured against.",
    )
    code, name, severity = "T412", "ste-parameter-variation", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type != "STE":
            return
        for task, param, values, span in variations(ctx):
            yield ctx.finding(
                self,
                f'STE syllabus varies "{param}" of "{task}" ({len(values)} values: {", ".join(values[:4])}); an expert run keeps its task fixed',
                span,
            )
