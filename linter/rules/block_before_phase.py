"""P305 block-before-phase."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import blocks_by_phase

if TYPE_CHECKING:
    from typing import Iterator


class BlockBeforePhase(Rule):
    __doc__ = rule_doc(
        "Blocks come before the first `$phase`.",
        "In a syllabus that has phase annotations, every block must follow one. Reported once, "
        "on the first such block, with their number.",
        '{"$repeat": {"$episode": "Pong"}, "count": 100}, {"$phase": "1.train"}, ...',
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 100}, ...',
        'Add a `{"$phase": "1.train"}` before them (and renumber) or move them into a phase.',
        why="**Why it matters.** Episodes outside any phase are dropped or mis-attributed when "
        "the metrics split the log by phase.",
    )
    code, name, severity = "P305", "block-before-phase", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        if not ctx.model.phases:
            return  # P308 reports the syllabus once
        _, blocks = blocks_by_phase(ctx.model)[0]
        if blocks:
            n = len(blocks)
            what = "1 block comes" if n == 1 else f"{n} blocks come"
            yield ctx.finding(self, f"{what} before the first $phase; metrics attribute them to no phase", blocks[0].span)
