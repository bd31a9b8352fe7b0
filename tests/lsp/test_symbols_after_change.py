"""documentSymbol right after a didChange on a 500 KB syllabus: the answer is the outline of
the new text, exactly what a fresh server opened on that text answers.

LSP has no refresh for symbols, so an outline answered from the previous parse would stay
wrong in the editor. The server answers from the new version, parsed from the previous one
(``grammar/syllabus/incremental.py``) and written reusing the previous outline's unmoved positions
(``lsp/outline.py``). Each edit below is followed at once by the request, while the server is
still busy with that version; the edits are the three paths: a count changed in place (every
later episode range moves, no position does), a line break typed inside an instruction (every
later line moves), and a new instruction (a full parse).
"""

from __future__ import annotations

import pytest
from lsp_support import RecordingClient, start, symbols, uri_of

from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = pytest.mark.editor


TEXT = phase_pairs(min_bytes=500_000)
LINES = TEXT.splitlines(keepends=True)
COUNT_LINE = next(i for i, line in enumerate(LINES) if '"$episode": "Pong"}, "count": 10}' in line)



def _edit(text: str, line: int, col: int, end_col: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[line] = lines[line][:col] + new + lines[line][end_col:]
    return "".join(lines)


@pytest.mark.asyncio
async def test_symbols_right_after_a_change_are_those_of_the_new_text(bare: RecordingClient, fresh: RecordingClient) -> None:
    await start(bare, refresh=True)
    uri = uri_of("symbols-after-change-500k.json")
    bare.open(uri, TEXT)
    await bare.diagnostics_for(uri, 1, timeout=300)
    before = await symbols(bare, uri)  # the editor's outline of the opened text
    assert len(before) > 1000

    count_at = LINES[COUNT_LINE].index('"count": 10') + len('"count": ')
    edits = [
        (COUNT_LINE, count_at, count_at + 2, "17"),  # in place: later episode ranges move
        (COUNT_LINE, count_at, count_at, "\n      "),  # a line break: later lines move
        (COUNT_LINE + 3, 0, 0, '    {"$repeat": {"$episode": "Pong"}, "count": 7},\n'),  # an instruction more
    ]
    text = TEXT
    for version, (line, col, end_col, new) in enumerate(edits, start=2):
        text = _edit(text, line, col, end_col, new)
        bare.change(uri, version, (line, col), (line, end_col), new)
        answer = await symbols(bare, uri)  # sent right after the change

        fresh_uri = uri_of(f"symbols-fresh-{version}.json")
        fresh.open(fresh_uri, text)
        expected = await symbols(fresh, fresh_uri)
        assert answer == expected, f"edit {version - 1}: the outline is not the new text's"
        assert answer != before  # an outline of the previous version would fail the line above
        before = answer
        await bare.diagnostics_for(uri, version, timeout=300)

    # the first edit made the block 17 episodes instead of 10: every later range is 7 further
    blocks = [child for phase in expected for child in phase.children or ()]
    assert any(b.name == "Pong ×17" for b in blocks)
