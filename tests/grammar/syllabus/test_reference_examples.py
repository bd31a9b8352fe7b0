"""Every verbatim example of the reference text parses and explains with the right type,
totals and episode ranges (worked out by hand from custom-syllabi.tex)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sylla.grammar.syllabus.explain import explain
from sylla.grammar.syllabus.model import NonJsonKind

from .helpers import GRAMMAR, parse_fixture

TEX = Path(__file__).resolve().parents[4] / "shared" / "reference" / "custom-syllabi.tex"

# name -> (type, total episodes, [(phase, [(task, start, end, learning)])])
EXPECTED = {
    "cl.txt": (
        "CL",
        15500,
        [
            ("1.train", [("Pong", 0, 5000, None)]),
            ("1.test", [("Pong", 5000, 5100, False), ("Pong", 5100, 5200, False)]),
            ("2.train", [("Pong", 5200, 10200, None), ("Pong", 10200, 15200, None)]),
            ("2.test", [("Pong", 15200, 15300, False), ("Pong", 15300, 15400, False), ("Pong", 15400, 15500, False)]),
        ],
    ),
    "ant-a.txt": (
        "ANT-A/B",
        10300,
        [
            ("1.train", [("Pong", 0, 5000, None)]),
            ("1.test", [("Freeway", 5000, 5100, False)]),
            ("2.train", [("Breakout", 5100, 10100, None)]),
            ("2.test", [("Pong", 10100, 10200, False), ("Freeway", 10200, 10300, False)]),
        ],
    ),
    "ant-b.txt": (
        "ANT-A/B",
        10200,
        [
            ("1.train", [("Pong", 0, 5000, None)]),
            ("1.test", [("Breakout", 5000, 5100, False)]),
            ("2.train", [("Breakout", 5100, 10100, None)]),
            ("2.test", [("Pong", 10100, 10200, False)]),
        ],
    ),
    "ant-c.txt": (
        "ANT-C",
        30600,
        [
            ("1.train", [("Pong", 0, 5000, None), ("Pong", 5000, 10000, None), ("Pong", 10000, 15000, None)]),
            ("1.test", [("Breakout", 15000, 15100, False), ("Breakout", 15100, 15200, False), ("Breakout", 15200, 15300, False)]),
            ("2.train", [("Breakout", 15300, 20300, None), ("Breakout", 20300, 25300, None), ("Breakout", 25300, 30300, None)]),
            ("2.test", [("Pong", 30300, 30400, False), ("Pong", 30400, 30500, False), ("Pong", 30500, 30600, False)]),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reference_example_explains(name: str) -> None:
    result = parse_fixture(f"reference/{name}")
    assert result.diagnostics == []
    assert result.model is not None and result.model.form == "fragment"
    doc = explain(result.model)
    kind, total, phases = EXPECTED[name]
    assert doc["type"] == kind
    assert doc["episodes"] == total
    got = [
        (p["label"], [(b["task"], b["start"], b["end"], b["learning"]) for b in p["blocks"]])
        for p in doc["phases"]
    ]
    assert got == phases
    assert sum(doc["totals"]["tasks"].values()) == total


def test_ant_b_margin_notes_are_recorded() -> None:
    model = parse_fixture("reference/ant-b.txt").model
    assert model is not None
    notes = [n.text(model.text) for n in model.non_json if n.kind is NonJsonKind.MARGIN_NOTE]
    assert notes == [
        "<-- Train Task 1",
        "<-- Test forward transfer",
        "<-- Train Task 2",
        "<-- Test reverse transfer",
    ]
    # the fragment form (no surrounding braces) is itself a non-JSON construct
    assert any(n.kind is NonJsonKind.FRAGMENT for n in model.non_json)


@pytest.mark.skipif(not TEX.exists(), reason="shared/reference is not beside this checkout")
def test_fixtures_are_the_verbatim_examples() -> None:
    blocks = [
        b
        for b in re.findall(r"\\begin\{verbatim\}\n(.*?)\\end\{verbatim\}", TEX.read_text(), re.S)
        if '"instructions"' in b
    ]
    names = ["cl.txt", "ant-a.txt", "ant-b.txt", "ant-c.txt"]
    assert [(GRAMMAR / "reference" / n).read_text() for n in names] == blocks
