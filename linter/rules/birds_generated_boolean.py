"""B830 generated-boolean-case."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.birds.model import Field, GeneratedConfig
from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Edit, Finding, Fix
from ._birds import BirdsRule, birds_doc


def generated_booleans(model: GeneratedConfig) -> Iterator[Field]:
    if model.measurement is not None:
        for f in (model.measurement.measure_in_training, model.measurement.measure_in_testing):
            if f is not None:
                yield f
    for t in model.trials:
        if t.notify_novelty is not None:
            yield t.notify_novelty
        for s in t.sets:
            if s.allow_level_selection is not None:
                yield s.allow_level_selection


class GeneratedBooleanCase(BirdsRule):
    code, name, severity, fixable = "B830", "generated-boolean-case", Severity.ERROR, True
    __doc__ = birds_doc(
        "A config.xml boolean is not capitalised (`true` where `True` belongs).",
        "`measure_in_training`, `measure_in_testing`, `notify_novelty` and `allow_level_selection` in "
        "config.xml, which the game writes with .NET's `True`/`False`.",
        "The game compares these values with `\"True\"` exactly, so a hand-edited `true` reads as false.",
        '<trial id="0" number_of_executions="1" notify_novelty="true">',
        '<trial id="0" number_of_executions="1" notify_novelty="True">',
        "Capitalises the value (safe: it is what the author meant and what the game reads).",
        "the generated file (config.xml) the reference text describes",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        for f in generated_booleans(ctx.generated):
            if f.text.lower() in ("true", "false") and f.text not in ("True", "False"):
                right = f.text.capitalize()
                yield ctx.finding(
                    self,
                    f'{f.name}="{f.text}": config.xml booleans are "True"/"False" and the game compares exactly; write "{right}"',
                    f.span,
                    Fix(f'Write "{right}"', (Edit(f.span, f.raw.replace(f.text, right)),)),
                )
