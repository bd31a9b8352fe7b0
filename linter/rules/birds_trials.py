"""B831 duplicate-trial-id, B832 no-executions: the ``<trial>`` attributes of config.xml."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.birds.model import GeneratedTrial
from sylla.grammar.birds.numbers import clip
from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding, RelatedSpan
from ._birds import BirdsRule, birds_doc


class DuplicateTrialId(BirdsRule):
    code, name, severity = "B831", "duplicate-trial-id", Severity.ERROR
    __doc__ = birds_doc(
        "Two trials in config.xml have the same `id`.",
        "`<trial id=...>` values must be unique (the generator numbers them 0, 1, 2, ...).",
        "Results are reported per trial id: two trials with one id are merged in the results, and "
        "one of them cannot be told apart from the other.",
        '<trial id="0" number_of_executions="1">...</trial>\n<trial id="0" number_of_executions="1">...</trial>',
        '<trial id="0" number_of_executions="1">...</trial>\n<trial id="1" number_of_executions="1">...</trial>',
        "Renumber the trials, or regenerate config.xml from configMeta.xml.",
        "the generated file",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        first: dict[str, GeneratedTrial] = {}
        for t in ctx.generated.trials:
            if t.id is None:
                continue
            key = str(t.id.int) if t.id.int is not None else t.id.text
            if key in first:
                prev = first[key]
                line = ctx.lines.line_col(prev.element.span.start)[0]
                yield ctx.finding(
                    self, f'trial id "{clip(t.id.text)}" is already used on line {line}', t.id.span,
                    related=(RelatedSpan("first used here", prev.id.span),),  # type: ignore[union-attr]  # prev.id is set: a trial without an id is skipped above
                )
            else:
                first[key] = t


class NoExecutions(BirdsRule):
    code, name, severity = "B832", "no-executions", Severity.ERROR
    __doc__ = birds_doc(
        "A config.xml trial has `number_of_executions` below 1, so it never runs.",
        "`number_of_executions` (the meta file's `repeats`) must be at least 1.",
        "A trial executed 0 times is in the file but not in the results.",
        '<trial id="0" number_of_executions="0">',
        '<trial id="0" number_of_executions="1">',
        "Set it to 1 or more (in configMeta.xml: `<repeats>`).",
        "item 2 (repeats)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        for t in ctx.generated.trials:
            f = t.number_of_executions
            if f is not None and f.int is not None and f.int < 1:
                yield ctx.finding(self, f'trial {t.id.text if t.id else t.index}: number_of_executions="{f.text}" means it never runs', f.span)
