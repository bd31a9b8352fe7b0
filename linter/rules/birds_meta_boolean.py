"""B810 meta-boolean-case."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.birds.model import Field, MetaConfig
from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Edit, Finding, Fix
from ._birds import BirdsRule, birds_doc


def meta_booleans(model: MetaConfig) -> Iterator[tuple[Field, tuple[str, ...]]]:
    """Every true/false value of configMeta.xml, with the words it may be."""
    tf = ("true", "false")
    if model.measurement is not None:
        for f in (model.measurement.measure_in_training, model.measurement.measure_in_testing):
            if f is not None:
                yield f, tf
    for t in model.trials:
        if t.notify_novelty is not None:
            yield t.notify_novelty, ("true", "false", "both")
        if t.training is not None:
            limit = t.training.limits.get("allow_level_selection")
            if limit is not None and limit.value.text:
                yield limit.value, tf
        if t.test is not None:
            if t.test.ordered is not None:
                yield t.test.ordered, tf
            for s in t.test.sets:
                if s.allow_level_selection is not None:
                    yield s.allow_level_selection, tf


class MetaBooleanCase(BirdsRule):
    code, name, severity, fixable = "B810", "meta-boolean-case", Severity.ERROR, True
    __doc__ = birds_doc(
        "A configMeta.xml boolean is not lower case (`True` where `true` belongs).",
        "`measure_in_training`, `measure_in_testing`, `notify_novelty`, `ordered`, "
        "`allow_level_selection` (attribute or limit) written as `True`, `FALSE`, `Both`...",
        "The game compares the text with `\"true\"` exactly: `True` reads as false, so a trial meant "
        "to notify novelty does not, and an unordered level set becomes a sequence, silently.",
        '<test ordered="True">',
        '<test ordered="true">',
        "Lower-cases the value (safe: it is what the author meant and what the game reads).",
        "items 1, 4 and 5 (allowed values \"true\" or \"false\")",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for f, words in meta_booleans(ctx.meta):
            lowered = f.text.lower()
            if lowered in words and f.text != lowered:
                new = f.raw.replace(f.text, lowered) if f.is_attribute else lowered
                what = f'{f.name}="{f.text}"' if f.is_attribute else f'<limit type="allow_level_selection">{f.text}</limit>'
                yield ctx.finding(
                    self,
                    f'{what}: the game compares with "{lowered}" exactly and reads anything else as false; write "{lowered}"',
                    f.span,
                    Fix(f'Write "{lowered}"', (Edit(f.span, new),)),
                )
