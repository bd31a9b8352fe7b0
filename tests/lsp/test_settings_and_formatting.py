"""Client settings merged with the file's config, re-read on change; formatting."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import RecordingClient, fixture_text, start, uri_of
from lsprotocol import types

from sylla.linter import format_text

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]


def _codes(diagnostics: list[types.Diagnostic]) -> list[str | int | None]:
    return [d.code for d in diagnostics]


async def test_settings_are_pulled_and_re_read_on_change(bare: RecordingClient) -> None:
    bare.set_configuration({"ignore": ["T4", "P3"]}, section="sylla")
    await start(bare)
    uri = uri_of("bad.json")
    bare.open(uri, fixture_text("bad.json"))
    # the first lint may run before the pulled settings arrive; their lint follows it
    diagnostics = await bare.diagnostics_until(uri, 1, lambda got: _codes(got) == ["H501", "N602"])
    assert _codes(diagnostics) == ["H501", "N602"]
    bare.published.clear()
    bare.set_configuration({"select": ["N"]}, section="sylla")
    bare.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert [d.code for d in await bare.diagnostics_for(uri, 1)] == ["N602"]


async def test_settings_pushed_in_did_change_configuration(client: RecordingClient) -> None:
    uri = uri_of("bad.json")
    client.open(uri, fixture_text("bad.json"))
    assert len(await client.diagnostics_for(uri, 1)) == 6  # bad.json is a one-task syllabus: STE, no T403
    client.published.clear()
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"sylla": {"select": ["P303"]}})
    )
    assert [d.code for d in await client.diagnostics_for(uri, 1)] == ["P303"]


async def test_bad_settings_are_reported_and_linting_goes_on(bare: RecordingClient) -> None:
    bare.set_configuration({"profile": "no-such-profile"}, section="sylla")
    await start(bare)
    uri = uri_of("bad.json")
    bare.open(uri, fixture_text("bad.json"))
    assert len(await bare.diagnostics_for(uri, 1)) == 6
    # said once the pulled settings are applied, which may come after the first lint
    deadline = asyncio.get_running_loop().time() + 60
    while not any("no-such-profile" in m.message for m in bare.shown):
        assert asyncio.get_running_loop().time() < deadline, [m.message for m in bare.shown]
        await asyncio.sleep(0.01)
    assert len(await bare.diagnostics_for(uri, 1)) == 6  # the defaults: linting went on


async def test_formatting_is_sylla_fmt(client: RecordingClient) -> None:
    text = fixture_text("good.json")
    uri = uri_of("good.json")
    client.open(uri, text)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=uri), options=options)
    )
    expected = format_text(text)
    assert expected is not None and expected != text
    [edit] = edits
    assert edit.new_text == expected
    assert edit.range.start == types.Position(0, 0)
    assert edit.range.end == types.Position(len(text.splitlines()), 0)
    formatted_uri = uri_of("formatted.json")
    client.open(formatted_uri, expected)
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=formatted_uri), options=options)
    )
    assert again is not None and list(again) == []
