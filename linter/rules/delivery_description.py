"""W923: description.md is missing or does not have the two paragraphs the request asks for."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity
from sylla.grammar.trials.delivery import paragraphs

from ..delivery_context import DESCRIPTION, DeliveryContext
from ..finding import Finding
from ._delivery import DeliveryRule
from ._trials import trials_doc


class DeliveryDescription(DeliveryRule):
    code, name, severity = "W923", "delivery-description", Severity.WARNING
    __doc__ = trials_doc(
        "description.md is missing or does not have the two paragraphs the request asks for.",
        "Two prose paragraphs (headings aside): how the model works, and the simulation-specific details.",
        "Readers of the comparison need to know what each model is and what it was given.",
        "# Model\n\nIt searches.", "# Model\n\nHow it works, with citations.\n\nParameters, offline training, background knowledge.",
        "Write the two paragraphs.", lang="markdown")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        if not ctx.is_file(DESCRIPTION):
            return
        description = ctx.model.delivery.description
        if description is None:
            yield ctx.at(self, "description.md is missing (the request's deliverable 4)")
            return
        paras = paragraphs(description)
        if len(paras) < 2:
            yield ctx.at(self, f"description.md has {len(paras)} paragraph{'s' if len(paras) != 1 else ''}; the request asks "
                         "for 2: how the model works, and the simulation-specific details", 1 if description else 0)
        elif len(paras) > 2:
            yield ctx.at(self, f"description.md has {len(paras)} paragraphs; the request asks for 2 (how the model works; "
                         "simulation-specific details)", 1, severity="info")
