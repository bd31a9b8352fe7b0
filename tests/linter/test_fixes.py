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


def _fix_all(text: str, name: str = "x.jsonc") -> str:
    from sylla.linter.fixes import fix_all

    return fix_all(lint(text, name), lambda t: lint(t, name)).text


def test_h501_pair_goes_around_the_blocks_after_an_existing_reset() -> None:
    """The `{"$info": {}}` right after the test phase used to cancel the inserted disable:
    every --fix added two lines and H501 stayed."""
    text = (FIX / "H501_reset_before_blocks_bad.json").read_text()
    fixed = _fix_all(text)
    assert fixed == text.replace(
        '    {"$info": {}},\n    {"$repeat": {"$episode": "Pong"}, "count": 5}\n',
        '    {"$info": {}},\n    {"$info": {"disable_updates": true}},\n'
        '    {"$repeat": {"$episode": "Pong"}, "count": 5},\n    {"$info": {}}\n',
    )
    assert [f.code for f in lint(fixed, "x.json").findings if f.code.startswith("H")] == []
    assert _fix_all(fixed) == fixed


def test_h501_no_fix_when_an_info_between_the_blocks_sets_learning() -> None:
    text = (
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 10},\n'
        '  {"$phase": "1.test"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5},\n  {"$info": {}},\n'
        '  {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}\n'
    )
    (h501,) = [f for f in lint(text, "x.json").findings if f.code == "H501"]
    assert h501.fix is None


def test_h501_insertion_after_a_comment_before_the_comma() -> None:
    text = (FIX / "H501_comment_before_comma_bad.jsonc").read_text()
    fixed = _fix_all(text)
    assert fixed == text.replace(
        '    , {"$repeat": {"$episode": "Pong"}, "count": 5} /* last */\n',
        '    , {"$info": {"disable_updates": true}}, {"$repeat": {"$episode": "Pong"}, "count": 5}, {"$info": {}} /* last */\n',
    )
    again = lint(fixed, "x.jsonc")
    assert again.parse.syntax_ok and not [f for f in again.findings if f.code == "H501"]


def test_h502_insertion_after_a_comment_before_the_comma() -> None:
    text = (FIX / "H502_comment_before_comma_bad.jsonc").read_text()
    fixed = _fix_all(text)
    assert fixed == text.replace('    , {"$phase": "2.train"},\n', '    , {"$info": {}}, {"$phase": "2.train"},\n')
    again = lint(fixed, "x.jsonc")
    assert again.parse.syntax_ok and not [f for f in again.findings if f.code == "H502"]


@pytest.mark.parametrize("line", [
    '    {"$repeat": {"$episode": "Pong"}, "count": 25 /* seed 2 */, "x_seed": 7},\n',
    '    {"$repeat": {"$episode": "Pong"}, "count": 25 /* seed 2 */},\n',
    '    {"$repeat": {"$episode": "Pong"}, "count": 25, "x_seed": 7},\n',
])
def test_h505_offers_no_merge_that_would_lose_the_second_block(line: str) -> None:
    base = (FIX / "H505_keeps_second_block_bad.jsonc").read_text()
    text = base.replace('    {"$repeat": {"$episode": "Pong"}, "count": 25 /* seed 2 */, "x_seed": 7},\n', line)
    assert line in text
    (h505,) = [f for f in lint(text, "x.jsonc").findings if f.code == "H505"]
    assert h505.fix is None
    assert apply_fixes(text, [h505]) == text


def test_h505_merges_when_the_extra_keys_are_the_same() -> None:
    text = (
        '{"instructions": [\n  {"$phase": "1.train"},\n'
        '  {"$repeat": {"$episode": "Pong"}, "count": 50, "x_seed": 7},\n'
        '  {"$repeat": {"$episode": "Pong"}, "count": 25, "x_seed": 7}\n]}\n'
    )
    (h505,) = [f for f in lint(text, "x.json").findings if f.code == "H505"]
    assert apply_fixes(text, [h505]) == (
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 75, "x_seed": 7}\n]}\n'
    )


