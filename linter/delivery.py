"""``DELIVERY``: the wave-3 delivery descriptor for the lint engine (``sylla lint DIR --trials json/``).

A delivery is a folder (predictions.csv, bests.csv, samples.csv, description.md), read whole
with the trial files it is checked against (``delivery_context.read_model``). Each of its files,
present or missing, is one document of this language: its parse is the file's text with the
shared reading (``DeliveryFile``), and the engine lints it like any other file, so ``--select``,
``--ignore``, per-file ignores and the config's severities reach W910-W923 as they reach every
rule. The folder's entry point is ``deliveries.lint_delivery``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Sequence

from .delivery_context import DeliveryContext, DeliveryFile, read_model
from .language import LanguageSpec

if TYPE_CHECKING:
    from .config import Config
    from .finding import Finding


class DeliverySpec(LanguageSpec[DeliveryFile, DeliveryContext]):
    name = "delivery"

    def __init__(self, trials_folder: str | None = None) -> None:
        #: the trial files (``--trials``) the rows are checked against; None: only the delivery's own shape
        self.trials_folder = trials_folder

    def parse(self, data: str | bytes, path: str | None) -> DeliveryFile:
        """The document of the file at ``path`` in its delivery folder, read whole (a delivery
        is its folder: a file's findings depend on the others, so ``data`` is not read alone)."""
        if path is None:
            raise ValueError("a delivery file is read from its folder: give its path")
        model = read_model(os.path.dirname(path) or ".", self.trials_folder)
        doc = model.documents.get(path)
        return doc if doc is not None else model.documents.setdefault(path, DeliveryFile(model, path, ""))

    def context(self, parsed: DeliveryFile, config: "Config", path: str | None) -> DeliveryContext:
        return DeliveryContext(parsed, parsed.model, config, path)

    def explain(self, parsed: DeliveryFile, name: str) -> tuple[Any, str]:
        """What the delivery holds: each deliverable and its rows (``sylla explain`` shows trial files' schedules, not this)."""
        tables = {n: (len(t) if t is not None else None) for n, t in parsed.model.tables()}
        doc = {"folder": parsed.model.folder, "rows": tables, "description": parsed.model.delivery.description is not None}
        return doc, "\n".join(f"{n}: {'missing' if r is None else f'{r:,} rows'}" for n, r in tables.items())

    def order(self, findings: Sequence["Finding"]) -> list["Finding"]:
        """By start and code: a finding about the file as a whole (at its start, empty) sorts
        among those of its first line by code, as the delivery check always ordered them."""
        return sorted(findings, key=lambda f: (f.span.start, f.code))


DELIVERY = DeliverySpec()
