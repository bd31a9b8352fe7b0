"""The server's own wiring (``lsp/server.py``), in process: what a lint leaves ready for the
requests that follow it."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from sylla.grammar.syllabus.synth import phase_pairs
from sylla.lsp.server import create_server

TEXT = phase_pairs(min_bytes=20_000)


def test_the_open_lint_writes_the_outline_the_first_edit_starts_from(tmp_path: Path) -> None:
    """An opened syllabus's lint writes its outline before any documentSymbol request, so the
    first edit's outline is written from its pieces (the phases the edit touched) rather than
    from nothing (every phase: 90-126 ms of CPU at 500 KB)."""
    server = create_server()
    # pygls's initialize, which makes the workspace (a generator that hands sylla's handler over)
    list(server.protocol.lsp_initialize(types.InitializeParams(capabilities=types.ClientCapabilities())))
    path = tmp_path / "opened.json"
    path.write_text(TEXT, encoding="utf-8")
    uri = path.as_uri()
    server.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=TEXT))
    snap = server.snapshot(uri)
    assert snap is not None

    outcome = server.compute(snap)  # the open's lint, as the scheduler runs it

    assert outcome.version == 1 and outcome.language is not None
    analysis = server.documents.latest(uri)
    assert analysis is not None and analysis.version == 1
    assert analysis.has_view("symbols")
    assert uri in server.outlines
