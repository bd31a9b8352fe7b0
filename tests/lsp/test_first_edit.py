"""The first edit typed into a just-opened syllabus, while the server still parses the opened
text: the edit's documentSymbol and diagnostics are those of the edited text, exactly what a
fresh server opened on it answers. The edit's parse waits for the open's and is parsed from it
(``lsp/documents.py``), and its outline is written from the pieces of the open's outline,
which the open's lint writes (``lsp/server.py``); neither may change what the editor sees.

The open's parse is held (``SYLLA_TEST_HOLD_PARSE``) until the edit and the request have been
sent, so they find it running however fast the machine is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import RecordingClient, release, start, symbols, uri_of

from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = pytest.mark.editor

TEXT = phase_pairs(min_bytes=50_000)
LINES = TEXT.splitlines(keepends=True)
COUNT_LINE = next(i for i, line in enumerate(LINES) if '"$episode": "Pong"}, "count": 10}' in line)



@pytest.mark.asyncio
@pytest.mark.parametrize("new", ["7", "\n      "], ids=["count", "line-break"])
async def test_the_first_edit_while_the_open_is_parsed_gets_the_edited_texts_answers(
    held: RecordingClient, fresh: RecordingClient, gate: Path, new: str
) -> None:
    for old in gate.iterdir():
        old.unlink()  # the open's parse (version 1) waits too
    await start(held)
    uri = uri_of(f"first-edit-{len(new)}.json")
    held.open(uri, TEXT)
    at = LINES[COUNT_LINE].index('"count": 10') + len('"count": ')
    held.change(uri, 2, (COUNT_LINE, at), (COUNT_LINE, at), new)
    answer = asyncio.ensure_future(symbols(held, uri))  # sent while the open's parse is held
    release(gate, 2)
    edited = "".join(LINES[:COUNT_LINE]) + LINES[COUNT_LINE][:at] + new + LINES[COUNT_LINE][at:] + "".join(LINES[COUNT_LINE + 1:])

    fresh_uri, unedited_uri = uri_of(f"first-edit-fresh-{len(new)}.json"), uri_of(f"first-edit-unedited-{len(new)}.json")
    fresh.open(fresh_uri, edited)
    fresh.open(unedited_uri, TEXT)
    got, expected = await asyncio.wait_for(answer, 300), await symbols(fresh, fresh_uri)
    assert got == expected
    assert got != await symbols(fresh, unedited_uri)  # the edit shows in the outline
    found = await held.diagnostics_for(uri, 2, timeout=300)
    wanted = await fresh.diagnostics_for(fresh_uri, 1, timeout=300)
    assert [(d.range, d.code, d.message) for d in found] == [(d.range, d.code, d.message) for d in wanted]
