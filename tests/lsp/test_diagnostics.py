"""Diagnostics: the linter's findings pushed (or pulled) with code, source, link, related
information and the document version, on open, change and save."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import RecordingClient, fixture_text, start, uri_of
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

BAD_CODES = [
    ("T401", 2), ("P303", 5), ("P306", 5), ("H501", 7), ("P302", 7), ("N602", 8),
]


def _codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return [(str(d.code), d.range.start.line) for d in diagnostics]


async def test_open_publishes_findings_with_code_source_link_and_related(client: RecordingClient) -> None:
    uri = uri_of("bad.json")
    client.open(uri, fixture_text("bad.json"))
    diagnostics = await client.diagnostics_for(uri, 1)
    assert _codes(diagnostics) == BAD_CODES
    assert {d.source for d in diagnostics} == {"sylla"}
    p303 = next(d for d in diagnostics if d.code == "P303")
    assert p303.severity == types.DiagnosticSeverity.Error
    assert p303.range == types.Range(start=types.Position(5, 15), end=types.Position(5, 24))
    assert p303.code_description.href.startswith("file://") and "p303" in p303.code_description.href.lower()
    [related] = p303.related_information
    assert related.message == "first used here"
    assert related.location.uri == uri and related.location.range.start.line == 3
    n602 = next(d for d in diagnostics if d.code == "N602")
    assert n602.severity == types.DiagnosticSeverity.Warning


async def test_change_and_save_republish_for_the_new_version(client: RecordingClient) -> None:
    uri = uri_of("bad.json")
    text = fixture_text("bad.json")
    client.open(uri, text)
    await client.diagnostics_for(uri, 1)
    # delete the trailing comma after the last instruction (line 8)
    line = text.splitlines()[8]
    col = line.rindex(",")
    client.change(uri, 2, (8, col), (8, col + 1), "")
    after_change = await client.diagnostics_for(uri, 2)
    assert "N602" not in [d.code for d in after_change]
    assert len(after_change) == len(BAD_CODES) - 1
    client.published.clear()
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert _codes(await client.diagnostics_for(uri, 2)) == _codes(after_change)


async def test_other_json_files_get_no_diagnostics(client: RecordingClient) -> None:
    uri = uri_of("package.json")
    client.open(uri, fixture_text("package.json"))
    assert await client.diagnostics_for(uri, 1) == []


async def test_close_clears_diagnostics(client: RecordingClient) -> None:
    uri = uri_of("bad.json")
    client.open(uri, fixture_text("bad.json"))
    await client.diagnostics_for(uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await client.diagnostics_for(uri, None) == []


async def test_pull_diagnostics_for_clients_that_pull(bare: RecordingClient) -> None:
    result = await start(bare, pull=True)
    assert result.capabilities.diagnostic_provider is not None
    uri = uri_of("bad.json")
    bare.open(uri, fixture_text("bad.json"))
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    report = await bare.text_document_diagnostic_async(params)
    assert report.kind == "full"
    assert _codes(report.items) == BAD_CODES
    again = await bare.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=params.text_document, previous_result_id=report.result_id)
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id
    assert bare.published == []  # a pulling client is never pushed to


async def test_pull_clients_are_asked_to_refresh_when_settings_change(bare: RecordingClient) -> None:
    await start(bare, pull=True)
    uri = uri_of("bad.json")
    bare.open(uri, fixture_text("bad.json"))
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    assert len((await bare.text_document_diagnostic_async(params)).items) == len(BAD_CODES)
    bare.set_configuration({"select": ["N602"]}, section="sylla")
    bare.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    deadline = asyncio.get_running_loop().time() + 60  # a hang's bound, not a speed
    while not bare.diagnostic_refresh_count and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert bare.diagnostic_refresh_count == 1
    report = await bare.text_document_diagnostic_async(params)
    assert [d.code for d in report.items] == ["N602"]
