"""A document's text after a series of incremental changes, each applied with the line index
kept from the change before (``sync.apply_indexed``), is the text an editor holds, and the
kept index is the index of that text, with every kind of line break and characters wider than
one code unit, in every position encoding."""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from sylla.grammar.core import LineIndex
from sylla.lsp.sync import apply_indexed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
TEXTS = [(FIXTURES / "separators.json").read_text(encoding="utf-8"),
         (FIXTURES / "good.json").read_text(encoding="utf-8").replace("\n", "\r\n"), "a\rb\n\nc𝄞é\r\n"]
TYPED = st.lists(st.sampled_from(["x", "\n", "\r", "\r\n", "𝄞", "é", " "]), max_size=3).map("".join)


def _position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    """The LSP position of a code-point offset: lines end only at \\n, \\r\\n or \\r."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    line = bisect.bisect_right(starts, offset) - 1
    before = text[starts[line] : offset]
    units = len(before.encode("utf-8")) if encoding == "utf-8" else len(before) if encoding == "utf-32" else len(before.encode("utf-16-le")) // 2
    return line, units


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TEXTS), st.sampled_from(["utf-16", "utf-8", "utf-32"]), st.data())
def test_kept_index_follows_the_text(text: str, encoding: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    for _ in range(4):
        a = data.draw(st.integers(0, len(text)))
        b = data.draw(st.integers(a, min(len(text), a + 4)))
        if text[a - 1 : a + 1] == "\r\n" or text[b - 1 : b + 1] == "\r\n":
            continue  # a position cannot fall between the two characters of one line break
        start, end = _position(text, a, encoding), _position(text, b, encoding)
        new = data.draw(TYPED)
        text = text[:a] + new + text[b:]
        change = types.TextDocumentContentChangePartial(range=types.Range(types.Position(*start), types.Position(*end)), text=new)
        index = apply_indexed(index, change, encoding)
        assert index.text == text
        assert index.starts == LineIndex(text).starts
