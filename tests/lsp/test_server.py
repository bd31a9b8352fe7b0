"""The server's own wiring (``lsp/server.py``), in process: what a lint leaves ready for the
requests that follow it."""

from __future__ import annotations

import asyncio
import json
import linecache
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol.json_rpc import JsonRPCResponseMessage

from sylla.grammar.core import LineIndex
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.lsp.debounce import Superseded
from sylla.lsp.languages import CompletionRequest, editor_for
from sylla.lsp.pygls_compat import LspTextDocument
from sylla.lsp.server import create_server

TEXT = phase_pairs(min_bytes=20_000)


def _serving(path: Path, text: str, version: int = 1) -> tuple[Any, str]:
    """A server in process, initialised, with ``text`` (written at ``path``) open at
    ``version`` and not yet linted."""
    server = create_server()
    # pygls's initialize makes the workspace, then hands sylla's handler over (run here as pygls runs it)
    for handler, args, _ in server.protocol.lsp_initialize(types.InitializeParams(capabilities=types.ClientCapabilities())):
        handler(*args)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    server.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="json", version=version, text=text))
    return server, uri


def test_the_open_lint_writes_the_outline_the_first_edit_starts_from(tmp_path: Path) -> None:
    """An opened syllabus's lint writes its outline before any documentSymbol request, so the
    first edit's outline is written from its pieces (the phases the edit touched) rather than
    from nothing (every phase: 90-126 ms of CPU at 500 KB)."""
    server, uri = _serving(tmp_path / "opened.json", TEXT)
    snap = server.snapshot(uri)
    assert snap is not None

    outcome = server.compute(snap)  # the open's lint, as the scheduler runs it

    assert outcome.version == 1 and outcome.language is not None
    analysis = server.documents.latest(uri)
    assert analysis is not None and analysis.version == 1
    assert analysis.has_view("symbols")
    assert uri in server.outlines


def _opened(tmp_path: Path) -> tuple[Any, str]:
    """A server in process with ``TEXT`` opened and its open's lint run, as the scheduler runs it."""
    server, uri = _serving(tmp_path / "opened.json", TEXT)
    snap = server.snapshot(uri)
    assert snap is not None
    server.compute(snap)
    return server, uri


def test_the_first_edit_after_the_open_lint_reuses_the_parse_line_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The document keeps the open's parse's line index of its text, so the first edit after
    opening moves it (``LineIndex.edited``) instead of finding every line break of the
    document again on the event loop, before the edit's requests are read (2-4 ms at 500 KB)."""
    server, uri = _opened(tmp_path)
    built: list[str] = []
    plain = LineIndex.__init__

    def counting(self: LineIndex, text: str) -> None:
        built.append(text)
        plain(self, text)

    monkeypatch.setattr(LineIndex, "__init__", counting)
    line = TEXT.splitlines().index(next(x for x in TEXT.splitlines() if '"count": 100}' in x))
    at = TEXT.splitlines()[line].index('"count": 100') + len('"count": ')
    server.workspace.update_text_document(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        types.TextDocumentContentChangePartial(range=types.Range(types.Position(line, at), types.Position(line, at)), text="7"),
    )
    doc = server.workspace.get_text_document(uri)
    assert isinstance(doc, LspTextDocument)  # sylla's documents, as the session's initialize makes them
    edited = TEXT.replace('"count": 100}', '"count": 7100}', 1)
    assert doc.source == edited
    assert not built
    assert list(doc.lines) == edited.splitlines(keepends=True)


def _position(offset: int) -> types.Position:
    return types.Position(line=TEXT.count("\n", 0, offset), character=offset - TEXT.rfind("\n", 0, offset) - 1)


def _generated() -> int:
    """How many functions cattrs has written so far (each goes into ``linecache``)."""
    return sum(1 for name in list(linecache.cache) if str(name).startswith("<cattrs generated"))


def test_the_edit_messages_converters_are_made_when_the_session_starts(tmp_path: Path) -> None:
    """After ``initialized``, the messages an edit brings (a change, the outline, hover and
    completion requests) and the answers to them are read and written without cattrs writing
    code for them: it used to on the first edit after opening, milliseconds per type."""
    server, uri = _opened(tmp_path)

    async def initialized() -> None:
        server.protocol.handle_message(server.protocol.structure_message({"jsonrpc": "2.0", "method": "initialized", "params": {}}))

    asyncio.run(initialized())
    analysis = server.documents.latest(uri)
    assert analysis is not None
    editor = editor_for(analysis.language)
    assert editor.hover is not None and editor.complete is not None
    at = TEXT.index('"$episode"') + 3
    position = {"line": _position(at).line, "character": _position(at).character}
    before = _generated()
    document = {"uri": uri}
    for message in (
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {**document, "version": 2}, "contentChanges": [
            {"range": {"start": position, "end": position}, "text": "7"}]}},
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/documentSymbol", "params": {"textDocument": document}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": document, "position": position}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion", "params": {"textDocument": document, "position": position}},
    ):
        server.protocol.structure_message(json.loads(json.dumps(message)))
    hover = editor.hover(analysis, at)
    task = TEXT.index('"$episode": "Pong"') + len('"$episode": "P')  # task names offered
    completion = editor.complete(CompletionRequest(TEXT, _position(task), "utf-16", True, True, {}))
    assert hover is not None and completion is not None and completion.items
    for answer in (hover, completion):
        json.dumps(JsonRPCResponseMessage(id=0, result=answer, jsonrpc="2.0"), default=server.protocol._serialize_message)
    assert _generated() == before


def test_a_lint_stops_at_its_next_step_once_its_document_has_a_newer_version(tmp_path: Path) -> None:
    """An edit typed while the open's lint runs (its schema check of a large syllabus takes most
    of a second) no longer waits for that lint to finish its check and rules, only to be
    discarded: it stops at its next step, and the newer version's lint gives the findings a
    server that saw only the newer version gives."""
    server, uri = _serving(tmp_path / "typed.json", TEXT)
    opened = server.snapshot(uri)
    assert opened is not None
    at = _position(TEXT.index('"count": 100') + len('"count": '))
    server.workspace.update_text_document(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        types.TextDocumentContentChangePartial(range=types.Range(at, at), text="x"),
    )
    with pytest.raises(Superseded):
        server.compute(opened)
    typed = server.snapshot(uri)
    assert typed is not None and typed.version == 2
    outcome = server.compute(typed)

    fresh, same = _serving(tmp_path / "typed.json", typed.text, version=2)  # a server that saw only version 2
    alone = fresh.snapshot(same)
    assert alone is not None
    expected = fresh.compute(alone)
    assert outcome.findings and [(f.code, f.span) for f in outcome.findings] == [(f.code, f.span) for f in expected.findings]
    assert outcome.diagnostics == expected.diagnostics
