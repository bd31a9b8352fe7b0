"""Wave-3 trial files (``json/cPPP_K.json``) in the editor: the server lints them as trial files,
with the findings and positions ``sylla lint`` gives, and never as syllabi."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import RecordingClient

from sylla.grammar.trials.parse import MAX_DEPTH
from sylla.grammar.trials.synth import write_edge_trials

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

TRIALS = Path(__file__).resolve().parents[1] / "fixtures" / "trials" / "json-bad"


def _cli_findings(path: Path) -> list[tuple[str, int, int]]:
    out = subprocess.run(
        [sys.executable, "-m", "sylla", "lint", "-f", "json", str(path)], capture_output=True, text=True, check=False
    )
    return [(f["code"], f["line"] - 1, f["column"] - 1) for f in json.loads(out.stdout)]


@pytest.mark.parametrize("name", ["c048_1.json", "c050_1.json"])
async def test_a_trial_file_gets_its_w9_findings(client: RecordingClient, name: str) -> None:
    path = TRIALS / name
    expected = _cli_findings(path)
    assert expected and all(code.startswith("W9") for code, _, _ in expected)
    uri = path.as_uri()
    client.open(uri, path.read_text(encoding="utf-8"))
    got = await client.diagnostics_for(uri, 1)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == expected



@pytest.mark.parametrize("name, code", [("c046_1.json", "W902"), ("c046_2.json", "W906")])
async def test_deep_nesting_and_huge_numbers_get_a_finding_at_their_position(
    client: RecordingClient, tmp_path: Path, name: str, code: str
) -> None:
    """Issue 38: past Python's recursion and 4,300-digit limits the server published nothing,
    so a broken file looked clean; now it publishes what ``sylla lint`` says, where it says it:
    at the bracket that goes past 16 levels (the object, data and the example are 3 of them),
    at the first value of the first output."""
    path = Path(write_edge_trials(str(TRIALS.parent / "json"), str(tmp_path))[name])
    text = path.read_text(encoding="utf-8")
    column = text.index('"i": ') + len('"i": ') + MAX_DEPTH - 3 if code == "W902" else text.index('"o": [') + len('"o": [')
    expected = _cli_findings(path)
    assert (code, 0, column) in expected
    uri = path.as_uri()
    client.open(uri, text)
    got = await client.diagnostics_for(uri, 1)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == expected
