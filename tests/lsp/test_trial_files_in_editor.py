"""Wave-3 trial files (``json/cPPP_K.json``) in the editor: the server lints them as trial files,
with the findings and positions ``sylla lint`` gives, and never as syllabi."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import RecordingClient

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


EDGE = Path(__file__).resolve().parents[1] / "fixtures" / "trials" / "json-edge"


@pytest.mark.parametrize("name, code, column", [
    ("c046_1.json", "W902", 78),   # the 17th "[" of an input nested 70,000 deep
    ("c046_2.json", "W906", 79),   # an output value of 5,000 digits
])
async def test_deep_nesting_and_huge_numbers_get_a_finding_at_their_position(
    client: RecordingClient, name: str, code: str, column: int
) -> None:
    """Issue 38: past Python's recursion and 4,300-digit limits the server published nothing,
    so a broken file looked clean; now it publishes what ``sylla lint`` says, where it says it."""
    path = EDGE / name
    expected = _cli_findings(path)
    assert (code, 0, column) in expected
    uri = path.as_uri()
    client.open(uri, path.read_text(encoding="utf-8"))
    got = await client.diagnostics_for(uri, 1)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == expected
