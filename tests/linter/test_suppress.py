"""``sylla: ignore`` directives: a malformed one hides nothing and is reported (N607)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.linter import format_text, lint

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


def _codes(text: str) -> list[tuple[str, int]]:
    result = lint(text, "x.jsonc")
    return [(f.code, result.parse.lines.line_col(f.span.start)[0]) for f in result.findings if f.code[0] in "HN"]


def test_unclosed_directive_hides_nothing_and_is_reported() -> None:
    text = (FIX / "N607_bad.jsonc").read_text()
    assert _codes(text) == [("H501", 5), ("N607", 5)]
    (n607,) = [f for f in lint(text, "x.jsonc").findings if f.code == "N607"]
    assert n607.message == "this sylla: ignore directive has no closing `]`, so it suppresses nothing"
    assert text[n607.span.start : n607.span.end] == "// sylla: ignore[H501"


@pytest.mark.parametrize("directive,expected", [
    ("// sylla: ignore[H501]", []),
    ("// sylla: ignore[H5]", []),
    ("// sylla: ignore", []),
    ("// sylla: ignore[ALL]", []),
    ("/* sylla: ignore[H501, N601] */", []),
    ("// sylla: ignore[]", [("H501", 5), ("N607", 5)]),
    ("// sylla: ignore[H5O1]", [("H501", 5), ("N607", 5)]),
    ("// sylla: ignore[N602]", [("H501", 5)]),
])
def test_directive_forms(directive: str, expected: list) -> None:
    text = (FIX / "N607_bad.jsonc").read_text().replace("// sylla: ignore[H501", directive)
    assert directive in text
    assert _codes(text) == expected


def test_fmt_keeps_the_malformed_directive_and_its_finding() -> None:
    text = (FIX / "N607_bad.jsonc").read_text()
    out = format_text(text)
    assert out is not None and "// sylla: ignore[H501\n" in out
    assert [c for c, _ in _codes(out)] == ["H501", "N607"]
