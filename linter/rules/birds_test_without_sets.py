"""B821 test-without-level-sets."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


class TestWithoutLevelSets(BirdsRule):
    code, name, severity = "B821", "test-without-level-sets", Severity.ERROR
    __doc__ = birds_doc(
        "A `<test>` without `<game_level_sets>` is followed by another trial, whose level sets the game then reads as this one's tests.",
        "`<test ordered=\"...\" />` (or a `<test>` with no `<game_level_sets>` child) in any trial template but the last.",
        "The game finds a trial's test sets by reading forward to the next `<game_level_sets>` element "
        "in the file; when the `<test>` has none, that is the next trial's training sets, which become "
        "this trial's test sets, and every later trial is read out of step. In the last trial there is "
        "nothing further to read, so an empty `<test>` there is harmless.",
        '<test ordered="true" />\n</trial>\n<trial notify_novelty="true">',
        '<test ordered="true">\n  <game_level_sets></game_level_sets>\n</test>\n</trial>\n<trial notify_novelty="true">',
        "Write an empty `<game_level_sets></game_level_sets>` inside the `<test>`, as the game's own writer does.",
        "item 5 (test set configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.meta is None:
            return
        trials = ctx.meta.trials
        for t in trials[:-1]:
            if t.test is not None and not t.test.has_sets_element:
                nxt = t.index + 2
                yield ctx.finding(
                    self,
                    f"trial template {t.index + 1}: <test> has no <game_level_sets>, so the game reads trial template {nxt}'s level sets as its test sets",
                    t.test.element.name_span,
                )
