"""Hover over phases, blocks and directive keys, end to end over stdio."""

from __future__ import annotations

from typing import Callable

import pytest
from lsp_support import RecordingClient, fixture_text, pos
from lsprotocol import types

# one server for the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]


async def _hover(client: RecordingClient, uri: str, position: types.Position) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )


async def test_hover_on_phase_shows_kind_blocks_range_and_learning(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = fixture_text("good.json")
    uri = own_uri("good.json")
    shared.open(uri, text)
    result = await _hover(shared, uri, pos(text, '"1.test"', 2))
    assert result is not None
    value = result.contents.value
    assert "**Phase `1.test`** (test)" in value
    assert "- blocks: 1" in value
    assert "- episodes 5000–5099 (100)" in value
    assert "- learning: off" in value
    assert result.range.start.line == 8


async def test_hover_on_block_shows_task_module_params_count_and_range(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = fixture_text("good.json")
    uri = own_uri("good.json")
    shared.open(uri, text)
    result = await _hover(shared, uri, pos(text, '"difficulty"', 1))
    assert result is not None
    value = result.contents.value
    assert "task **Pong**" in value
    assert "- module: `l2arcadekit.l2agames`" in value
    assert "- count: 5000" in value
    assert "- episodes 0–4999 (5000)" in value
    assert '`difficulty` = `"easy"`' in value
    assert "`bot/paddle/width` = `0.15` *(default_params)*" in value


async def test_hover_on_directive_key_shows_schema_documentation(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = fixture_text("good.json")
    uri = own_uri("good.json")
    shared.open(uri, text)
    result = await _hover(shared, uri, pos(text, '"$info"', 2))
    assert result is not None
    assert result.contents.value.startswith("**`$info`**")
    assert "turns learning off" in result.contents.value
    phase_key = await _hover(shared, uri, pos(text, '"$phase"', 3))
    assert phase_key is not None and "form the phase" in phase_key.contents.value
    start = pos(text, '"$phase"')
    assert (phase_key.range.start, phase_key.range.end.character) == (start, start.character + len('"$phase"'))


async def test_hover_outside_instructions_and_on_other_json_is_empty(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = fixture_text("good.json")
    uri = own_uri("good.json")
    shared.open(uri, text)
    assert await _hover(shared, uri, types.Position(line=0, character=0)) is None
    other = own_uri("package.json")
    shared.open(other, fixture_text("package.json"))
    assert await _hover(shared, other, types.Position(line=0, character=3)) is None


async def test_hover_on_phase_and_block_names_the_metrics_they_enable(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    from pathlib import Path

    # examples/cl-pong.json trains Pong in three blocks: 1.train one, 2.train two. Without 2.train
    # only one train block is left, so it is what makes recovery (2 blocks) and performance
    # recovery (3 blocks) possible; the maintenance tests are in 1.test and 2.test either way.
    text = (Path(__file__).resolve().parents[2] / "examples" / "cl-pong.json").read_text()
    uri = own_uri("cl-pong.json")
    shared.open(uri, text)
    # the server loads the metric plugins on a thread at the first hover; hover until they are
    # in (the bound is a hang's, not the time the imports take on a busy machine)
    import asyncio

    deadline = asyncio.get_running_loop().time() + 120
    while True:
        result = await _hover(shared, uri, pos(text, '"2.train"', 2))
        assert result is not None
        found = [x for x in result.contents.value.splitlines() if x.startswith("- enables")]
        if found or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.05)
    [line] = found
    assert line == "- enables metrics: `perf_recovery`, `l2m_recovery_time`, `recovery_time`"
    # the 1.train block alone: without it 2 train blocks remain, so only perf_recovery (3) needs it
    block = await _hover(shared, uri, pos(text, '"count": 5000', 10))
    assert block is not None
    assert "- enables metrics: `perf_recovery`" in block.contents.value.splitlines()
