"""T411 ste-multiple-tasks."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class SteMultipleTasks(Rule):
    __doc__ = rule_doc(
        "A single-task-expert (STE) syllabus exercises more than one task.",
        "A syllabus declared (or configured, or passed with `--type`) STE whose blocks name more "
        "than one task. Reported at the first block of the second task.",
        '{"syllabus_type": "STE", "instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$repeat": {"$episode": "Breakout"}, ...}]}',
        '{"syllabus_type": "STE", "instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        "Write one STE syllabus per task.",
        why="**Why it matters.** An STE run is the expert curve of one task that the "
        "STE-relative metrics compare a lifelong learner against; the metrics store it per task, "
        "so a second task in the run mixes two experts into one curve.",
    )
    code, name, severity = "T411", "ste-multiple-tasks", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        tasks = ctx.model.tasks
        if ctx.syllabus_type.type != "STE" or len(tasks) < 2:
            return
        first = next(b for b in ctx.model.blocks if b.task == tasks[1])
        home = next(b for b in ctx.model.blocks if b.task == tasks[0])
        yield ctx.finding(
            self,
            f"STE syllabus exercises {len(tasks)} tasks ({', '.join(tasks[:5])}); a single-task expert trains one task",
            first.task_span,
            related=(RelatedSpan(f'first task "{tasks[0]}"', home.task_span),),
        )
