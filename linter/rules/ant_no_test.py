"""T405 ant-no-test-phase."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from .. import complete
from ..context import Context
from ..finding import Finding, Fix
from ..rule import Rule, rule_doc
from ._types import ANT, applies, has_test_phase, type_span

if TYPE_CHECKING:
    from typing import Iterator


class AntNoTestPhase(Rule):
    __doc__ = rule_doc(
        "An ANT syllabus has no test phase; they are mandatory.",
        "Syllabi of type ANT-A, ANT-B or ANT-C (declared or inferred) with phase annotations but no `n.test` phase.",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "2.train"}, {"$repeat": {"$episode": "Breakout"}, ...}',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, {"$info": {"disable_updates": true}}, {"$repeat": {"$episode": "Breakout"}, "count": 100}, {"$info": {}}, ...',
        "Add a test phase after each training phase. Unsafe fix (`--fix --unsafe-fixes`, or the editor): opens `n.test` after every `n.train`, with learning off in the file's style, testing every trained task in each parameter setting it is trained with (ANT-C: the tasks the phase did not train), which also covers every ANT-B transfer cell.",
        why="**Why it matters.** ANT metrics (catastrophic forgetting, transfer) compare test "
        "performance before and after learning each new task; without test phases they cannot be computed.",
    )
    code, name, severity = "T405", "ant-no-test-phase", Severity.ERROR
    fixable = True

    def check(self, ctx: Context) -> Iterator[Finding]:
        if applies(ctx, *ANT) and not has_test_phase(ctx):
            yield ctx.finding(self, f"{ctx.syllabus_type.type} syllabus without test phases: ANT syllabi must test", type_span(ctx), _fix(ctx, ctx.syllabus_type.type == "ANT-C"))


def _fix(ctx: Context, others_only: bool) -> Fix | None:
    edits = complete.test_every_phase(ctx.model, others_only)
    return Fix("Open a test phase after every train phase", edits, safe=False) if edits else None
