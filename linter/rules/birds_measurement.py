"""B811 measurement-contradiction."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding, RelatedSpan
from ._birds import BirdsRule, birds_doc


class MeasurementContradiction(BirdsRule):
    code, name, severity = "B811", "measurement-contradiction", Severity.WARNING
    __doc__ = birds_doc(
        "Novelty likelihood is to be measured, but `step` is 0 or less, so it is never requested.",
        "`<novelty_detection_measurement>` with `step` ≤ 0 and `measure_in_training` or `measure_in_testing` `true`.",
        "`step ≤ 0` means no data will be requested: the measurement the author switched on never "
        "happens and the evaluation has no novelty-likelihood data.",
        '<novelty_detection_measurement step="0" measure_in_training="true" measure_in_testing="false" />',
        '<novelty_detection_measurement step="1" measure_in_training="true" measure_in_testing="false" />',
        "Set `step` to the number of interactions between requests, or set both measures to `false`.",
        "item 1 (novelty likelihood recording)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        m = ctx.meta.measurement if ctx.meta is not None else None
        if m is None or m.step is None or m.step.int is None or m.step.int > 0:
            return
        on = [f for f in (m.measure_in_training, m.measure_in_testing) if f is not None and f.text == "true"]
        if on:
            names = " and ".join(f.name for f in on) + (" are" if len(on) > 1 else " is")
            yield ctx.finding(
                self,
                f"step={m.step.int} means novelty likelihood is never requested, yet {names} true",
                m.step.span,
                related=tuple(RelatedSpan(f"{f.name} is true here", f.span) for f in on),
            )
