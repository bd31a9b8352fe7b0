"""Shared pieces of the B8xx rules (Science Birds trial configs): the base class, the
documentation shape with its link to the reference text, and value helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from ..birds_context import BirdsContext
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from ..finding import Finding

#: where the semantics come from; every B8xx page cites it
REFERENCE = (
    "Science Birds README, *Evaluation Configuration* → *Trial Generation Parameters Configuration* "
    "(the reference text `science-birds-trial-config.md`)"
)


def birds_doc(summary: str, what: str, why: str, bad: str, good: str, fix: str, item: str) -> str:
    """``rule_doc`` with XML examples and the reference item the rule is about."""
    return rule_doc(summary, what, bad, good, fix, why=f"**Why it matters.** {why}\n\n**Reference.** {REFERENCE}, {item}.", lang="xml")


class BirdsRule(Rule):
    """A rule over a Science Birds config. A B8xx rule has nothing to say about a syllabus (the
    syllabus engine runs only ``language == "syllabus"`` rules), so it answers only a ``BirdsContext``."""

    language = "birds"

    def check(self, ctx: object) -> Iterable["Finding"]:  # Context or BirdsContext

        if not isinstance(ctx, BirdsContext):
            return ()
        return self.check_birds(ctx)

    def check_birds(self, ctx: "BirdsContext") -> Iterator["Finding"]:
        return iter(())
