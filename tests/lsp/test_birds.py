"""Science Birds trial configs in the editor: a real ``sylla lsp`` serves XML documents whose
root is ``<config_generation>`` (configMeta.xml) or ``<evaluation>`` (config.xml) with
diagnostics, quick fixes, hover with the computed counts and completion from the XSD, and
leaves every other XML file alone.

The files are the birds fixtures (tests/fixtures/birds); positions and counts below are
worked out by hand from those files, and the diagnostics of a whole file are compared with
what the installed ``sylla lint`` prints for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Callable

import pytest
from lsp_support import FIXTURES, RecordingClient, pos, start
from lsprotocol import types

# one server for most of the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]

BIRDS = FIXTURES.parent / "birds"


def _text(name: str) -> str:
    return (BIRDS / name).read_text(encoding="utf-8")


def _open(client: RecordingClient, name: str, text: str | None = None,
          own: Callable[..., str] | None = None) -> tuple[str, str]:
    """Open the Birds fixture ``name``: at its own path, or at ``own``'s URI for the test."""
    uri = own(name, BIRDS) if own else (BIRDS / name).as_uri()
    text = _text(name) if text is None else text
    client.open(uri, text, language_id="xml")
    return uri, text


def _codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return [(str(d.code), d.range.start.line) for d in diagnostics]


async def _hover(client: RecordingClient, uri: str, position: types.Position) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )


async def _labels(client: RecordingClient, uri: str, position: types.Position) -> list[str]:
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )
    assert isinstance(result, types.CompletionList)
    return [i.label for i in result.items]


async def test_meta_file_gets_the_b810_findings_at_the_values(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "rules/B810_bad.xml", own=own_uri)
    diagnostics = await shared.diagnostics_for(uri, 1)
    # line 17: `<limit type="allow_level_selection">TRUE</limit>` after 10 spaces, and line 24:
    # `<test ordered="True">` after 6 spaces (0-based lines 16 and 23)
    assert [(d.code, d.range) for d in diagnostics] == [
        ("B810", types.Range(start=types.Position(16, 46), end=types.Position(16, 50))),
        ("B810", types.Range(start=types.Position(23, 21), end=types.Position(23, 25))),
    ]
    assert {d.source for d in diagnostics} == {"sylla"}
    assert {d.severity for d in diagnostics} == {types.DiagnosticSeverity.Error}
    assert diagnostics[0].code_description is not None and "b810" in diagnostics[0].code_description.href.lower()


async def test_quick_fix_lowercases_the_boolean(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "rules/B810_bad.xml", own=own_uri)
    [first, _] = await shared.diagnostics_for(uri, 1)
    actions = await shared.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=first.range,
            context=types.CodeActionContext(diagnostics=[first], only=[types.CodeActionKind.QuickFix]),
        )
    )
    [fix] = [a for a in actions if a.title.endswith("(B810)")]
    assert fix.is_preferred
    [edit] = fix.edit.changes[uri]
    assert edit.range == first.range and edit.new_text == "true"
    # no "ignore" action: XML has no in-file suppression
    assert not any(a.title.startswith("Ignore") for a in actions)
    fix_all = await shared.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.sylla"]),
        )
    )
    [whole] = fix_all
    [edit] = whole.edit.changes[uri]
    fixed = edit.new_text
    assert ">true</limit>" in fixed and '<test ordered="true">' in fixed
    assert fixed == text.replace(">TRUE<", ">true<").replace('ordered="True"', 'ordered="true"')


async def test_generated_config_capitalised_booleans_and_fix(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "rules/B830_bad.xml", own=own_uri)
    [d] = await shared.diagnostics_for(uri, 1)
    # line 5: `notify_novelty="false"` inside the first <trial> start tag
    assert d.code == "B830" and d.range.start == pos(text, 'notify_novelty="false"', len('notify_novelty="'))
    actions = await shared.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
            context=types.CodeActionContext(diagnostics=[d], only=[types.CodeActionKind.QuickFix]),
        )
    )
    [fix] = [a for a in actions if "B830" in a.title]
    assert [e.new_text for e in fix.edit.changes[uri]] == ["False"]


