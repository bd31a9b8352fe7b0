"""N604 unknown-top-level-key."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.model import Severity

from ..context import Context
from ..finding import Finding
from ..rule import Rule
from ..suggest import did_you_mean
from ..rule import rule_doc

KNOWN = ("name", "author", "contains", "default_params", "comments", "syllabus_type", "sylla_ignore", "instructions")


class UnknownTopLevelKey(Rule):
    __doc__ = rule_doc(
        "The syllabus object has a top-level key sylla does not know.",
        f"Top-level keys other than {', '.join(f'`{k}`' for k in KNOWN)}, with a \"did you mean\".",
        '{"name": "pong", "default_parms": {"bot/paddle/width": 0.15}, "instructions": [...]}',
        '{"name": "pong", "default_params": {"bot/paddle/width": 0.15}, "instructions": [...]}',
        "Correct the key, or move free-form notes into `comments`.",
        why="**Why it matters.** Engines ignore unknown top-level keys, so a misspelt "
        "`default_params` silently drops parameters from every block and the agent runs a different environment.",
    )
    code, name, severity = "N604", "unknown-top-level-key", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        for key in ctx.model.top_level_keys:
            if key.name not in KNOWN:
                yield ctx.finding(self, f'unknown top-level key "{key.name}"{did_you_mean(key.name, KNOWN)}', key.span)
