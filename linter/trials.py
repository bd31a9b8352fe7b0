"""``TRIALS``: the wave-3 trial-file descriptor for the lint engine (``json/cPPP_K.json``).

The core (``sylla.grammar.trials``) parses the JSON with positions into a ``TrialFile``; its
diagnostics become W901/W902 findings; the W9xx rules check the model, and the orderings of the
same problem found beside the file (W907, W908). Nothing here differs from the engine's
defaults but the parse and the context. A delivery folder (``--trials``) is
checked by ``deliveries.py``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from sylla.grammar.trials.model import name_parts
from sylla.grammar.trials.parse import TrialParse, parse

from .language import LanguageSpec
from .trials_context import TrialsContext

if TYPE_CHECKING:
    from .config import Config


class TrialsSpec(LanguageSpec[TrialParse, TrialsContext]):
    name = "trials"

    def parse(self, data: str | bytes, path: str | None) -> TrialParse:
        return parse(data, path)

    def context(self, parsed: TrialParse, config: "Config", path: str | None) -> TrialsContext | None:
        return TrialsContext(parsed, parsed.model, config, path) if parsed.model is not None else None

    def explain(self, parsed: TrialParse, name: str) -> tuple[Any, str]:
        """The schedule of one ordering (a folder of them: ``sylla explain json/``)."""
        from sylla.grammar.trials.schedule import Ordering, render_text, schedule  # noqa: PLC0415 - lazy: the schedule loads only for sylla explain

        assert parsed.model is not None
        parts = name_parts(os.path.basename(name)) or (parsed.model.problem or 0, 1)
        doc = schedule([Ordering(parts[0], parts[1], name, parsed.model)])
        return doc, render_text(doc)


TRIALS = TrialsSpec()