@pytest.mark.asyncio  # its own server, in its own event loop
async def test_diagnostics_match_the_cli_including_the_encoding_of_the_saved_file(client: RecordingClient) -> None:
    """real-shape.xml declares utf-16 on ASCII bytes: a fact about the file, which the server
    reads from disk, so the editor shows the same B803 as ``sylla lint``."""
    uri, text = _open(client, "real-shape.xml")
    diagnostics = await client.diagnostics_for(uri, 1)
    cli = subprocess.run(
        [sys.executable, "-m", "sylla", "lint", "--format", "json", str(BIRDS / "real-shape.xml")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    findings = json.loads(cli.stdout)
    assert findings, cli.stderr
    assert _codes(diagnostics) == [(f["code"], f["line"] - 1) for f in findings]
    [b803] = [d for d in diagnostics if d.code == "B803"]
    # `<?xml version="1.0" encoding="` is 30 characters; the value `utf-16` follows
    assert b803.range == types.Range(start=types.Position(0, 30), end=types.Position(0, 36))
    # the game's own shape: information, which fails no default lint (B803's page says why)
    assert b803.severity == types.DiagnosticSeverity.Information


@pytest.mark.asyncio  # its own server, in its own event loop
async def test_positions_follow_the_negotiated_encoding(bare: RecordingClient) -> None:
    result = await start(bare, encodings=["utf-8"])
    assert result.capabilities.position_encoding == "utf-8"
    text = _text("rules/B810_bad.xml").replace(
        '          <limit type="allow_level_selection">TRUE</limit>',
        '          <!-- é😀 --><limit type="allow_level_selection">TRUE</limit>',
    )
    uri, _ = _open(bare, "rules/B810_bad.xml", text)
    first = (await bare.diagnostics_for(uri, 1))[0]
    assert first.range.start == pos(text, ">TRUE<", 1, encoding="utf-8")
    # 10 spaces + "<!-- " + é (2 bytes) + 😀 (4 bytes) + " -->" + the 36-character tag
    assert first.range.start.character == 10 + 5 + 2 + 4 + 4 + 36


async def test_hover_shows_meaning_and_the_computed_counts(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "worked-example.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    trial = await _hover(shared, uri, pos(text, "<trial ", 2))
    assert trial is not None
    value = trial.contents.value
    assert "<trial>" in value
    # count 3 × 2 (notify_novelty="both") = 6 trials, repeats 2; training 180 s × amount 2 = 360 s;
    # total_n_testsets = ⌈360 / 200⌉ + ⌈60000 / 200⌉ = 2 + 300 = 302
    assert "Generates 6 trial(s), each executed 2 time(s)" in value
    assert "training time 360 s" in value and "total_n_testsets 302" in value
    assert trial.range == types.Range(start=pos(text, "<trial ", 1), end=pos(text, "<trial ", 6))
    # the second test set: ⌈302 × 30 / 100⌉ = ⌈90.6⌉ = 91
    second = await _hover(shared, uri, pos(text, 'set_appearance_percentage="30"', 2))
    assert second is not None
    assert "**set_appearance_percentage** on `<game_level_set>`" in second.contents.value
    assert "n_testsets 91 of total_n_testsets 302" in second.contents.value
    # whitespace between elements is no element the reader points at
    assert await _hover(shared, uri, types.Position(line=3, character=0)) is None


async def test_completion_offers_the_xsd_names_and_values_in_context(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "worked-example.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    # after "<" of <count>: the children of <trial>, in the XSD's order
    assert await _labels(shared, uri, pos(text, "<count>", 1)) == ["count", "repeats", "checkpoint", "training", "test"]
    # notify_novelty's enumeration
    assert await _labels(shared, uri, pos(text, 'notify_novelty="', len('notify_novelty="'))) == ["true", "false", "both"]
    # limit types
    assert await _labels(shared, uri, pos(text, '<limit type="', len('<limit type="'))) == [
        "time", "interaction", "attempt_per_level", "allow_level_selection",
    ]
    # attribute names of the training <game_level_set>, without the three already written
    labels = await _labels(shared, uri, pos(text, 'amount="2" ', len('amount="2" ')))
    assert "no_diff_portion" in labels and "novelty_absence_portion" in labels
    assert not {"novelty_level", "novelty_type", "amount"} & set(labels)


async def test_completion_while_typing_a_new_element(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "worked-example.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    at = pos(text, "</limits>", len("</limits>"))
    shared.change(uri, 2, (at.line, at.character), (at.line, at.character), "\n        <")
    labels = await _labels(shared, uri, types.Position(line=at.line + 1, character=9))
    assert labels == ["limits", "game_level_sets"]  # the children of <training>
    await shared.diagnostics_for(uri, 2)  # the half-typed file is still linted as XML
    assert all(str(d.code).startswith("B8") for d in shared.diagnostics[uri])


async def test_generated_config_values_are_capitalised(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "rules/B830_bad.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    needle = 'allow_level_selection="'
    assert await _labels(shared, uri, pos(text, needle, len(needle))) == ["True", "False"]


async def test_once_linted_as_a_config_a_broken_root_keeps_xml_findings(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "rules/B810_bad.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    # "<config_generation>" -> "<config_generatio>": no longer a Science Birds root, nor well-formed
    shared.change(uri, 2, (1, 18), (1, 19), "")
    after = await shared.diagnostics_for(uri, 2)
    assert after, "the broken file lost its findings"
    assert {str(d.code)[:2] for d in after} == {"B8"}


async def test_other_xml_gets_nothing(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri = own_uri("pom.xml")
    text = "<?xml version=\"1.0\"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n</project>\n"
    shared.open(uri, text, language_id="xml")
    assert await shared.diagnostics_for(uri, 1) == []
    assert await _hover(shared, uri, types.Position(line=1, character=2)) is None


async def test_folding_and_no_syllabus_only_features(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "worked-example.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    doc = types.TextDocumentIdentifier(uri=uri)
    folds = await shared.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc))
    lines = text.splitlines()
    # <trials> opens on line 3 and closes on line 29 (0-based)
    assert (3, 29) in [(f.start_line, f.end_line) for f in folds]
    assert lines[3].strip() == "<trials>" and lines[29].strip() == "</trials>"
    symbols = await shared.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc))
    assert not symbols


@pytest.mark.asyncio  # its own server, in its own event loop
async def test_pull_diagnostics_for_xml(bare: RecordingClient) -> None:
    await start(bare, pull=True)
    uri, _ = _open(bare, "rules/B810_bad.xml")
    report = await bare.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [str(d.code) for d in report.items] == ["B810", "B810"]


async def test_completion_edits_replace_the_whole_value_and_insert_attribute_snippets(shared: RecordingClient, own_uri: Callable[..., str]) -> None:
    uri, text = _open(shared, "worked-example.xml", own=own_uri)
    await shared.diagnostics_for(uri, 1)
    doc = types.TextDocumentIdentifier(uri=uri)
    # the cursor right after the opening quote of notify_novelty="both": picking a value
    # replaces "both", not only what is left of the cursor
    at = pos(text, 'notify_novelty="', len('notify_novelty="'))
    result = await shared.text_document_completion_async(types.CompletionParams(text_document=doc, position=at))
    both = next(i for i in result.items if i.label == "false")
    assert both.text_edit.range == types.Range(start=at, end=pos(text, 'notify_novelty="both', len('notify_novelty="both')))
    assert both.text_edit.new_text == "false"
    # an attribute with enumerated values is a snippet offering them as a choice
    at = pos(text, 'amount="2" ', len('amount="2" '))
    result = await shared.text_document_completion_async(types.CompletionParams(text_document=doc, position=at))
    selection = next(i for i in result.items if i.label == "allow_level_selection")
    assert selection.insert_text_format == types.InsertTextFormat.Snippet
    assert selection.text_edit.new_text == 'allow_level_selection="${1|true,false|}"'
