"""B814 training-never-ends."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


class TrainingNeverEnds(BirdsRule):
    code, name, severity = "B814", "training-never-ends", Severity.ERROR
    __doc__ = birds_doc(
        "Every training limit is off, so training never ends and the final test never runs.",
        "`<training><limits>` where `time`, `interaction` and `attempt_per_level` are all ≤ 0 or missing.",
        "Training terminates once any limit is met, and only then does the final test run; with no "
        "limit the trial runs until someone stops the game, and the evaluation never finishes.",
        '<limits>\n  <limit type="time">0</limit>\n  <limit type="interaction">0</limit>\n  <limit type="allow_level_selection">true</limit>\n</limits>',
        '<limits>\n  <limit type="time">180</limit>\n  <limit type="interaction">60000</limit>\n  <limit type="allow_level_selection">true</limit>\n</limits>',
        "Give the time, interaction or attempt-per-level limit a positive value.",
        "item 4 (training set configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for t in ctx.meta.trials:
            if t.training is None:
                continue
            limits = t.training.limits
            values = [limits.int(k) for k in ("time", "interaction", "attempt_per_level")]
            if any(v is not None and v > 0 for v in values):
                continue
            if any(limits.get(k) is not None and limits.int(k) is None for k in ("time", "interaction", "attempt_per_level")):
                continue  # a value that is not a number: the schema reports it
            node = limits.element or t.training.element
            yield ctx.finding(self, f"trial template {t.index + 1}: every training limit is off, so training never ends and the final test never runs", node.name_span)
