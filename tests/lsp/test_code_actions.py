"""Code actions: quick fixes, fix-all and "Ignore CODE on this line / in this file", applied to the text."""

from __future__ import annotations

from typing import Callable

import pytest
from lsp_support import RecordingClient, fixture_text
from lsprotocol import types

from sylla.linter import apply_fixes, lint
from sylla.linter.fixes import fix_all as fix_loop

# one server for the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (ASCII text: characters are code points) from the last to the first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def off(p: types.Position) -> int:
        return starts[p.line] + p.character if p.line < len(lines) else len(text)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end) :]
    return text


async def _actions(client: RecordingClient, uri: str, line: int, only: list[str] | None = None) -> list[types.CodeAction]:
    diagnostics = [d for d in client.diagnostics.get(uri, []) if d.range.start.line == line]
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line, 0), end=types.Position(line, 0)),
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )


async def test_quickfix_for_a_fixable_finding_is_preferred_and_applies(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("bad.json")
    text = fixture_text("bad.json")
    shared.open(uri, text)
    await shared.diagnostics_for(uri, 1)
    actions = await _actions(shared, uri, 7, only=[types.CodeActionKind.QuickFix])
    fixes = [a for a in actions if not a.title.startswith("Ignore")]
    assert len(fixes) == 1
    [fix] = fixes
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred is True
    assert fix.title.endswith("(H501)") and fix.diagnostics[0].code == "H501"
    fixed = apply(text, fix.edit.changes[uri])
    assert fixed.splitlines()[7:10] == [
        '    {"$phase": "2.test"},',
        '    {"$info": {"disable_updates": true}},',
        '    {"$repeat": {"$episode": "Pong"}, "count": 10},',
    ]
    assert sorted(a.title for a in actions if a.title.startswith("Ignore")) == ["Ignore H501 in this file", "Ignore P302 in this file"]


async def test_ignore_in_strict_json_adds_to_sylla_ignore(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("bad.json")
    text = fixture_text("bad.json")
    shared.open(uri, text)
    await shared.diagnostics_for(uri, 1)
    actions = await _actions(shared, uri, 5)
    ignore = next(a for a in actions if a.title == "Ignore P303 in this file")
    fixed = apply(text, ignore.edit.changes[uri])
    assert fixed.splitlines()[1:3] == ['  "sylla_ignore": ["P303"],', '  "name": "bad-syllabus",']
    assert "P303" not in [f.code for f in lint(fixed).findings]


async def test_ignore_in_jsonc_appends_a_comment(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("bad.jsonc")
    text = fixture_text("bad.json")
    shared.open(uri, text, language_id="jsonc")
    await shared.diagnostics_for(uri, 1)
    actions = await _actions(shared, uri, 7)
    ignore = next(a for a in actions if a.title == "Ignore P302 on this line")
    fixed = apply(text, ignore.edit.changes[uri])
    assert fixed.splitlines()[7] == '    {"$phase": "2.test"},  // sylla: ignore[P302]'
    assert "P302" not in [f.code for f in lint(fixed, "bad.jsonc").findings]


async def test_fix_all_applies_every_safe_fix(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    uri = own_uri("bad.json")
    text = fixture_text("bad.json")
    shared.open(uri, text)
    await shared.diagnostics_for(uri, 1)
    actions = await _actions(shared, uri, 0, only=["source.fixAll.sylla"])
    [fix_all] = actions
    assert fix_all.kind == "source.fixAll.sylla"
    fixed = apply(text, fix_all.edit.changes[uri])
    assert fixed == fix_loop(lint(text, "bad.json"), lambda t: lint(t, "bad.json")).text
    assert fixed != apply_fixes(text, lint(text).findings, safe_only=True)  # one round is not enough here


async def test_unsafe_fix_is_offered_marked_and_not_preferred(shared: RecordingClient, own_uri: Callable[[str], str]) -> None:
    # T410's fix adds a test block (it changes the experiment): offered, labelled unsafe, never
    # preferred, and left out of fix-all, as `sylla lint --fix` without --unsafe-fixes leaves it.
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "fixtures" / "linter" / "T410_bad.json").read_text()
    uri = own_uri("t410.json")
    shared.open(uri, text)
    await shared.diagnostics_for(uri, 1)
    actions = await _actions(shared, uri, 8, only=[types.CodeActionKind.QuickFix])
    [fix] = [a for a in actions if "(T410" in a.title]
    assert fix.title == 'Add a test of "Breakout" to "1.test" (T410, unsafe: changes the experiment)'
    assert not fix.is_preferred
    fixed = apply(text, fix.edit.changes[uri])
    assert fixed.splitlines()[6:8] == [
        '    {"$repeat": {"$episode": "Pong"}, "count": 10},',
        '    {"$repeat": {"$episode": "Breakout"}, "count": 10},',
    ]
    assert "T410" not in [f.code for f in lint(fixed, "t410.json").findings]
    fix_all = await _actions(shared, uri, 8, only=["source.fixAll.sylla"])
    assert fix_all == [] or all("T410" not in a.title for a in fix_all)
