"""B813 checkpoints-off."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


class CheckpointsOff(BirdsRule):
    code, name, severity = "B813", "checkpoints-off", Severity.WARNING
    __doc__ = birds_doc(
        "Both checkpoint limits are off, so checkpoint tests never run.",
        "A `<checkpoint>` whose `time` and `interaction` limits are both ≤ 0 or missing, in a trial "
        "template that has test sets.",
        "A checkpoint fires when one of its limits is met; with both off, the test sets are never run "
        "during training (only the final test runs), and the number of test sets computes to 0.",
        '<checkpoint>\n  <limit type="time">0</limit>\n  <limit type="interaction">0</limit>\n</checkpoint>',
        '<checkpoint>\n  <limit type="time">200</limit>\n  <limit type="interaction">200</limit>\n</checkpoint>',
        "Give at least one limit a positive value.",
        "item 3 (test checkpoint configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for t in ctx.meta.trials:
            values = [t.checkpoint.int("time"), t.checkpoint.int("interaction")]
            if any(v is not None and v > 0 for v in values):
                continue
            if t.test is None or not t.test.sets:
                continue
            node = t.checkpoint.element
            span = node.name_span if node is not None else t.element.name_span
            yield ctx.finding(
                self, f"trial template {t.index + 1}: both checkpoint limits are off, so its {len(t.test.sets)} test set(s) never run at a checkpoint", span
            )
