"""N602 trailing-comma."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import NonJsonKind
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Edit, Finding, Fix
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class TrailingComma(Rule):
    __doc__ = rule_doc(
        "A comma after the last element of a list or object.",
        "Trailing commas, which JSON does not allow (JSON5 and some editors do).",
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5000},\n]}',
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5000}\n]}',
        "Removes the comma (safe: the value does not change).",
        why="**Why it matters.** Engines that load strict JSON reject the file.",
    )
    code, name, severity, fixable = "N602", "trailing-comma", Severity.WARNING, True

    def check(self, ctx: Context) -> Iterator[Finding]:
        for item in ctx.model.non_json:
            if item.kind == NonJsonKind.TRAILING_COMMA:
                yield ctx.finding(
                    self, "trailing comma: engines that load strict JSON reject the file", item.span, Fix("Remove the trailing comma", (Edit(item.span, ""),))
                )
