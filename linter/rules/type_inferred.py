"""T401 syllabus-type-inferred."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._types import type_span

if TYPE_CHECKING:
    from typing import Iterator


class SyllabusTypeInferred(Rule):
    __doc__ = rule_doc(
        "The syllabus type was inferred from the structure (reported once, with the reason).",
        "When neither `--type`, a top-level `\"syllabus_type\"` nor `per-file-types` gives the "
        "type, sylla infers it: one task with parametric variation is CL; one task without "
        "variation is a single-task-expert (STE) syllabus; several tasks without variation "
        "within a task are ANT-A/B (linted as ANT-A); several with variation are ANT-C.",
        '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        '{"syllabus_type": "CL", "instructions": [{"$phase": "1.train"}, ...]}',
        'Declare the type with a top-level `"syllabus_type"` (engines ignore the key).',
        why="**Why it matters.** Which metrics are valid depends on the type (transfer matrices "
        "need ANT-B); an inferred type can differ from the one the author had in mind.",
    )
    code, name, severity = "T401", "syllabus-type-inferred", Severity.INFO

    def check(self, ctx: Context) -> Iterator[Finding]:
        st = ctx.syllabus_type
        if st.declared or st.type == "unannotated":
            return
        shown = "ANT-A/B" if st.inference.type == "ANT-A/B" else st.type
        yield ctx.finding(self, f"syllabus type inferred as {shown}: {st.reason}", type_span(ctx))
