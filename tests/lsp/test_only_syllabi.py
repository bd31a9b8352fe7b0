"""Only syllabi: the server asks the project's one decision (``Config.is_syllabus``), so other
JSON files get neither findings nor features, a misspelt ``instructions`` still counts, and a
document once linted as a syllabus keeps its findings while an edit breaks it for a moment."""

from __future__ import annotations

import pytest
from lsp_support import RecordingClient, fixture_text, uri_of
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

NOT_SYLLABI = ["package.json", "assistant.json", "recipes.json"]


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _features(client: RecordingClient, uri: str, position: types.Position) -> dict[str, object]:
    """Every feature's answer for ``uri`` at ``position``."""
    whole = types.Range(start=types.Position(0, 0), end=types.Position(40, 0))
    here = types.Range(start=position, end=position)
    return {
        "hover": await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=position)),
        "symbols": await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=_doc(uri))),
        "folding": await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=_doc(uri))),
        "inlay": await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(uri), range=whole)),
        "completion": await client.text_document_completion_async(
            types.CompletionParams(text_document=_doc(uri), position=position)
        ),
        "actions": await client.text_document_code_action_async(
            types.CodeActionParams(text_document=_doc(uri), range=here, context=types.CodeActionContext(diagnostics=[]))
        ),
        "format": await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=_doc(uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True)
            )
        ),
    }


@pytest.mark.parametrize("name", NOT_SYLLABI)
async def test_other_json_gets_no_findings_and_no_features(client: RecordingClient, name: str) -> None:
    text = fixture_text(name)
    # the old textual test ("instructions" or "$phase" as a key) took two of these for syllabi
    assert '"instructions":' in text or name == "package.json"
    uri = uri_of(name)
    client.open(uri, text)
    assert await client.diagnostics_for(uri, 1) == []
    line = 3 if text.count("\n") > 3 else 0
    answers = await _features(client, uri, types.Position(line=line, character=5))
    assert answers == dict.fromkeys(answers), answers


async def test_misspelt_instructions_with_directives_is_a_syllabus(client: RecordingClient) -> None:
    uri = uri_of("misspelt.json")
    client.open(uri, fixture_text("misspelt.json"))
    diagnostics = await client.diagnostics_for(uri, 1)
    n604 = [d for d in diagnostics if d.code == "N604"]
    assert len(n604) == 1 and 'did you mean "instructions"' in n604[0].message
    assert n604[0].range.start == types.Position(line=1, character=2)
    answers = await _features(client, uri, types.Position(line=1, character=5))
    titles = [a.title for a in answers["actions"]]
    assert "Ignore N604 in this file" in titles
    # in a .json file the only suppression is the file-wide key (no comments in JSON)
    [edit] = next(a for a in answers["actions"] if a.title == "Ignore N604 in this file").edit.changes[uri]
    assert edit.new_text.startswith('"sylla_ignore": ["N604"]')


DRAFT = """{
  "name": "draft",
  "instructions": []
}
"""


async def test_a_syllabus_stays_one_while_an_edit_breaks_it(client: RecordingClient) -> None:
    uri = uri_of("draft.json")
    client.open(uri, DRAFT)
    first = await client.diagnostics_for(uri, 1)
    assert [d.code for d in first] == []  # an empty draft has nothing to report, but is served
    # the user starts renaming the key: for a moment there is no "instructions" at all, and
    # without directives nothing in the text says "syllabus" any more
    col = DRAFT.splitlines()[2].index("instructions")
    client.change(uri, 2, (2, col + 5), (2, col + len("instructions")), "")
    broken = await client.diagnostics_for(uri, 2)
    assert "S202" in [d.code for d in broken]
    # ... and finishes it: the findings follow the text
    client.change(uri, 3, (2, col + 5), (2, col + 5), "uctions")
    assert [d.code for d in await client.diagnostics_for(uri, 3)] == []


async def test_stickiness_ends_when_the_document_is_closed(client: RecordingClient) -> None:
    uri = uri_of("draft.json")
    client.open(uri, DRAFT)
    await client.diagnostics_for(uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=_doc(uri)))
    await client.diagnostics_for(uri, None)
    client.published.clear()
    client.open(uri, '{"name": "draft"}\n', version=5)
    assert await client.diagnostics_for(uri, 5) == []


async def test_config_syllabi_globs_force_a_file(client: RecordingClient, tmp_path) -> None:
    (tmp_path / "sylla.toml").write_text('syllabi = ["plans/*.json"]\n', encoding="utf-8")
    (tmp_path / "plans").mkdir()
    forced = (tmp_path / "plans" / "empty.json").as_uri()
    other = (tmp_path / "other.json").as_uri()
    text = '{"name": "draft"}\n'
    client.open(forced, text)
    client.open(other, text)
    assert "S202" in [d.code for d in await client.diagnostics_for(forced, 1)]
    assert await client.diagnostics_for(other, 1) == []
