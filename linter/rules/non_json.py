"""N601 non-json-syntax."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import NonJsonKind
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

_WHAT = {
    NonJsonKind.LINE_COMMENT: "a // comment",
    NonJsonKind.BLOCK_COMMENT: "a /* */ comment",
    NonJsonKind.MARGIN_NOTE: "a <-- margin note",
    NonJsonKind.BOM: "a byte-order mark",
    NonJsonKind.FRAGMENT: 'a bare "instructions": [...] fragment (no enclosing object)',
}
_COMMENTS = (NonJsonKind.LINE_COMMENT, NonJsonKind.BLOCK_COMMENT)


def allows_comments(path: str | None) -> bool:
    """``.jsonc`` declares JSON with comments: its loader must strip them, so they are fine."""
    return path is not None and path.lower().endswith(".jsonc")


class NonJsonSyntax(Rule):
    __doc__ = rule_doc(
        "The file uses constructs strict JSON rejects: comments, `<--` margin notes, a BOM, a bare fragment.",
        "Each non-JSON construct except trailing commas (N602). Comments are allowed in `.jsonc` "
        "files, whose extension tells tools to strip them; margin notes and fragments never are.",
        '{"instructions": [\n  {"$repeat": {"$episode": "Pong"}, "count": 5000}  <-- Train Task 1\n]}',
        '{"instructions": [\n  {"$repeat": {"$episode": "Pong"}, "count": 5000}\n]}',
        "No automatic fix: comments and notes belong to the author. Move them into a top-level "
        '`"comments"` value, or rename the file to `.jsonc` and keep `//` comments.',
        why="**Why it matters.** Engines that load syllabi with a strict JSON parser reject the "
        "whole file, so the run never starts.",
    )
    code, name, severity = "N601", "non-json-syntax", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        jsonc = allows_comments(ctx.model.path)
        for item in ctx.model.non_json:
            if item.kind == NonJsonKind.TRAILING_COMMA or (jsonc and item.kind in _COMMENTS):
                continue
            what = _WHAT.get(item.kind, str(item.kind))
            span = item.span
            if item.kind == NonJsonKind.FRAGMENT:
                span = type(span)(span.start, span.start + 1 if span.end > span.start else span.start)
            yield ctx.finding(self, f"{what} is not JSON: engines that load strict JSON reject the file", span)
