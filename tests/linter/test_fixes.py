"""Fixes: fix, lint again (clean for that rule), fix again (no change); bytes outside edits kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.linter import apply_fixes, lint

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


@pytest.mark.parametrize("fixture,code", [
    ("H501_bad.json", "H501"), ("H501_flag_bad.json", "H501"), ("H502_bad.json", "H502"),
    ("H505_bad.json", "H505"), ("N602_bad.json", "N602"),
])
def test_fix_round_trip(fixture: str, code: str) -> None:
    text = (FIX / fixture).read_text()
    first = lint(text, fixture)
    assert any(f.code == code and f.fix is not None for f in first.findings)
    fixed = apply_fixes(text, first.findings)
    assert fixed != text
    again = lint(fixed, fixture)
    assert again.parse.syntax_ok and again.parse.ok
    assert [f for f in again.findings if f.code == code] == []
    assert apply_fixes(fixed, again.findings) == fixed


def test_h501_inserts_info_pair_with_file_indentation() -> None:
    text = (FIX / "H501_bad.json").read_text()
    fixed = apply_fixes(text, lint(text, "x.json").findings)
    expected = text.replace(
        '    {"$phase": "1.test"},\n    {"$repeat": {"$episode": "Pong", "w": 0.1}, "count": 10},\n',
        '    {"$phase": "1.test"},\n    {"$info": {"disable_updates": true}},\n'
        '    {"$repeat": {"$episode": "Pong", "w": 0.1}, "count": 10},\n    {"$info": {}},\n',
    )
    assert fixed == expected


def test_h501_uses_enable_updates_style_when_file_does() -> None:
    text = (FIX / "H501_flag_bad.json").read_text()
    fixed = apply_fixes(text, lint(text, "x.json").findings)
    assert fixed == text.replace('{"$phase": "1.test"}', '{"$phase": "1.test", "enable_updates": false}')


def test_h505_merges_and_sums() -> None:
    text = (FIX / "H505_bad.json").read_text()
    fixed = apply_fixes(text, lint(text, "x.json").findings)
    assert fixed == text.replace(
        '"count": 50},\n    {"$repeat": {"$episode": "Pong", "w": 0.1}, "count": 25},', '"count": 75},'
    )


def test_trailing_comma_fix_keeps_comments() -> None:
    text = '{"instructions": [ // keep me\n  {"$phase": "1.train"}, /* and me */\n]}\n'
    fixed = apply_fixes(text, lint(text, "x.jsonc").findings)
    assert fixed == '{"instructions": [ // keep me\n  {"$phase": "1.train"} /* and me */\n]}\n'


def test_unsafe_fix_not_applied_by_default() -> None:
    text = (FIX / "P301_bad.json").read_text()
    findings = lint(text, "x.json").findings
    assert apply_fixes(text, findings) == text
    assert '"1.train"' in apply_fixes(text, findings, safe_only=False)
