"""B812 trial-disabled."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


class TrialDisabled(BirdsRule):
    code, name, severity = "B812", "trial-disabled", Severity.WARNING
    __doc__ = birds_doc(
        "A trial template's `count` or `repeats` is 0 or less, so the trial silently disappears.",
        "`<count>` ≤ 0 (no trial is generated) and `<repeats>` ≤ 0 (the trial is generated but never executed).",
        "Nothing fails: the evaluation just runs fewer trials than the file seems to describe, and the "
        "results are missing a condition nobody notices.",
        "<count>0</count>\n<repeats>1</repeats>",
        "<count>1</count>\n<repeats>1</repeats>",
        "Set the value to 1 or more, or delete the trial template.",
        "item 2 (trial configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for t in ctx.meta.trials:
            n = t.index + 1
            if t.count is not None and t.count.int is not None and t.count.int <= 0:
                yield ctx.finding(self, f"trial template {n}: count={t.count.int} generates no trial", t.count.span)
            if t.repeats is not None and t.repeats.int is not None and t.repeats.int <= 0:
                yield ctx.finding(self, f"trial template {n}: repeats={t.repeats.int} means its trials are never executed", t.repeats.span)
