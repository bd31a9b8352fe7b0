"""Document symbols, folding ranges and inlay hints, over stdio."""

from __future__ import annotations

from typing import Callable

import pytest
from lsp_support import RecordingClient, fixture_text
from lsprotocol import types

# one server for the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def test_symbols_are_phases_with_their_blocks(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("good.json")
    shared.open(uri, fixture_text("good.json"))
    symbols = await shared.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_doc(uri)))
    assert [s.name for s in symbols] == ["1.train", "1.test", "2.train"]
    assert [[c.name for c in s.children] for s in symbols] == [["Pong ×5000"], ["Breakout ×100"], ["Breakout ×2000"]]
    assert symbols[1].detail == "test · episodes 5000–5099 · learning off"
    assert (symbols[1].range.start.line, symbols[1].range.end.line) == (8, 11)
    assert symbols[2].range.end.line == 16
    assert symbols[0].selection_range.start == types.Position(line=6, character=15)


async def test_folding_ranges_cover_phases_and_multiline_blocks(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("good.json")
    shared.open(uri, fixture_text("good.json"))
    folds = await shared.text_document_folding_range_async(types.FoldingRangeParams(text_document=_doc(uri)))
    spans = {(f.start_line, f.end_line, f.kind) for f in folds}
    assert (6, 7, types.FoldingRangeKind.Region) in spans  # phase 1.train
    assert (8, 11, types.FoldingRangeKind.Region) in spans  # phase 1.test
    assert (12, 16, types.FoldingRangeKind.Region) in spans  # phase 2.train
    assert (13, 16, None) in spans  # the multi-line $repeat
    assert (5, 17, None) in spans  # the instruction list


async def test_inlay_hints_show_each_phase_episode_range(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("good.json")
    text = fixture_text("good.json")
    shared.open(uri, text)
    whole = types.Range(start=types.Position(0, 0), end=types.Position(len(text.splitlines()), 0))
    hints = await shared.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(uri), range=whole))
    got = [(h.position.line, h.position.character, h.label) for h in hints]
    assert got == [
        (6, 25, "episodes 0–4999"),
        (8, 24, "episodes 5000–5099 · learning off"),
        (12, 25, "episodes 5100–7099"),
    ]
    only_first = types.Range(start=types.Position(0, 0), end=types.Position(7, 0))
    hints = await shared.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(uri), range=only_first))
    assert [h.label for h in hints] == ["episodes 0–4999"]


async def test_non_syllabus_json_gets_nothing(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("package.json")
    shared.open(uri, fixture_text("package.json"))
    assert await shared.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_doc(uri))) is None
    assert await shared.text_document_folding_range_async(types.FoldingRangeParams(text_document=_doc(uri))) is None
