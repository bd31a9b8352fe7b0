"""T403 cl-no-variation."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import applies, type_span

if TYPE_CHECKING:
    from typing import Iterator


class ClNoVariation(Rule):
    __doc__ = rule_doc(
        "A CL syllabus never varies a parameter.",
        "In a CL syllabus some parameter of the task should take different values across blocks.",
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, ...}, {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, ...}',
        '{"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.15}, ...}, {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.20}, ...}',
        "Vary a parameter between blocks.",
        why="**Why it matters.** CL assesses adjustment to changes in the environment; without "
        "variation there is no change to adjust to, and recovery and maintenance measure nothing.",
    )
    code, name, severity = "T403", "cl-no-variation", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        if not applies(ctx, "CL") or len(ctx.model.tasks) != 1 or ctx.syllabus_type.inference.variation:
            return
        yield ctx.finding(self, f'CL syllabus: no parameter of "{ctx.model.tasks[0]}" varies across blocks', type_span(ctx))
