"""P304 first-block-not-train."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import blocks_by_phase, is_pretest

if TYPE_CHECKING:
    from typing import Iterator


class FirstBlockNotTrain(Rule):
    __doc__ = rule_doc(
        "The first block of the syllabus is not in a train phase.",
        "The first block after the first `$phase` must belong to a `train` phase. Under the "
        "`pretest` profile a leading `0.test` phase is skipped and the first block after it "
        "must be a train block. Blocks before any `$phase` are P305.",
        '{"$phase": "1.test"}, {"$repeat": {"$episode": "Pong"}, "count": 100}, {"$phase": "1.train"}, ...',
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}, {"$phase": "1.test"}, ...',
        "Move the training phase first, or use profile `pretest` for a `0.test` pre-training evaluation.",
        why="**Why it matters.** The reference requires it: learning curves, saturation and time "
        "to saturation start from the first training block, and a test before any training "
        "measures an untrained agent outside the forward-transfer design.",
    )
    code, name, severity = "P304", "first-block-not-train", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        for phase, blocks in blocks_by_phase(ctx.model):
            if phase is None or not blocks:
                continue
            if is_pretest(phase, ctx.profile):
                continue
            if phase.kind == "test":
                hint = " (a leading 0.test needs profile pretest)" if phase.number == 0 else ""
                yield ctx.finding(
                    self, f'the first block is in test phase "{phase.label}"; the first block must be a train block{hint}', blocks[0].span
                )
            return
