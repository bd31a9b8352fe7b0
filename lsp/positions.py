"""Code-point offsets <-> LSP positions in the negotiated encoding.

The language core and the linter speak code-point offsets; LSP speaks (line, character) in
UTF-16 code units unless client and server agreed on UTF-8 or UTF-32 at initialize. All
conversions happen here, at the edge, so no other module ever counts code units.
"""

from __future__ import annotations

import bisect

from lsprotocol import types

from sylla.grammar.core import LineIndex, Span

UTF8 = types.PositionEncodingKind.Utf8.value
UTF16 = types.PositionEncodingKind.Utf16.value
UTF32 = types.PositionEncodingKind.Utf32.value


def _units(text: str, encoding: str) -> int:
    """Length of ``text`` in code units of ``encoding``."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _chars_for_units(line: str, units: int, encoding: str) -> int:
    """How many code points of ``line`` the first ``units`` code units cover (clamped)."""
    if encoding == UTF32 or line.isascii():
        return max(0, min(units, len(line)))
    used = 0
    for i, ch in enumerate(line):
        cp = ord(ch)
        if encoding == UTF8:
            width = 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
        else:
            width = 2 if cp > 0xFFFF else 1
        if used + width > units:
            return i
        used += width
    return len(line)


class PositionMap:
    """Converts between offsets into one text and LSP positions for one encoding."""

    __slots__ = ("lines", "encoding", "_ascii", "lead")

    def __init__(self, text: str | LineIndex, encoding: str = UTF16, *, bom: bool = False) -> None:
        self.lines = text if isinstance(text, LineIndex) else LineIndex(text)
        self.encoding = str(encoding or UTF16)
        self._ascii: bool | None = None
        #: code units of line 0 before offset 0: a byte-order mark the client's buffer holds
        #: and the parse (whose offsets these are) dropped, which still takes a column there
        self.lead = _units("\ufeff", self.encoding) if bom else 0

    @property
    def plain(self) -> bool:
        """Whether a column is its offset from the line start in every encoding (an ASCII
        text without a dropped byte-order mark): callers may then skip the conversion."""
        if self._ascii is None:
            self._ascii = self.lines.text.isascii()
        return self._ascii and not self.lead

    def wire(self, offset: int) -> dict[str, int]:
        """``position(offset)`` in its JSON form, without building an lsprotocol object.

        Large answers (7,000 symbols for a 500 KB syllabus) are built in this form: creating
        and then unstructuring that many attrs objects costs more than the rest of the work.
        In an ASCII text a column is its code-unit count in every encoding.
        """
        if self.plain:
            starts = self.lines.starts
            offset = max(0, min(offset, len(self.lines.text)))
            line = bisect.bisect_right(starts, offset) - 1
            return {"line": line, "character": offset - starts[line]}
        p = self.position(offset)
        return {"line": p.line, "character": p.character}

    @property
    def text(self) -> str:
        return self.lines.text

    def position(self, offset: int) -> types.Position:
        line, col = self.lines.line_col(offset)
        before = self.lines.line_text(line)[: col - 1]
        lead = self.lead if line == 1 else 0
        return types.Position(line=line - 1, character=lead + _units(before, self.encoding))

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.position(span.start), end=self.position(span.end))

    def offset(self, position: types.Position) -> int:
        """Offset of an LSP position; a character past the line end clamps to the line end."""
        line = position.line + 1
        if line > self.lines.line_count:
            return len(self.lines.text)
        text = self.lines.line_text(line)
        units = max(0, position.character - self.lead) if line == 1 else position.character
        col = _chars_for_units(text, units, self.encoding)
        return self.lines.offset(line, col + 1)

    def span(self, range_: types.Range) -> Span:
        return Span(self.offset(range_.start), self.offset(range_.end))

    def line_of(self, offset: int) -> int:
        """0-based line of an offset."""
        return self.lines.line_col(offset)[0] - 1

    def line_end(self, offset: int) -> int:
        """Offset of the end of the line that holds ``offset`` (before its line break)."""
        line, _ = self.lines.line_col(offset)
        return self.lines.offset(line, len(self.lines.line_text(line)) + 1)
