"""T405 ant-no-test-phase."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.model import Severity

from ..context import Context
from ..finding import Finding
from ..rule import Rule
from ._types import ANT, applies, has_test_phase, type_span
from ..rule import rule_doc


class AntNoTestPhase(Rule):
    __doc__ = rule_doc(
        "An ANT syllabus has no test phase; they are mandatory.",
        "Syllabi of type ANT-A, ANT-B or ANT-C (declared or inferred) with phase annotations but no `n.test` phase.",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "2.train"}, {"$repeat": {"$episode": "Breakout"}, ...}',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, {"$info": {"disable_updates": true}}, {"$repeat": {"$episode": "Breakout"}, "count": 100}, {"$info": {}}, ...',
        "Add a test phase after each training phase.",
        why="**Why it matters.** ANT metrics (catastrophic forgetting, transfer) compare test "
        "performance before and after learning each new task; without test phases they cannot be computed.",
    )
    code, name, severity = "T405", "ant-no-test-phase", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if applies(ctx, *ANT) and not has_test_phase(ctx):
            yield ctx.finding(self, f"{ctx.syllabus_type.type} syllabus without test phases: ANT syllabi must test", type_span(ctx))
