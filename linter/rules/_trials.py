"""Shared pieces of the W9xx rules (wave-3 online trials): base class and documentation shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from ..rule import Rule, rule_doc
from ..trials_context import TrialsContext

if TYPE_CHECKING:
    from ..finding import Finding
REFERENCE = "the wave-3 request (`wave3-online-trials-request.md`) and problem list (`wave3-problems.md`)"


def trials_doc(summary: str, what: str, why: str, bad: str, good: str, fix: str, lang: str = "json") -> str:
    return rule_doc(summary, what, bad, good, fix, why=f"**Why it matters.** {why}\n\n**Reference.** {REFERENCE}.", lang=lang)


class TrialsRule(Rule):
    """A rule over a trial file; it answers only a ``TrialsContext``."""

    language = "trials"

    def check(self, ctx: object) -> Iterable["Finding"]:

        if not isinstance(ctx, TrialsContext):
            return ()
        return self.check_trials(ctx)

    def check_trials(self, ctx: "TrialsContext") -> Iterator["Finding"]:
        return iter(())
