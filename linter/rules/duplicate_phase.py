"""P303 duplicate-phase-label."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import PhaseMark
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc
from ._phases import valid_phases

if TYPE_CHECKING:
    from typing import Iterator


class DuplicatePhaseLabel(Rule):
    __doc__ = rule_doc(
        "The same phase label appears twice.",
        "Every valid `$phase` label must be unique in the syllabus.",
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, ..., {"$phase": "1.test"}',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, ..., {"$phase": "2.train"}, ..., {"$phase": "2.test"}',
        "Renumber the later phase (or merge the two).",
        why="**Why it matters.** The metrics group log rows by phase label: two phases with one "
        "label become one phase whose episodes are not contiguous, and saturation or recovery "
        "computed over it is meaningless.",
    )
    code, name, severity = "P303", "duplicate-phase-label", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        first: dict[str, PhaseMark] = {}
        for phase in valid_phases(ctx.model):
            if phase.label in first:
                line = ctx.lines.line_col(first[phase.label].span.start)[0]
                yield ctx.finding(
                    self,
                    f'phase "{phase.label}" already appears on line {line}',
                    phase.label_span,
                    related=(RelatedSpan("first used here", first[phase.label].label_span),),
                )
            else:
                first[phase.label] = phase
