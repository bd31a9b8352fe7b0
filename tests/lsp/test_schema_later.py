"""The outline, hover and completion of a just-opened syllabus, and of the edits typed right
after it, are answered without waiting for its schema check; the diagnostics still carry the
check's findings, exactly those of a fresh server, and only for the current version.

On a 500 KB syllabus the check is most of a second (jsonschema on each of thousands of distinct
instructions), and the answers used to wait for it inside the open's parse. The parse now
leaves it to the lint (``Analysis.checked``). The server under test holds every whole-document
check (``SYLLA_TEST_HOLD_SCHEMA``) until the test releases it, so the requests find the check
running however fast the machine is: before the change they waited for it for ever.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from typing import AsyncIterator

import pytest
import pytest_lsp
from lsp_support import SERVER_COMMAND, RecordingClient, make_client, pos, start, symbols, uri_of
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = pytest.mark.editor

#: a syllabus with one instruction the schema refuses (a count below 1), and one of the rules' findings
TEXT = phase_pairs(min_bytes=50_000).replace('"count": 1000}', '"count": 0}', 1)
LINES = TEXT.splitlines(keepends=True)
EDIT_LINE = next(i for i, line in enumerate(LINES) if '"count": 5000}' in line)
#: a hang's bound: before the change the held check kept every answer back for ever
BOUND = 120

HOLD = Path(tempfile.mkdtemp(prefix="sylla-hold-schema-"))
HELD_CHECK = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client,
                                server_env={**os.environ, "SYLLA_TEST_HOLD_SCHEMA": str(HOLD)})


def _release() -> None:
    (HOLD / "schema").touch()


@pytest_lsp.fixture(config=HELD_CHECK)
async def checking(lsp_client: RecordingClient) -> AsyncIterator[None]:
    """A started server whose schema checks of whole documents wait for ``_release``."""
    for old in HOLD.iterdir():
        old.unlink()
    await start(lsp_client)
    yield
    _release()  # a test that failed before its release: let the server stop
    await lsp_client.shutdown_session()


def _hover(client: RecordingClient, uri: str, text: str) -> "asyncio.Future[types.Hover | None]":
    return client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, '"$episode"', 3))
    )


def _complete(client: RecordingClient, uri: str, text: str) -> "asyncio.Future[types.CompletionList | list[types.CompletionItem] | None]":
    return client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, '{"$repeat": {"', 14))
    )


def _shown(diagnostics: list[types.Diagnostic]) -> list[tuple[object, ...]]:
    return [(d.range, d.code, d.message, d.severity) for d in diagnostics]


@pytest.mark.asyncio
async def test_answers_come_before_the_schema_check_and_diagnostics_after_it(
    checking: RecordingClient, fresh: RecordingClient
) -> None:
    uri = uri_of("schema-later.json")
    checking.open(uri, TEXT)
    opened = await asyncio.wait_for(symbols(checking, uri), BOUND)
    assert await asyncio.wait_for(_hover(checking, uri, TEXT), BOUND) is not None
    assert await asyncio.wait_for(_complete(checking, uri, TEXT), BOUND)

    # the first edit, typed while the open's check is still held: parsed from the open's
    # unchecked parse, answered at once too
    at = LINES[EDIT_LINE].index('"count": 5000') + len('"count": ')
    checking.change(uri, 2, (EDIT_LINE, at), (EDIT_LINE, at), "7")
    edited = "".join(LINES[:EDIT_LINE]) + LINES[EDIT_LINE][:at] + "7" + LINES[EDIT_LINE][at:] + "".join(LINES[EDIT_LINE + 1:])
    changed = await asyncio.wait_for(symbols(checking, uri), BOUND)
    assert await asyncio.wait_for(_hover(checking, uri, edited), BOUND) is not None
    assert not [p for p in checking.published if p.uri == uri]  # nothing is published unchecked

    _release()
    found = await checking.diagnostics_for(uri, 2, timeout=BOUND)
    assert [p.version for p in checking.published if p.uri == uri] == [2]  # the open's lint was stale: never shown

    fresh_uri, unedited_uri = uri_of("schema-later-fresh.json"), uri_of("schema-later-unedited.json")
    fresh.open(fresh_uri, edited)
    fresh.open(unedited_uri, TEXT)
    wanted = await fresh.diagnostics_for(fresh_uri, 1, timeout=BOUND)
    assert _shown(found) == _shown(wanted)
    assert any(d.message == "count must be a positive integer, got 0" for d in found)  # the schema's finding
    assert changed == await symbols(fresh, fresh_uri)
    assert opened == await symbols(fresh, unedited_uri)
    assert opened != changed
