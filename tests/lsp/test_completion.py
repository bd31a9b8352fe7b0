"""Completion of directives (snippets), task names and parameter names, over stdio."""

# ruff: noqa: W293 - the indented blank lines inside the syllabus texts are where completion is asked

from __future__ import annotations

from typing import Callable

import pytest
from lsp_support import RecordingClient, start, uri_of
from lsprotocol import types

# one server for the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]

DOC = """{
  "default_params": {"seed": 1},
  "instructions": [
    {"$phase": "1.train"},
    {"$repeat": {"$episode": "Pong", "bot/paddle/width": 0.2}, "count": 10},
    {"$phase": "1.test"},
    {"$repeat": {"$episode": "Breakout", "lives": 3}, "count": 10},
    
  ]
}
"""


async def _complete(client: RecordingClient, uri: str, line: int, character: int) -> types.CompletionList:
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)
        )
    )
    assert isinstance(result, types.CompletionList)
    return result


async def test_gap_in_instructions_offers_phase_pair_snippet_with_next_number(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("c1.json")
    shared.open(uri, DOC)
    result = await _complete(shared, uri, 7, 4)
    labels = [i.label for i in result.items]
    assert labels[0] == "$phase 2.train + 2.test"
    pair = result.items[0]
    assert pair.insert_text_format == types.InsertTextFormat.Snippet
    new_text = pair.text_edit.new_text
    assert new_text.splitlines()[0] == '{"\\$phase": "2.train"},'
    assert '{"\\$phase": "2.test"},' in new_text
    assert '{"\\$info": {"disable_updates": true}},' in new_text
    assert new_text.rstrip().endswith('{"\\$info": {}}')
    assert "${1:Task}" in new_text and "${3:100}" in new_text
    assert new_text.splitlines()[1].startswith("    {")  # indented like the cursor's line
    assert {"$phase", "$repeat", "$episode", "$dataset", "$info"} <= set(labels)


async def test_task_names_come_from_the_document(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = DOC.replace("    \n", '    {"$episode": "P"}\n')
    uri = own_uri("c2.json")
    shared.open(uri, text)
    result = await _complete(shared, uri, 7, 19)  # after the P
    labels = {i.label for i in result.items}
    assert labels == {"Pong", "Breakout"}
    item = next(i for i in result.items if i.label == "Pong")
    assert item.text_edit.range == types.Range(start=types.Position(7, 18), end=types.Position(7, 19))
    assert item.text_edit.new_text == "Pong"


async def test_parameter_names_of_the_task(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = DOC.replace("    \n", '    {"$episode": "Pong", ""}\n')
    uri = own_uri("c3.json")
    shared.open(uri, text)
    line = text.splitlines()[7]
    result = await _complete(shared, uri, 7, line.index('""') + 1)
    labels = [i.label for i in result.items]
    assert labels == ["bot/paddle/width", "seed"]
    assert result.items[0].text_edit.new_text == '"bot/paddle/width": $1'
    # the range covers the typed opening quote and the editor's closing quote
    assert result.items[0].text_edit.range.start.character == line.index('""')
    assert result.items[0].text_edit.range.end.character == line.index('""') + 2


async def test_directive_keys_inside_a_new_instruction(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = DOC.replace("    \n", '    {"$\n')
    uri = own_uri("c4.json")
    shared.open(uri, text)
    result = await _complete(shared, uri, 7, 7)
    by_label = {i.label: i for i in result.items}
    assert set(by_label) == {"$phase", "$repeat", "$episode", "$dataset", "$info"}
    assert by_label["$phase"].text_edit.new_text == '"\\$phase": "${1:2.train}"'
    assert "turns learning off" in by_label["$info"].documentation.value


@pytest.mark.asyncio  # its own server (other capabilities), in its own event loop
async def test_without_snippet_support_inserts_plain_text(bare: RecordingClient) -> None:
    await start(bare, snippets=False)
    uri = uri_of("c5.json")
    bare.open(uri, DOC)
    result = await _complete(bare, uri, 7, 4)
    pair = result.items[0]
    assert pair.insert_text_format == types.InsertTextFormat.PlainText
    assert pair.text_edit.new_text.splitlines()[1] == '    {"$repeat": {"$episode": "Task"}, "count": 1000},'


PHASES = """{
  "instructions": [
    {"$phase": "1.train"},
    {"$repeat": {"$episode": "Pong"}, "count": 10},
    
    {"$phase": "1.test"},
    {"$repeat": {"$episode": "Pong"}, "count": 10},
    
    {"$phase": "2.train"},
    {"$repeat": {"$episode": "Breakout"}, "count": 10},
    {"$phase": "2.test"},
    {"$repeat": {"$episode": "Breakout", "levels": [1, 2]}, "count": 10},
    
  ]
}
"""


async def test_phase_numbers_follow_the_cursor(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("c6.json")
    shared.open(uri, PHASES)

    async def at_gap(line: int) -> dict[str, types.CompletionItem]:
        assert PHASES.splitlines()[line] == "    "
        return {i.label: i for i in (await _complete(shared, uri, line, 4)).items}

    # after 1.train's block: the single phase is its test, a new pair is number 2
    after_train = await at_gap(4)
    assert after_train["$phase"].text_edit.new_text == '{"\\$phase": "${1:1.test}"},'
    assert "$phase 2.train + 2.test" in after_train
    # after 1.test's block (phase 2 follows): phase 2 again, not "highest plus one" (3)
    after_test = await at_gap(7)
    assert after_test["$phase"].text_edit.new_text == '{"\\$phase": "${1:2.train}"},'
    assert "$phase 2.train + 2.test" in after_test
    # at the end: after 2.test comes 3
    at_end = await at_gap(12)
    assert at_end["$phase"].text_edit.new_text == '{"\\$phase": "${1:3.train}"}'
    assert "$phase 3.train + 3.test" in at_end


async def test_inside_a_repeat_only_a_task_leaf_is_offered(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    text = PHASES.replace('{"$repeat": {"$episode": "Pong"}, "count": 10},\n    \n    {"$phase": "1.test"}', '{"$repeat": {"$"}, "count": 10},\n    \n    {"$phase": "1.test"}')
    uri = own_uri("c7.json")
    shared.open(uri, text)
    line = text.splitlines()[3]
    result = await _complete(shared, uri, 3, line.index('{"$"}') + 3)
    assert {i.label for i in result.items} == {"$episode", "$dataset"}


async def test_no_instructions_inside_a_parameter_list(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("c8.json")
    text = PHASES.replace('"levels": [1, 2]', '"levels": []')
    shared.open(uri, text)
    line = text.splitlines()[11]
    result = await _complete(shared, uri, 11, line.index("[]") + 1)
    assert [i.label for i in result.items] == []
