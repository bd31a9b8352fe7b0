"""W910: A deliverable is missing: predictions.csv, bests.csv or samples.csv."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..delivery_context import DeliveryContext
from ..finding import Finding
from ._delivery import DeliveryRule
from ._trials import trials_doc


class DeliveryMissingFile(DeliveryRule):
    code, name, severity = "W910", "delivery-missing-file", Severity.ERROR
    __doc__ = trials_doc(
        "A deliverable is missing: predictions.csv, bests.csv or samples.csv.",
        "The folder holds the four files the request asks for (description.md is W923).",
        "Each file answers one question of the study: final performance, sensitivity to search, movement through search space.",
        "delivery/bests.csv\ndelivery/description.md", "delivery/predictions.csv\ndelivery/bests.csv\ndelivery/samples.csv\ndelivery/description.md",
        "Write the missing file. Without predictions.csv, `sylla metrics` derives predictions from bests.csv.", lang="text")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        d = ctx.model.delivery
        if d.predictions is None and ctx.is_file("predictions.csv"):
            msg = "predictions.csv is missing (the request's deliverable 1)"
            msg += "; sylla metrics derives each trial's prediction from bests.csv" if d.bests is not None else ""
            yield ctx.at(self, msg)
        if d.bests is None and ctx.is_file("bests.csv"):
            yield ctx.at(self, "bests.csv is missing (the request's deliverable 2)")
        if d.samples is None and ctx.is_file("samples.csv"):
            yield ctx.at(self, "samples.csv is missing (the request's deliverable 3)")
