"""B818 amount-range, B819 portion-range, B820 appearance-percentage: the attributes of a
configMeta.xml ``<game_level_set>``."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.birds.model import LevelSet, MetaConfig
from sylla.grammar.birds.numbers import clip, game_range
from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


def level_sets(model: MetaConfig) -> Iterator[tuple[str, LevelSet, bool]]:
    """(where, set, is_test) for every level set of every trial template."""
    for t in model.trials:
        for i, s in enumerate(t.training.sets if t.training else (), 1):
            yield f"trial template {t.index + 1} training set {i}", s, False
        for i, s in enumerate(t.test.sets if t.test else (), 1):
            yield f"trial template {t.index + 1} test set {i}", s, True


class AmountRange(BirdsRule):
    code, name, severity = "B818", "amount-range", Severity.ERROR
    __doc__ = birds_doc(
        "A level set's `amount` range `lo-hi` is empty or reversed, or the amount is 0.",
        "`amount=\"lo-hi\"` draws the number of levels from [lo, hi), so lo < hi is required; an "
        "amount of 0 (or a range that can draw 0) gives a set with no levels.",
        "With lo > hi the game's random draw throws and generation stops; with lo = hi the range "
        "always gives lo, which is probably not what the author meant; a set of 0 levels is silently empty.",
        '<game_level_set novelty_level="1" novelty_type="1" amount="50-10" />',
        '<game_level_set novelty_level="1" novelty_type="1" amount="10-50" />',
        "Write the smaller number first, or a single number.",
        "the `game_level_set` attributes (item 4 and the generator)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, s, _ in level_sets(ctx.meta):
            if s.amount is None:
                continue
            pair = game_range(s.amount.raw)
            if pair is not None:
                lo, hi = pair
                if lo > hi:
                    yield ctx.finding(self, f'{where}: amount="{s.amount.text}" is reversed: the range is [lo, hi), so lo must be less than hi', s.amount.span)
                elif lo == hi:
                    yield ctx.finding(self, f'{where}: amount="{s.amount.text}" is an empty range [{lo}, {hi}); write amount="{lo}" if you mean exactly {lo}', s.amount.span)
                elif lo == 0:
                    yield ctx.finding(self, f'{where}: amount="{s.amount.text}" can draw 0 levels (the range starts at 0)', s.amount.span)
            elif s.amount.int is not None and s.amount.int <= 0:
                yield ctx.finding(self, f'{where}: amount="{s.amount.text}" gives a set with no levels', s.amount.span)


class PortionRange(BirdsRule):
    code, name, severity = "B819", "portion-range", Severity.ERROR
    __doc__ = birds_doc(
        "`novelty_absence_portion` or `no_diff_portion` is outside [0, 1].",
        "The two portions of a training level set are fractions of its levels: each must lie in [0, 1].",
        "The generator splits a set's levels into novelty, no-novelty and no-difference buckets by "
        "these fractions; a value outside [0, 1] gives a negative or over-full bucket, and the game "
        "silently renormalises the portions into something the author did not write.",
        '<game_level_set novelty_level="1" novelty_type="1" amount="100" novelty_absence_portion="20" />',
        '<game_level_set novelty_level="1" novelty_type="1" amount="100" novelty_absence_portion="0.2" />',
        "Write the portion as a fraction between 0 and 1.",
        "the `game_level_set` attributes",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, s, _ in level_sets(ctx.meta):
            for f in (s.novelty_absence_portion, s.no_diff_portion):
                if f is not None and f.number is not None and not 0 <= f.number <= 1:
                    yield ctx.finding(self, f'{where}: {f.name}="{clip(f.text)}" must lie in [0, 1]', f.span)


class AppearancePercentage(BirdsRule):
    code, name, severity = "B820", "appearance-percentage", Severity.ERROR
    __doc__ = birds_doc(
        "A test set's `set_appearance_percentage` is missing or outside (0, 100].",
        "Each test `game_level_set` needs `set_appearance_percentage` with 0 < pct ≤ 100.",
        "n_testsets = ⌈total_n_testsets × set_appearance_percentage / 100⌉: a percentage of 0 (or "
        "a missing one, which the game reads as 0) means the set is never generated, and more than "
        "100 generates more test sets than there are checkpoints.",
        '<game_level_set novelty_level="1" novelty_type="1" amount="10" set_appearance_percentage="0" />',
        '<game_level_set novelty_level="1" novelty_type="1" amount="10" set_appearance_percentage="50" />',
        "Give the percentage of test sets this configuration should make up.",
        "item 5 (calculation of the number of test sets)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        for where, s, is_test in level_sets(ctx.meta):
            if not is_test:
                continue
            f = s.set_appearance_percentage
            if f is None:
                yield ctx.finding(self, f"{where}: no set_appearance_percentage, so the game reads 0 and never generates this set", s.element.name_span)
            elif f.int is not None and not 0 < f.int <= 100:
                yield ctx.finding(self, f'{where}: set_appearance_percentage="{f.text}" must be more than 0 and at most 100', f.span)
