"""In-file suppression: ``// sylla: ignore[CODE, ...]`` on a line, or top-level ``"sylla_ignore"``.

A comment suppresses findings that start on its line (``# noqa`` style); without codes it
suppresses all of them. ``"sylla_ignore": ["CODE", ...]`` works in strict JSON files, which
cannot hold comments. Codes may be prefixes (``"H5"``), as in ``select``.

A directive that opens ``[`` and never closes it, or closes it on an empty list, suppresses
nothing: read leniently it would hide every finding on its line, which is the opposite of
what its author meant. Rule N607 reports it.
"""

from __future__ import annotations

import re

from sylla.grammar.core import DIRECTIVE, LineIndex, Span
from sylla.grammar.syllabus.model import NonJsonKind, Syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field, record

if TYPE_CHECKING:
    from typing import Iterator

#: a suppression comment; a file without comments never needs it, so it is compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
_COMMENTS = (NonJsonKind.LINE_COMMENT, NonJsonKind.BLOCK_COMMENT)


@record(frozen=True)
class Directive:
    """One ``sylla: ignore`` in a comment: its span (the comment), its codes (empty: every
    code), and what is wrong with it (None when it is well formed)."""

    span: Span
    codes: tuple[str, ...]
    problem: str | None = None


def directives(model: Syllabus) -> Iterator[Directive]:
    for item in model.non_json:
        if item.kind not in _COMMENTS:
            continue
        comment = item.text(model.text)
        m = re.search(DIRECTIVE, comment)
        if not m:
            continue
        if m.group(1) is None:
            yield Directive(item.span, ())
            continue
        close = comment.find("]", m.end())
        if close < 0:
            yield Directive(item.span, (), "has no closing `]`, so it suppresses nothing")
            continue
        codes = tuple(c.strip() for c in comment[m.end() : close].split(",") if c.strip())
        if not codes:
            yield Directive(item.span, (), "lists no code (write `sylla: ignore` to ignore every rule on the line)")
            continue
        yield Directive(item.span, codes)


@record()
class Suppressions:
    file_codes: tuple[str, ...] = ()
    #: line -> codes (an empty tuple means every code)
    lines: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def suppressed(self, code: str, line: int) -> bool:
        if any(c == "ALL" or code.startswith(c) for c in self.file_codes):
            return True
        if line in self.lines:
            codes = self.lines[line]
            return not codes or any(c == "ALL" or code.startswith(c) for c in codes)
        return False


def suppressions(model: Syllabus | None, lines: LineIndex) -> Suppressions:
    out = Suppressions()
    if model is None:
        return out
    value = model.value if isinstance(model.value, dict) else {}
    listed = value.get("sylla_ignore")
    if isinstance(listed, list):
        out.file_codes = tuple(c.strip() for c in listed if isinstance(c, str) and c.strip())
    for d in directives(model):
        if d.problem is not None:
            continue
        first, _ = lines.line_col(d.span.start)
        last, _ = lines.line_col(max(d.span.start, d.span.end - 1))
        for line in range(first, last + 1):
            known = out.lines.get(line)
            out.lines[line] = () if not d.codes or known == () else (known or ()) + d.codes
    return out
