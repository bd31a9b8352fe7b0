"""P307 empty-phase."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import blocks_by_phase

if TYPE_CHECKING:
    from typing import Iterator


class EmptyPhase(Rule):
    __doc__ = rule_doc(
        "A phase has no blocks.",
        "A `$phase` followed directly by the next `$phase` or the end of the instructions ($info does not count as a block).",
        '{"$phase": "1.test"}, {"$phase": "2.train"}, ...',
        '{"$phase": "1.test"}, {"$repeat": {"$episode": "Pong"}, "count": 100}, {"$phase": "2.train"}, ...',
        "Add the phase's blocks or remove it (and renumber).",
        why="**Why it matters.** A phase without episodes leaves no rows in the log, so the "
        "metrics that expect it (a test after each training) find nothing to compute on.",
    )
    code, name, severity = "P307", "empty-phase", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        for phase, blocks in blocks_by_phase(ctx.model)[1:]:
            if phase is not None and not blocks:
                yield ctx.finding(self, f'phase "{phase.label}" has no blocks', phase.span)
