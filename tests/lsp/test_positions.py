"""Positions in the negotiated encoding: UTF-16 by default, UTF-8 or UTF-32 when the client
prefers them; non-ASCII task names and emoji in comments move the columns."""

from __future__ import annotations

import pytest
from lsp_support import RecordingClient, fixture_text, pos, start, uri_of
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

NAME = "unicode.jsonc"


@pytest.mark.parametrize(
    ("offered", "negotiated"),
    [(None, "utf-16"), (["utf-8", "utf-16"], "utf-8"), (["utf-32"], "utf-32")],
)
async def test_hover_and_diagnostic_columns_follow_the_encoding(
    bare: RecordingClient, offered: list[str] | None, negotiated: str
) -> None:
    result = await start(bare, encodings=offered)
    assert result.capabilities.position_encoding == negotiated
    text = fixture_text(NAME)
    uri = uri_of(NAME)
    bare.open(uri, text, language_id="jsonc")
    # the Pöng block after the 🚀 comment: its hover range starts where the encoding says
    block_start = text.index('{"$repeat": {"$episode": "Pöng", "größe"')
    at = pos(text, '"größe"', 1, encoding=negotiated)
    hover = await bare.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert hover is not None and "task **Pöng**" in hover.contents.value
    assert "`größe` = `2`" in hover.contents.value
    assert hover.range.start == pos(text, text[block_start:block_start + 30], encoding=negotiated)
    assert hover.range.start.line == 5
    expected_char = {"utf-16": 36, "utf-8": 38, "utf-32": 35}[negotiated]
    assert hover.range.start.character == expected_char
    # T409's related location (the trained block) is on the emoji line too
    diagnostics = await bare.diagnostics_for(uri, 1)
    t409 = next(d for d in diagnostics if d.code == "T409")
    assert t409.range.start == pos(text, '"Pöng"}, "count": 5', encoding=negotiated)
    related = t409.related_information[0].location.range.start
    assert related.line == 5 and related.character > expected_char


async def test_edits_are_read_in_utf16(client: RecordingClient) -> None:
    text = fixture_text(NAME)
    uri = uri_of(NAME)
    client.open(uri, text, language_id="jsonc")
    await client.diagnostics_for(uri, 1)
    # replace "Pöng" in the block after the emoji by "Pong": columns are UTF-16 units
    start = pos(text, 'Pöng", "größe"')
    client.change(uri, 2, (start.line, start.character), (start.line, start.character + 4), "Pong")
    diagnostics = await client.diagnostics_for(uri, 2)
    assert "T409" not in [d.code for d in diagnostics]
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [c.name for c in symbols[0].children] == ["Pong ×50", "乒乓 ×10"]
