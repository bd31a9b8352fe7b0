"""T407 ant-ab-parameter-variation."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import variations

if TYPE_CHECKING:
    from typing import Iterator


class AntAbParameterVariation(Rule):
    __doc__ = rule_doc(
        "An ANT-A or ANT-B syllabus varies a parameter within a task.",
        "Judged per task: a parameter with the same value in every block of a task is not "
        'variation (published files repeat `"agent_pos": [1, 1]` on every block). One finding '
        "per task and parameter, at the first block where the value changes.",
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, ...}, ..., {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.25}, ...}',
        '{"$repeat": {"$episode": "Pong"}, ...}, ..., {"$repeat": {"$episode": "Pong"}, ...}',
        "Keep each task's parameters fixed, or declare the syllabus ANT-C.",
        why="**Why it matters.** The reference disallows parametric variation in subtypes A and "
        "B: a change in a task's performance must be due to the other tasks, not to a changed environment.",
    )
    code, name, severity = "T407", "ant-ab-parameter-variation", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type not in ("ANT-A", "ANT-B"):
            return
        for task, param, values, span in variations(ctx):
            yield ctx.finding(
                self,
                f'{ctx.syllabus_type.type} allows no parameter variation: "{param}" of "{task}" takes {len(values)} values ({", ".join(values[:4])})',
                span,
            )
