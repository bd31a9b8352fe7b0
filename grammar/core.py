"""The vocabulary every language of sylla shares: where something is (``Span``, ``LineIndex``)
and what is wrong there (``Severity``, ``Diagnostic``, ``Related``).

Each language (``syllabus/``, ``birds/``, ``trials/``, ``listdsl/``) builds its model and its
core diagnostics from these, and the linter, the language server and the metrics read them:
they live here, below every language, so that no language imports another to say where a
problem is. Positions are code-point offsets into the decoded text; ``LineIndex`` makes the
1-based line and column that the command line shows, at the edge.
"""

from __future__ import annotations

import bisect
from enum import StrEnum

from sylla.kit.record import record

# A suppression comment (``// sylla: ignore[CODE]``), in every language that has comments: the
# linter honours it and the printer keeps it where it stands.
DIRECTIVE = r"sylla:\s*ignore\b(\s*\[)?"


@record(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of code-point offsets into the decoded text."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset < self.end or (self.start == self.end == offset)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@record(frozen=True, slots=True)
class Related:
    """A second place a diagnostic refers to (the first of two duplicate keys, say)."""

    message: str
    span: Span


@record(frozen=True, slots=True)
class Diagnostic:
    """A problem the language core found: syntax, encoding, nesting or schema.

    ``kind`` is a stable slug (``syntax``, ``unterminated-string``, ``invalid-utf8``,
    ``schema``, ...) that the linter maps to its rule codes; ``message`` is worded for a person.
    For schema problems ``path`` is the JSON path of the offending value and ``keyword`` the
    JSON Schema keyword that failed.
    """

    kind: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    path: tuple[str | int, ...] = ()
    keyword: str | None = None
    related: tuple[Related, ...] = ()


class LineIndex:
    """Converts offsets to 1-based line and column (code points) and back.

    Line breaks are ``\\n``, ``\\r\\n`` and a lone ``\\r``, as editors and LSP count them.
    """

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        if "\r" in text:
            i, n = 0, len(text)
            while True:
                j = _next_break(text, i)
                if j < 0:
                    break
                if text[j] == "\r" and j + 1 < n and text[j + 1] == "\n":
                    j += 1
                starts.append(j + 1)
                i = j + 1
        else:
            find = text.find
            j = find("\n")
            while j >= 0:
                starts.append(j + 1)
                j = find("\n", j + 1)
        self.starts = starts

    @classmethod
    def edited(cls, previous: "LineIndex | None", text: str, start: int, old_end: int, new_end: int) -> "LineIndex":
        """The index of ``text``, which is ``previous.text`` with ``[start, old_end)`` replaced
        by ``text[start:new_end]``: the line starts before the edit kept, those after it
        moved, only the edit itself searched (an incremental parse of 500 KB would otherwise
        spend milliseconds finding the same 10,000 line breaks again). Texts with a ``\r``
        are indexed afresh: a ``\r\n`` can be split or joined at the edit's edges."""
        if previous is None or "\r" in text or "\r" in previous.text:
            return cls(text)
        old = previous.starts
        starts = old[: bisect.bisect_right(old, start)]
        find = text.find
        j = find("\n", start, new_end)
        while j >= 0:
            starts.append(j + 1)
            j = find("\n", j + 1, new_end)
        delta = new_end - old_end
        tail = old[bisect.bisect_right(old, old_end) :]
        starts.extend([x + delta for x in tail] if delta else tail)
        index = cls.__new__(cls)
        index.text = text
        index.starts = starts
        return index

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based column in code points."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def line_text(self, line: int) -> str:
        """The text of a 1-based line without its line break."""
        start, end = self.line_span(line)
        return self.text[start:end]

    def line_span(self, line: int) -> tuple[int, int]:
        """Offsets ``[start, end)`` of a 1-based line without its line break, found without
        copying the line (a minified file is one line of megabytes: a reporter showing a
        window of it per finding must not copy it per finding)."""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        text = self.text
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        return start, end

    def offset(self, line: int, column: int) -> int:
        """Offset of a 1-based line and column (clamped to the text)."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        return min(start + max(column - 1, 0), start + len(self.line_text(line)))

    @property
    def line_count(self) -> int:
        return len(self.starts)


def _next_break(text: str, i: int) -> int:
    a = text.find("\n", i)
    b = text.find("\r", i)
    if a < 0:
        return b
    if b < 0:
        return a
    return min(a, b)
