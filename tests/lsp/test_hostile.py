"""Hostile documents in the editor (issue 38): nesting tens of thousands deep, numbers past
what Python converts, an absurd count, a NUL, a directive inside a ``$repeat`` and a minified
line of thousands of findings each get their diagnostic at the place, as ``sylla lint`` gives
it; before, a huge number or a list nested past json.loads' recursion gave no diagnostics at
all (the lint raised), so a broken file looked clean."""

from __future__ import annotations

from typing import Callable

import pytest
from lsp_support import RecordingClient, fixture_text, pos
from lsprotocol import types

from sylla.grammar.syllabus.lalr import MAX_DEPTH

# one server for the module's tests (lsp_support.shared), each on its own documents
pytestmark = [pytest.mark.editor, pytest.mark.asyncio(loop_scope="module")]

GOOD = fixture_text("good.json")


def nested() -> tuple[str, str, int]:
    part = "[" * 70_000 + "]" * 70_000
    text = GOOD.replace('"difficulty": "easy"', f'"difficulty": {part}')
    start = text.index(part)
    depth = sum(text[:start].count(c) for c in "{[") - sum(text[:start].count(c) for c in "}]")
    return text, "S110", start + MAX_DEPTH - depth


def instructions_nested() -> tuple[str, str, int]:
    """No directive left: the server's detection reads the JSON itself."""
    part = "[" * 70_000 + "]" * 70_000
    text = '{"instructions": ' + part + "}\n"
    return text, "S110", text.index(part) + MAX_DEPTH - 1


def replaced(old: str, new: str, code: str, delta: int = 0) -> tuple[str, str, int]:
    text = GOOD.replace(old, new, 1)
    return text, code, text.index(new) + delta


CASES = {
    "nesting 70,000 deep": nested,
    "instructions nested 70,000 deep": instructions_nested,
    "integer of 5,000 digits": lambda: replaced('"count": 100', '"count": ' + "9" * 5000, "S107", len('"count": ')),
    "float past a double": lambda: replaced('"easy"', "1e400", "S107"),
    "phase number of 5,000 digits": lambda: replaced('"2.train"', '"' + "7" * 5000 + '.train"', "P301"),
    "count of 10^12": lambda: replaced('"count": 100', '"count": 1000000000000', "H506", len('"count": ')),
    "NUL in a string": lambda: replaced('"Breakout"}, "count": 100', '"Break\x00out"}, "count": 100', "S103"),
    "phase inside a repeat": lambda: replaced('{"$phase": "2.train"}', '{"$repeat": {"$phase": "2.train"}, "count": 100}', "S206",
                                              len('{"$repeat": {')),
}


def _offset_position(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    before = text[text.rfind("\n", 0, offset) + 1 : offset]
    return types.Position(line=line, character=len(before.encode("utf-16-le")) // 2)


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_hostile_document_gets_its_diagnostic_at_the_place(
    shared: RecordingClient, own_uri: Callable[[str], str], case: str
) -> None:
    text, code, offset = CASES[case]()
    uri = own_uri("hostile.json")
    shared.open(uri, text)
    diagnostics = await shared.diagnostics_for(uri, 1, timeout=60)
    at = _offset_position(text, offset)
    assert (code, at.line, at.character) in {(d.code, d.range.start.line, d.range.start.character) for d in diagnostics}, [
        (d.code, d.range.start, d.message[:80]) for d in diagnostics]


async def test_a_minified_document_with_thousands_of_findings_gets_them_all(
    shared: RecordingClient, own_uri: Callable[[str], str]
) -> None:
    blocks = ", ".join(['{"$repeat": {"$episod": "Pong"}, "count": 5}'] * 2000)
    text = GOOD.replace('{"$phase": "1.test"},', blocks + ', {"$phase": "1.test"},').replace("\n", "")
    uri = own_uri("minified.json")
    shared.open(uri, text)
    diagnostics = await shared.diagnostics_for(uri, 1, timeout=60)
    unknown = [d for d in diagnostics if d.code == "N603"]
    assert len(unknown) == 2000
    assert unknown[0].range.start == pos(text, '"$episod"')
    assert max(len(d.message) for d in diagnostics) < 1000