@pytest.mark.parametrize("phase", [
    '{"$phase": "1.test", "enable_updates": 1.5}',
    '{"$phase": "1.test", "enable_updates": null}',
    '{"$phase": "1.test", "enable_updates": true, "enable_updates": true}',
])
def test_h501_no_fix_on_a_non_boolean_or_duplicated_flag(phase: str) -> None:
    """Found by fuzzing: the fix added `"enable_updates": false` next to the bad key on every
    run (a duplicate key the engine ignores), so the file grew and H501 stayed."""
    text = (FIX / "H501_flag_bad.json").read_text().replace('{"$phase": "1.test"}', phase)
    assert phase in text
    assert [f.fix for f in lint(text, "x.json").findings if f.code == "H501"] == [None]


def test_insertion_and_trailing_comma_removal_do_not_drop_the_separator() -> None:
    """Found by fuzzing: H501 inserted `{"$info": {}},` after the last block's trailing comma
    while N602 deleted that comma in the same round."""
    text = (
        '{\n  "instructions": [\n    {"$phase": "1.train"},\n    {"$repeat": {"$episode": "Pong"}, "count": 100},\n'
        '    {"$phase": "1.test"},\n    {"$repeat": {"$episode": "Pong"}, "count": 10},\n  ]\n}\n'
    )
    fixed = _fix_all(text, "x.json")
    assert fixed == (
        '{\n  "instructions": [\n    {"$phase": "1.train"},\n    {"$repeat": {"$episode": "Pong"}, "count": 100},\n'
        '    {"$phase": "1.test"},\n    {"$info": {"disable_updates": true}},\n'
        '    {"$repeat": {"$episode": "Pong"}, "count": 10},\n    {"$info": {}}\n  ]\n}\n'
    )


def test_fix_all_runs_rounds_until_stable_and_returns_the_lint_of_its_text() -> None:
    """tests/fixtures/lsp/separators.json needs two rounds: one round leaves a fix behind (the
    N602 trailing comma meets the H501 insertion after the last block)."""
    from sylla.linter.fixes import fix_all

    name = "separators.json"
    text = (FIX.parent / "lsp" / name).read_text()
    first = lint(text, name)
    one_round = apply_fixes(text, first.findings)
    assert any(f.fix is not None and f.fix.safe for f in lint(one_round, name).findings)
    loop = fix_all(first, lambda t: lint(t, name))
    assert loop.rounds >= 2 and loop.text != one_round
    assert loop.result.findings == lint(loop.text, name).findings  # the CLI reports this lint
    assert not any(f.fix is not None and f.fix.safe for f in loop.result.findings)
    assert fix_all(loop.result, lambda t: lint(t, name)).text == loop.text


def test_fix_all_never_applies_a_round_that_breaks_the_syntax() -> None:
    """A fix whose edit would leave the file unparseable (here one that deletes the closing
    brace, beside the real fixes of the round) makes the loop stop at the last text that parsed."""
    from sylla.grammar.core import Span
    from sylla.kit.record import replace
    from sylla.linter.finding import Edit, Fix
    from sylla.linter.fixes import fix_all

    name = "N602_bad.json"
    text = (FIX / name).read_text()
    first = lint(text, name)
    assert first.parse.syntax_ok and any(f.fix is not None for f in first.findings)
    close = text.rindex("}")
    breaking = replace(first.findings[0], code="X999", fix=Fix("delete the brace", (Edit(Span(close, close + 1), ""),)))
    assert not lint(apply_fixes(text, [*first.findings, breaking]), name).parse.syntax_ok
    loop = fix_all(replace(first, findings=[*first.findings, breaking]), lambda t: lint(t, name))
    assert loop.text == text and loop.rounds == 0 and loop.result.parse.syntax_ok
    # a text that does not parse gets no fixes at all
    broken = text[:close]
    assert fix_all(lint(broken, name), lambda t: lint(t, name)).text == broken
