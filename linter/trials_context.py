"""``TrialsContext``: what a W9xx rule sees of a wave-3 trial file.

Apart from ``trials.py`` (the trial-file lint pipeline, which runs the rules) so that the
rules import their context from below the pipeline and the registry (issue 28: no cycles).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from sylla.grammar.trials.model import TrialFile, name_parts
from sylla.grammar.trials.parse import TrialParse
from sylla.grammar.trials.plain import plain_examples

from .document_context import DocumentContext


@dataclass
class TrialsContext(DocumentContext[TrialParse, TrialFile]):
    """What a W9xx rule sees: the parse, the model, the config, the file's path."""

    @property
    def name_parts(self) -> tuple[int, int] | None:
        return name_parts(os.path.basename(self.path)) if self.path else None

    @functools.cached_property
    def siblings(self) -> dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]] | None]:
        """ordering -> its examples (None when unreadable), for every ``cPPP_K.json`` of this
        file's problem in its folder, this file included."""
        parts = self.name_parts
        if parts is None or self.path is None or not os.path.isfile(self.path):
            return {}
        return sibling_orderings(os.path.dirname(os.path.abspath(self.path)), parts[0])


def sibling_orderings(folder: str, problem: int) -> dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]] | None]:
    out: dict[int, list | None] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return {}
    for name in names:
        parts = name_parts(name)
        if parts is None or parts[0] != problem:
            continue
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                out[parts[1]] = plain_examples(fh.read())
        except OSError:
            out[parts[1]] = None
    return out
