"""The server keeps answering: closed documents, malformed requests, a 5 MB document and a
burst of 1,000 edits (whose diagnostics must match the last version)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import RecordingClient, fixture_text, release, start, uri_of
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _alive(client: RecordingClient) -> None:
    uri = uri_of("alive.json")
    text = fixture_text("good.json")
    client.open(uri, text)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_doc(uri)))
    assert [s.name for s in symbols] == ["1.train", "1.test", "2.train"]


async def test_requests_for_a_closed_document_are_answered(client: RecordingClient) -> None:
    uri = uri_of("bad.json")
    client.open(uri, fixture_text("bad.json"))
    await client.diagnostics_for(uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=_doc(uri)))
    position = types.Position(line=3, character=8)
    assert await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=position)) is None
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=_doc(uri),
            range=types.Range(start=position, end=position),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert actions is None
    assert await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=_doc(uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True))
    ) is None
    await _alive(client)


async def _raw_request(client: RecordingClient, msg_id: str, method: str, params: object) -> object:
    """Send a request exactly as given, bypassing the client's type checks."""
    future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    return await asyncio.wait_for(future, 10)


async def test_malformed_request_gets_a_protocol_error(client: RecordingClient) -> None:
    with pytest.raises(JsonRpcException) as info:
        await _raw_request(client, "bad-1", "textDocument/hover", {"textDocument": 5, "position": "nowhere"})
    assert info.value.code == -32602  # InvalidParams
    assert "Traceback" not in info.value.message and info.value.data is None
    with pytest.raises(JsonRpcException) as info:
        await _raw_request(client, "bad-2", "sylla/noSuchMethod", {})
    assert info.value.code == -32601  # MethodNotFound
    await _alive(client)


async def test_a_5_mb_document(client: RecordingClient) -> None:
    text = phase_pairs(min_bytes=5_000_000)
    assert len(text.encode()) >= 5_000_000
    uri = uri_of("big.json")
    client.open(uri, text)
    # the server answers other requests while it lints the big one
    await _alive(client)
    # the bound of a hang: a 5 MB lint takes seconds, many times that on a loaded machine
    diagnostics = await client.diagnostics_for(uri, 1, timeout=600)
    assert [d.code for d in diagnostics] == ["T401"]
    last_line = text.count("\n") - 4
    line = text.splitlines()[last_line]
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=_doc(uri), position=types.Position(line=last_line, character=line.index("Pong")))
    )
    assert hover is not None and "task **Pong**" in hover.contents.value


async def test_a_burst_of_1000_edits_lints_the_last_version(held: RecordingClient, gate: Path) -> None:
    """Only the last version's diagnostics are published. The parses of the edited versions
    wait until the whole burst is in (the test's `release`), so a lint that started during the
    burst (the 5 ms quiet window can pass between two of its messages on a busy machine) ends
    on a version that is no longer the document's and is dropped: what is published is decided
    by the burst, not by how its messages were spread in time."""
    await start(held)
    uri = uri_of("burst.json")
    text = fixture_text("bad.json")
    held.open(uri, text)
    await held.diagnostics_for(uri, 1)
    held.published.clear()
    # type 1,000 characters into the name, one edit per character
    col = text.splitlines()[1].index("bad-syllabus")
    for i in range(1000):
        held.change(uri, i + 2, (1, col + i), (1, col + i), "x")
    # ... and finally remove the trailing comma
    line = text.splitlines()[8]
    held.change(uri, 1002, (8, line.rindex(",")), (8, line.rindex(",") + 1), "")
    # the server handles messages in order: once this is answered, every change is in
    elsewhere = types.HoverParams(text_document=_doc(uri_of("elsewhere.json")), position=types.Position(0, 0))
    assert await held.text_document_hover_async(elsewhere) is None
    release(gate, 1002)
    diagnostics = await held.diagnostics_for(uri, 1002)
    assert "N602" not in [d.code for d in diagnostics]
    assert [d.code for d in diagnostics] == ["T401", "P303", "P306", "H501", "P302"]
    assert [p.version for p in held.published if p.uri == uri] == [1002]
