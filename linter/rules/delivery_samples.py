"""W922: samples.csv does not hold 10,000 rows, or is split into several files."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity
from sylla.grammar.trials.model import SAMPLES

from ..delivery_context import DeliveryContext
from ..finding import Finding
from ._delivery import NoteRule
from ._trials import trials_doc

HEADER = "problem,run,order,trial,input,correct,predicted,accuracy,program,cpu,count,nlp,nll"


class DeliverySamples(NoteRule):
    code, name, severity = "W922", "delivery-samples", Severity.WARNING
    __doc__ = trials_doc(
        "samples.csv does not hold 10,000 rows, or is split into several files.",
        "One samples.csv with 10,000 programs sampled uniformly (reservoir sampling). Split header-less "
        "samples0.csv, samples1.csv, ... are read together and said once.",
        "The samples show how the model moves through search space; fewer rows are a different sample size.",
        "samples0.csv (5,000 rows, no header)\nsamples1.csv (5,000 rows, no header)", f"samples.csv: {HEADER} + 10,000 rows",
        "Keep a reservoir of 10,000 across all runs.", lang="text")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        yield from super().check_delivery(ctx)  # the reading's notes: split or renamed files
        samples = ctx.model.delivery.samples
        if samples is not None and ctx.path == samples.path and len(samples) != SAMPLES:
            yield ctx.at(self, f"{len(samples):,} sample rows; the request asks for {SAMPLES:,} programs "
                         "uniformly sampled from all programs considered")
