"""N607 bad-suppression."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, imported_codes, known_selector_of, rule_doc
from ..suppress import directives

if TYPE_CHECKING:
    from typing import Iterator


class BadSuppression(Rule):
    __doc__ = rule_doc(
        "A `sylla: ignore[...]` comment is malformed or names no rule.",
        "A `// sylla: ignore[` whose `[` is never closed, an empty `[]`, or a code that is no "
        "rule and no prefix of one. A malformed directive suppresses nothing.",
        '{"instructions": [\n  {"$phase": "1.test"}, // sylla: ignore[H501\n  {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}',
        '{"instructions": [\n  {"$phase": "1.test"}, // sylla: ignore[H501]\n  {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}',
        "No automatic fix: only the author knows which codes were meant. Close the list, or "
        "write `sylla: ignore` without brackets to ignore every rule on the line.",
        why="**Why it matters.** Read leniently, `sylla: ignore[H501` would hide every finding on "
        "its line, including a test phase that trains the agent; read strictly it hides nothing "
        "and the author does not know why the finding is still there.",
    )
    code, name, severity = "N607", "bad-suppression", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        codes: set[str] | None = None
        for d in directives(ctx.model):
            if d.problem is not None:
                yield ctx.finding(self, f"this sylla: ignore directive {d.problem}", d.span)
                continue
            if codes is None and d.codes:
                codes = set(ctx.rule_codes() if ctx.rule_codes is not None else imported_codes())
            unknown = [c for c in d.codes if not known_selector_of(c, codes or ())]
            if unknown:
                names = ", ".join(unknown)
                yield ctx.finding(self, f"this sylla: ignore directive names no rule: {names}", d.span)
