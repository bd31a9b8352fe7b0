"""P308 no-phase-annotations."""

from __future__ import annotations

from sylla.grammar.core import Severity, Span
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import replace

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class NoPhaseAnnotations(Rule):
    __doc__ = rule_doc(
        "The syllabus has no `$phase` annotation at all.",
        "Reported once per file (not once per block). Most data-generation syllabi have none; "
        "that is fine for generating data and wrong for measuring, so a syllabus with "
        '`"contains": "datasets"` gets it as information rather than a warning.',
        '{"instructions": [{"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        'Add `{"$phase": "1.train"}` and `{"$phase": "1.test"}` annotations, or ignore P308 for data-generation syllabi.',
        why="**Why it matters.** The metrics framework cannot compute the proposed metrics "
        "without phase annotations: it has no train/test split to compare.",
    )
    code, name, severity = "P308", "no-phase-annotations", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        model = ctx.model
        if model.phases or not model.blocks:
            return  # without blocks (no or a misspelt "instructions") S202/N604 say what is wrong
        span = None
        if model.source_map is not None and model.form != "array":
            span = model.source_map.key_span(("instructions",))
        if span is None:
            span = model.instructions[0].span if model.instructions else Span(0, 0)
        if model.contains == "datasets":
            # a data-generation syllabus: phases have no meaning there, so it is information
            yield replace(
                ctx.finding(self, 'no $phase annotations: fine for a data-generation syllabus ("contains": "datasets"); metrics need them', span),
                severity=Severity.INFO,
            )
            return
        yield ctx.finding(self, "no $phase annotations: metrics cannot be computed without phase annotations", span)
