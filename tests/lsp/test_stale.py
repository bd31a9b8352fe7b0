"""Requests during the parse of a large edit: answered from the previous parse, moved through
the edit, then refreshed (lsp/stale.py), through a real client and server.

The syllabus is 500 KB; each request is sent with the didChange, in the same write
(``one_write``). The server holds the new version's parse until the test releases it
(``SYLLA_TEST_HOLD_PARSE``, lsp/documents.py): the incremental parse takes a few milliseconds,
and on a busy machine it could end before the server turns to a request sent with it (issue
38), so the test, not the machine's speed, decides that the requests find it running. The
edit inserts a block of 7 episodes into
the first phase, one line below its ``$phase`` mark: every later line moves down by one, and
every phase's episode range moves by 7, so a stale answer is recognisable by its labels (the
old episode ranges) while its positions must already be those of the new text.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from lsp_support import RecordingClient, one_write, release, start, uri_of
from lsprotocol import types

from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = pytest.mark.editor


TEXT = phase_pairs(min_bytes=500_000)
LINES = TEXT.splitlines()
FIRST_BLOCK = 5  # 0-based line of the first block, right under {"$phase": "1.train"}
NEW_BLOCK = '    {"$repeat": {"$episode": "Pong"}, "count": 7},\n'
WHOLE = types.Range(start=types.Position(0, 0), end=types.Position(len(LINES) + 2, 0))


def first_phase_episodes() -> int:
    """Episodes of the first phase in the original text, counted from the text itself."""
    end = next(i for i, line in enumerate(LINES) if i > 4 and '"$phase"' in line)
    return sum(int(m.group(1)) for m in re.finditer(r'"count": (\d+)', "\n".join(LINES[4:end])))


def hint_labels(hints: list[types.InlayHint] | None) -> list[tuple[int, int, str]]:
    return [(h.position.line, h.position.character, str(h.label)) for h in hints or ()]


def folds(ranges: list[types.FoldingRange] | None) -> list[tuple[int, int]]:
    return [(f.start_line, f.end_line) for f in ranges or ()]


async def open_and_edit(client: RecordingClient, name: str, *requests: tuple[str, Any]) -> tuple[str, list, list, list[asyncio.Future[Any]]]:
    """Open the syllabus, take the fresh hints and folds of version 1, insert the block; the
    ``requests`` ``(method, params)`` go with the change (``one_write``) and are returned
    unanswered: the change's parse waits for the test's `release`."""
    uri = uri_of(name)
    client.open(uri, TEXT)
    await client.diagnostics_for(uri, 1, timeout=300)
    doc = types.TextDocumentIdentifier(uri=uri)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc, range=WHOLE))
    ranges = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc))
    with one_write(client):
        client.change(uri, 2, (FIRST_BLOCK + 1, 0), (FIRST_BLOCK + 1, 0), NEW_BLOCK)
        # send_request writes now, inside the one write (pytest-lsp's send_request_async is
        # a coroutine, which would send only once awaited, after the change)
        pending = [asyncio.wrap_future(client.protocol.send_request(method, params)) for method, params in requests]
    return uri, hint_labels(hints), folds(ranges), pending


@pytest.mark.asyncio
async def test_requests_right_after_a_change_get_the_previous_parse_moved_then_a_refresh(held: RecordingClient, gate: Path) -> None:
    await start(held, refresh=True)
    doc = types.TextDocumentIdentifier(uri=uri_of("stale-500k.json"))
    uri, old_hints, old_folds, pending = await open_and_edit(
        held, "stale-500k.json",
        (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintParams(text_document=doc, range=WHOLE)),
        (types.TEXT_DOCUMENT_FOLDING_RANGE, types.FoldingRangeParams(text_document=doc)),
    )
    hints, ranges = await asyncio.gather(*pending)
    stale_hints, stale_folds = hint_labels(hints), folds(ranges)
    # answered while the parse is held: no refresh can have come yet
    assert not held.refreshes

    # the previous parse: the same labels (the old episode ranges) ...
    assert [label for *_, label in stale_hints] == [label for *_, label in old_hints]
    # ... at the same marks, which are one line further down from the second phase on
    assert stale_hints[0][:2] == old_hints[0][:2]
    assert [h[:2] for h in stale_hints[1:]] == [(line + 1, col) for line, col, _ in old_hints[1:]]
    assert len(stale_hints) == len(old_hints) > 100

    release(gate, 2)
    await held.diagnostics_for(uri, 2, timeout=300)
    deadline = asyncio.get_running_loop().time() + 300  # bounds a hang
    while {m for m, _ in held.refreshes} != {types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_FOLDING_RANGE_REFRESH}:
        assert asyncio.get_running_loop().time() < deadline, f"refreshes: {held.refreshes}"
        await asyncio.sleep(0.01)

    # the refresh: hints of the new parse; the first phase now has 7 more episodes
    fresh = hint_labels(
        await held.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc, range=WHOLE))
    )
    total = first_phase_episodes()
    assert f"episodes 0–{total - 1}" in old_hints[0][2]
    assert f"episodes 0–{total + 7 - 1}" in fresh[0][2]
    assert [h[:2] for h in fresh] == [h[:2] for h in stale_hints]
    assert [label for *_, label in fresh] != [label for *_, label in stale_hints]
    # folds are positions only: the moved ones (the first phase's stretched over the new
    # line, every later one a line down) are exactly the new parse's
    new_folds = folds(await held.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)))
    assert stale_folds == new_folds
    assert new_folds != old_folds


@pytest.mark.asyncio
async def test_hover_on_the_edit_waits_and_away_from_it_answers_what_is_certain(held: RecordingClient, gate: Path) -> None:
    await start(held, refresh=True)
    doc = types.TextDocumentIdentifier(uri=uri_of("stale-hover-500k.json"))
    on_edit = types.Position(FIRST_BLOCK + 1, NEW_BLOCK.index(": 7") + 2)
    below = types.Position(FIRST_BLOCK + 3, LINES[FIRST_BLOCK + 2].index("Pong"))
    above = types.Position(4, LINES[4].index("$phase"))
    _, _, _, (edited, moved, key) = await open_and_edit(
        held, "stale-hover-500k.json",
        *[(types.TEXT_DOCUMENT_HOVER, types.HoverParams(text_document=doc, position=at)) for at in (on_edit, below, above)],
    )
    moved, key = await moved, await key
    # the block below the edit: its own facts from the previous parse, at its new line;
    # where it sits in the schedule changed with the edit and is not claimed
    count = re.search(r'"count": (\d+)', LINES[FIRST_BLOCK + 2]).group(1)
    assert moved is not None and f"count: {count}" in moved.contents.value
    assert "being recounted" in moved.contents.value and "- phase:" not in moved.contents.value
    assert moved.range.start.line == FIRST_BLOCK + 3
    # a key above the edit: documentation, same place
    assert key is not None and "$phase" in key.contents.value and key.range.start.line == 4
    # the inserted block exists only in the new parse: the hover on it waits for that parse
    assert not edited.done()
    release(gate, 2)
    edited = await edited
    assert edited is not None and "count: 7" in edited.contents.value
    assert edited.range.start.line == FIRST_BLOCK + 1


@pytest.mark.asyncio
async def test_a_client_without_refresh_waits_for_the_new_parse(held: RecordingClient, gate: Path) -> None:
    await start(held)
    doc = types.TextDocumentIdentifier(uri=uri_of("stale-norefresh-500k.json"))
    above = types.Position(4, LINES[4].index("$phase"))
    uri, old_hints, _, (pending, key) = await open_and_edit(
        held, "stale-norefresh-500k.json",
        (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintParams(text_document=doc, range=WHOLE)),
        (types.TEXT_DOCUMENT_HOVER, types.HoverParams(text_document=doc, position=above)),
    )
    # the hover sent after the hints is answered while the parse is held; the hints are not
    assert (await key) is not None
    assert not pending.done()
    release(gate, 2)
    hints = hint_labels(await pending)
    assert f"episodes 0–{first_phase_episodes() + 7 - 1}" in hints[0][2]
    assert hints[0][2] != old_hints[0][2]
    assert not held.refreshes
