"""B815 unknown-limit-type, B816 duplicate-limit, B817 bad-limit-value: the ``<limit>`` elements
of ``<checkpoint>`` and ``<training><limits>``."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.birds.model import Limits, MetaConfig
from sylla.grammar.birds.numbers import clip
from sylla.grammar.core import Severity
from sylla.kit.suggest import did_you_mean

from ..birds_context import BirdsContext
from ..finding import Finding, RelatedSpan
from ._birds import BirdsRule, birds_doc

CHECKPOINT_TYPES = ("time", "interaction")
TRAINING_TYPES = ("time", "interaction", "attempt_per_level", "allow_level_selection")


def all_limits(model: MetaConfig) -> Iterator[tuple[str, Limits, tuple[str, ...]]]:
    for t in model.trials:
        yield f"trial template {t.index + 1} <checkpoint>", t.checkpoint, CHECKPOINT_TYPES
        if t.training is not None:
            yield f"trial template {t.index + 1} training <limits>", t.training.limits, TRAINING_TYPES


class UnknownLimitType(BirdsRule):
    code, name, severity = "B815", "unknown-limit-type", Severity.ERROR
    __doc__ = birds_doc(
        "A `<limit type=...>` the game does not know; the limit is ignored.",
        "Limit types other than `time` and `interaction` (checkpoint) or `time`, `interaction`, "
        "`attempt_per_level`, `allow_level_selection` (training), with a \"did you mean\".",
        "The game skips a limit whose type it does not recognise: a misspelt `tme` leaves the time "
        "limit off, which can make training or checkpoints never end.",
        '<limit type="tme">180</limit>',
        '<limit type="time">180</limit>',
        "Correct the type.",
        "items 3 and 4",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, limits, known in all_limits(ctx.meta):
            for item in limits.items:
                if item.kind is None or item.kind.text in known:
                    continue
                yield ctx.finding(
                    self,
                    f'{where}: unknown limit type "{clip(item.kind.text)}"{did_you_mean(item.kind.text, known)}; known: {", ".join(known)}',
                    item.kind.span,
                )


class DuplicateLimit(BirdsRule):
    code, name, severity = "B816", "duplicate-limit", Severity.WARNING
    __doc__ = birds_doc(
        "The same limit type is written twice; the game uses the last one.",
        "Two `<limit>` elements of one type in one `<checkpoint>` or `<limits>`.",
        "The game reads the limits in order and keeps the last value, so the first one, which a "
        "reader sees first, has no effect.",
        '<limit type="time">180</limit>\n<limit type="time">120</limit>',
        '<limit type="time">120</limit>',
        "Delete the one you do not mean.",
        "items 3 and 4",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, limits, _known in all_limits(ctx.meta):
            first: dict[str, object] = {}
            for item in limits.items:
                if item.kind is None:
                    continue
                kind = item.kind.text
                if kind in first:
                    prev = first[kind]
                    line = ctx.lines.line_col(prev.element.span.start)[0]  # type: ignore[attr-defined]  # ``first`` holds this loop's limit items, typed object
                    yield ctx.finding(
                        self,
                        f'{where}: a second "{kind}" limit (the first is on line {line}); the game uses this one, {clip(item.value.text)}',
                        item.kind.span,
                        related=(RelatedSpan("first written here", prev.kind.span),),  # type: ignore[attr-defined]  # as above; prev.kind is set: an item without a kind is skipped
                    )
                first[kind] = item


class BadLimitValue(BirdsRule):
    code, name, severity = "B817", "bad-limit-value", Severity.ERROR
    __doc__ = birds_doc(
        "A limit's value does not fit its type (a word for `time`, a number for `allow_level_selection`).",
        "`time`, `interaction` and `attempt_per_level` must be integers; `allow_level_selection` must be `true` or `false`.",
        "The game parses numeric limits with int.Parse and stops on anything else; an "
        "`allow_level_selection` that is not `true` reads as false (a sequence).",
        '<limit type="interaction">true</limit>\n<limit type="allow_level_selection">1</limit>',
        '<limit type="interaction">60000</limit>\n<limit type="allow_level_selection">true</limit>',
        "Write an integer for the numeric limits and true/false for allow_level_selection.",
        "item 4 (allowed values)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, limits, known in all_limits(ctx.meta):
            for item in limits.items:
                if item.kind is None or item.kind.text not in known:
                    continue
                value = item.value
                if item.kind.text == "allow_level_selection":
                    if value.text.lower() not in ("true", "false"):
                        yield ctx.finding(self, f'{where}: allow_level_selection must be true or false, not "{clip(value.text)}"', value.span)
                elif value.int is None and not value.out_of_range:  # a number out of range is B805's
                    yield ctx.finding(self, f'{where}: the {item.kind.text} limit must be a whole number, not "{clip(value.text)}"', value.span)
