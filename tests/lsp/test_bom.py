"""A byte-order mark at the start of the client's buffer is a character of line 0 there: every
range on line 0 starts one UTF-16 unit later than in the same buffer without it (the parse
drops the mark, so its offsets must be moved back onto the buffer at the edge)."""

from __future__ import annotations

import pytest
from lsp_support import RecordingClient, fixture_text, uri_of
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

NAME = "one-line.json"


def _key(d: types.Diagnostic) -> tuple[object, ...]:
    return (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)


async def test_a_bom_in_the_buffer_moves_line_0_by_one_column(client: RecordingClient) -> None:
    text = fixture_text(NAME)
    plain, marked = uri_of(NAME), uri_of("one-line-with-bom.json")
    client.open(plain, text)
    client.open(marked, "\ufeff" + text)
    without = await client.diagnostics_for(plain, 1)
    with_bom = await client.diagnostics_for(marked, 1)
    assert without and all(d.range.start.line == 0 for d in without)
    moved = sorted(
        (code, line, start + 1, end_line, end + 1 if end_line == 0 else end)
        for code, line, start, end_line, end in map(_key, without)
    )
    # the mark itself is reported too (an engine loading strict JSON rejects it), after it
    assert sorted(map(_key, with_bom)) == sorted(moved + [("N601", 0, 1, 0, 1)])
    symbols = {}
    for uri in (plain, marked):
        symbols[uri] = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    for before, after in zip(symbols[plain], symbols[marked]):
        assert after.range.start.character == before.range.start.character + 1
        assert after.selection_range.start.character == before.selection_range.start.character + 1
    # a position sent by the client is read back through the mark: hover on the block
    at = text.index('"$repeat"') + 2
    hovers = [
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, at + shift))
        )
        for uri, shift in ((plain, 0), (marked, 1))
    ]
    assert hovers[0] is not None and hovers[1] is not None
    assert hovers[1].contents.value == hovers[0].contents.value
    assert hovers[1].range.start.character == hovers[0].range.start.character + 1
