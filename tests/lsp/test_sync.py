"""Incremental sync keeps the server's copy equal to the editor's, with LSP's line rules.

``separators.json`` has U+2028, U+2029 and U+0085 (and an emoji) inside a JSON string. For
LSP they are ordinary characters; ``str.splitlines`` breaks lines at the first three, which is
how pygls 2.1's own document lost sync. The client here applies its edits to its own copy
with LSP's rules (written out independently below), and the diagnostics the server publishes
for the last version must be exactly those of a fresh document holding the client's text.
"""

from __future__ import annotations

import re

import pytest
from lsp_support import RecordingClient, fixture_text, start, uri_of
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

NAME = "separators.json"


def _offset(text: str, line: int, character: int, encoding: str) -> int:
    """Offset of an LSP position: lines end only at \\n, \\r\\n or \\r."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    units = 0
    for i in range(start, end):
        if units >= character or text[i] in "\r\n":
            return i
        ch = text[i]
        units += len(ch.encode("utf-8")) if encoding == "utf-8" else len(ch.encode("utf-16-le")) // 2
    return end


def _edit(client: RecordingClient, uri: str, text: str, version: int, start: tuple[int, int], end: tuple[int, int],
          new: str, encoding: str) -> str:
    client.change(uri, version, start, end, new)
    a, b = _offset(text, *start, encoding), _offset(text, *end, encoding)
    return text[:a] + new + text[b:]


def _units(s: str, encoding: str) -> int:
    return len(s.encode("utf-8")) if encoding == "utf-8" else len(s.encode("utf-16-le")) // 2


def _key(diagnostics: list[types.Diagnostic]) -> list[tuple[str, str, object]]:
    return [(str(d.code), d.message, d.range) for d in diagnostics]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
async def test_edits_after_unicode_line_separators_stay_in_sync(bare: RecordingClient, encoding: str) -> None:
    result = await start(bare, encodings=[encoding])
    assert result.capabilities.position_encoding == encoding
    sync = result.capabilities.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Incremental
    text = fixture_text(NAME)
    assert "\u2028" in text and "\u2029" in text and "\x85" in text
    uri = uri_of(NAME)
    bare.open(uri, text)
    opened = await bare.diagnostics_for(uri, 1)
    assert "N602" in [d.code for d in opened]

    # 1. remove the trailing comma after the last instruction (below the separators)
    line8 = text.split("\n")[8]
    col = _units(line8[: line8.rindex(",")], encoding)
    text = _edit(bare, uri, text, 2, (8, col), (8, col + 1), "", encoding)
    # 2. on the separators' own line, after them: "breaks" -> "gaps"
    line1 = text.split("\n")[1]
    col = _units(line1[: line1.index("breaks")], encoding)
    text = _edit(bare, uri, text, 3, (1, col), (1, col + len("breaks")), "gaps", encoding)
    # 3. a multi-line insertion between instructions
    text = _edit(bare, uri, text, 4, (4, 0), (4, 0), '    {"$info": {"disable_updates": true}},\n    {"$info": {}},\n', encoding)
    after = await bare.diagnostics_for(uri, 4)
    assert '"bad\u2028syllabus\u2029with\x85gaps \U0001F680"' in text

    fresh = uri_of("separators-fresh.json")
    bare.open(fresh, text)
    expected = await bare.diagnostics_for(fresh, 1)
    assert "N602" not in [d.code for d in expected]
    assert _key(after) == _key(expected)
