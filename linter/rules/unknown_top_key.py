"""N604 unknown-top-level-key."""

from __future__ import annotations

from sylla.grammar.core import Diagnostic, Severity
from sylla.grammar.syllabus.model import TopLevelKey
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import replace
from sylla.kit.suggest import closest, did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

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

    def claims(self, diag: Diagnostic, ctx: Context) -> bool:
        """The schema's "needs an instructions list" when a top-level key is a near miss of
        ``instructions``: the misspelling is the cause, so it is reported once, here, as an error."""
        return (
            diag.kind == "schema" and diag.keyword == "required" and diag.path == ()
            and "instructions" in diag.message and _misspelt_instructions(ctx) is not None
        )

    def from_diagnostic(self, diag: Diagnostic, ctx: Context) -> Finding | None:
        return None  # the check reports the misspelt key

    def check(self, ctx: Context) -> Iterator[Finding]:
        misspelt = _misspelt_instructions(ctx)
        for key in ctx.model.top_level_keys:
            if key.name not in KNOWN:
                finding = ctx.finding(self, f'unknown top-level key "{key.name}"{did_you_mean(key.name, KNOWN)}', key.span)
                if key is misspelt:
                    finding = replace(finding, message=finding.message + '; the syllabus has no "instructions" list', severity=Severity.ERROR)
                yield finding


def _misspelt_instructions(ctx: Context) -> TopLevelKey | None:
    """The top-level key that stands for a missing ``instructions``, if any."""
    names = [k.name for k in ctx.model.top_level_keys]
    if "instructions" in names or ctx.model.form == "array":
        return None
    for key in ctx.model.top_level_keys:
        if key.name not in KNOWN and closest(key.name, KNOWN) == "instructions":
            return key
    return None
