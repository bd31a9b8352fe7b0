"""Answers from the last completed parse while the current version is still being parsed.

A 500 KB syllabus takes about a third of a second to parse, and an editor asks for inlay hints
and folding ranges right after every keystroke. Instead of making those requests wait, the
server answers them from the previous version's analysis with every position moved through
the edit (stale-while-revalidate), and asks the client to refresh them once the new parse is
in (``workspace/inlayHint/refresh``, ``workspace/foldingRange/refresh``).

Positions must never point at the wrong text, so the two texts are compared directly: the
longest common prefix and suffix bound the one region that changed (several edits collapse
into one region spanning them all, which only makes the answer more cautious). Anything whose
span touches that region is left out of a stale answer, or the request waits for the new parse.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from lsprotocol.types import InlayHint, Range

from sylla.grammar.core import Span
from sylla.grammar.syllabus.incremental import changed_region

from .documents import Analysis
from .positions import PositionMap


@dataclass(frozen=True)
class Shift:
    """The region in which a newer text differs from an older one: ``[start, old_end)`` of
    the old text became ``[start, new_end)`` of the new; the text around it is the same."""

    start: int
    old_end: int
    new_end: int

    @classmethod
    def between(cls, old: str, new: str) -> "Shift":
        return cls(*changed_region(old, new))

    @property
    def delta(self) -> int:
        return self.new_end - self.old_end

    def touches(self, span: Span) -> bool:
        """Whether ``span`` (old text) overlaps or borders the changed region: text typed
        right at a span's edge may belong to it."""
        return span.end >= self.start and span.start <= self.old_end

    def span(self, span: Span) -> Span | None:
        """``span`` of the old text in the new one, or None when the edit touches it."""
        if self.touches(span):
            return None
        move = 0 if span.end < self.start else self.delta
        return Span(span.start + move, span.end + move)

    def old_offset(self, offset: int) -> int | None:
        """The old offset of a new one, or None inside the changed region."""
        if offset < self.start:
            return offset
        if offset > self.new_end:
            return offset - self.delta
        return None


@dataclass
class Stale:
    """The previous version's analysis, read through the edits up to the current text."""

    analysis: Analysis
    text: str
    version: int | None

    @cached_property
    def shift(self) -> Shift:
        return Shift.between(self.analysis.text, self.text)

    @cached_property
    def positions(self) -> PositionMap:
        """Positions in the current text, in the analysis' encoding."""
        return PositionMap(self.text, self.analysis.encoding)

    def lines(self) -> tuple[int, int, int]:
        """The old lines of the changed region's first and last character, and the new line
        of its last: every line before the first is the same line in both texts, every line
        after the last is the same text ``new - old`` lines further on."""
        shift, old = self.shift, self.analysis.positions
        return old.line_of(shift.start), old.line_of(shift.old_end), self.positions.line_of(shift.new_end)


def folding_ranges(stale: Stale) -> list[dict[str, Any]]:
    """The previous version's folds in the current text: folds above the edit as they were,
    folds below it moved by the lines it added or removed, folds around it stretched; a fold
    that starts or ends on an edited line is left out until the refresh."""
    from .outline import folding_ranges as build  # noqa: PLC0415 - lazy: start-up, sylla.lsp.outline loads only when used

    folds = stale.analysis.view("folding", build)
    first, last, new_last = stale.lines()
    delta = new_last - last
    out: list[dict[str, Any]] = []
    for fold in folds:
        start, end = fold["startLine"], fold["endLine"]
        if end < first:
            out.append(fold)
        elif start > last:
            out.append({**fold, "startLine": start + delta, "endLine": end + delta})
        elif start < first and end > last:
            out.append({**fold, "endLine": end + delta})
    return out


def inlay_hints(stale: Stale, range_: Range) -> list[InlayHint]:
    """The previous version's hints at their phase marks in the current text (``range_`` is
    in it); a mark the edit touches gets no hint until the refresh."""
    from .outline import inlay_hints as build  # noqa: PLC0415 - lazy: start-up, sylla.lsp.outline loads only when used

    positions = stale.positions
    return build(stale.analysis, positions.span(range_), (stale.shift.span, positions))
