"""T404 cl-no-test-phase."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from .. import complete
from ..context import Context
from ..finding import Finding, Fix
from ..rule import Rule, rule_doc
from ._types import applies, has_test_phase, type_span

if TYPE_CHECKING:
    from typing import Iterator


class ClNoTestPhase(Rule):
    __doc__ = rule_doc(
        "A CL syllabus has no test phase (optional, but recommended).",
        "A CL syllabus with phase annotations but no `n.test` phase.",
        '{"$phase": "1.train"}, ..., {"$phase": "2.train"}, ...',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, {"$info": {"disable_updates": true}}, ..., {"$info": {}}, {"$phase": "2.train"}, ...',
        "Add a test phase after each training phase. Unsafe fix (`--fix --unsafe-fixes`, or the editor): opens `n.test` after every `n.train`, with learning off in the file's style, testing every variation the syllabus trains.",
        why="**Why it matters.** Test phases enable the performance maintenance metrics; "
        "without them only the training curves can be evaluated.",
    )
    code, name, severity = "T404", "cl-no-test-phase", Severity.INFO
    fixable = True

    def check(self, ctx: Context) -> Iterator[Finding]:
        if applies(ctx, "CL") and not has_test_phase(ctx):
            yield ctx.finding(self, "CL syllabus without test phases: performance maintenance metrics need them", type_span(ctx), _fix(ctx, False))


def _fix(ctx: Context, others_only: bool) -> Fix | None:
    edits = complete.test_every_phase(ctx.model, others_only)
    return Fix("Open a test phase after every train phase", edits, safe=False) if edits else None
