"""fmt: canonical layout, idempotent, same parsed value, comments kept (hypothesis property)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sylla import parse
from sylla.linter import format_text


def test_layout() -> None:
    text = '{"name":"x", // n\n"instructions":[{"$phase":"1.train"},{"$repeat":{"$episode":"Pong"},"count":5},{"$phase":"1.test"},]}'
    assert format_text(text) == (
        '{\n  "name": "x", // n\n  "instructions": [\n    {"$phase": "1.train"},\n'
        '    {"$repeat": {"$episode": "Pong"}, "count": 5},\n\n    {"$phase": "1.test"}\n  ]\n}\n'
    )


def test_syntax_error_gives_none() -> None:
    assert format_text('{"instructions": [{"$phase": "1.train"} {"$info": {}}]}') is None


phase = st.integers(1, 9).flatmap(lambda n: st.sampled_from([f"{n}.train", f"{n}.test"])).map(lambda label: {"$phase": label})
block = st.builds(
    lambda t, c, w: {"$repeat": {"$episode": t, **({"w": w} if w is not None else {})}, "count": c},
    st.sampled_from(["Pong", "Breakout"]), st.integers(1, 5000), st.none() | st.floats(0, 1, allow_nan=False),
)
info = st.sampled_from([{"$info": {}}, {"$info": {"disable_updates": True}}])
comment = st.text(st.characters(codec="utf-8", exclude_characters="\r\n*/"), max_size=12).map(lambda s: "// " + s)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(phase, block, info), max_size=12), st.lists(st.tuples(st.integers(0, 50), comment), max_size=4), st.booleans())
def test_fmt_idempotent_preserves_value_and_comments(instructions, comments, compact) -> None:
    doc = {"name": "p", "instructions": instructions}
    text = json.dumps(doc, separators=(",", ":") if compact else None, indent=None if compact else 1)
    lines = text.split("\n")
    # comments go at the end of a line (always a legal place outside strings when the line ends a token)
    for at, c in comments:
        i = at % len(lines)
        if not lines[i].rstrip().endswith(('"', ":")) or lines[i].rstrip().endswith('",') or i == len(lines) - 1:
            lines[i] = lines[i] + " " + c
    text = "\n".join(lines)
    parsed = parse(text)
    if not parsed.syntax_ok:
        return
    out = format_text(text)
    assert out is not None
    assert format_text(out) == out
    assert parse(out).model.value == parsed.model.value
    assert sorted(re.findall(r"//[^\n]*", out)) == sorted(c.rstrip() for c in re.findall(r"//[^\n]*", text))


def _stable(text: str) -> str:
    out = format_text(text)
    assert out is not None, "refused valid input"
    assert parse(out).syntax_ok
    assert format_text(out) == out
    return out


def test_line_comment_and_multiline_block_comment_stay_apart() -> None:
    """`// a` then `, /* b\\n c */` used to be joined into `// a /* b`, which made `c */` text."""
    text = '{"instructions": [\n  {"$phase": "1.train"} // a\n  , /* b\n  c */ {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}\n'
    assert _stable(text) == (
        '{\n  "instructions": [\n    {"$phase": "1.train"}, // a\n'
        '    /* b\n  c */ {"$repeat": {"$episode": "Pong"}, "count": 5}\n  ]\n}\n'
    )


def test_notes_on_neighbouring_lines_stay_two_notes() -> None:
    text = '{"instructions": [\n  {"$phase": "1.train"} <-- a\n  , <-- b\n  {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}\n'
    out = _stable(text)
    assert '{"$phase": "1.train"}, <-- a\n    <-- b\n    {"$repeat"' in out
    assert len(parse(out).model.non_json) == len(parse(text).model.non_json)


def test_comment_before_a_leading_comma_is_formatted() -> None:
    text = '{"instructions": [\n  {"$phase": "1.train"}\n  // evaluation\n  , {"$phase": "1.test"}\n]}\n'
    assert _stable(text) == (
        '{\n  "instructions": [\n    {"$phase": "1.train"},\n\n    // evaluation\n    {"$phase": "1.test"}\n  ]\n}\n'
    )


def test_comment_between_colon_and_value_in_a_fragment() -> None:
    assert _stable('"instructions": /* c */ [{"$phase": "1.train"}]\n') == '"instructions": /* c */ [\n  {"$phase": "1.train"}\n]\n'
    assert _stable('"instructions": // c\n  [{"$phase": "1.train"}]\n') == '// c\n"instructions": [\n  {"$phase": "1.train"}\n]\n'


def test_crlf_multiline_comment_does_not_gain_cr() -> None:
    text = '{\r\n  /* a\r\n     b */\r\n  "instructions": [{"$phase": "1.train"}]\r\n}\r\n'
    out = _stable(text)
    assert out == '{\r\n  /* a\r\n     b */\r\n  "instructions": [\r\n    {"$phase": "1.train"}\r\n  ]\r\n}\r\n'
    assert "\r\r" not in out


def test_bom_is_kept_and_formatting_settles() -> None:
    text = '\ufeff{"instructions": [{"$phase": "1.train"}]}'
    out = _stable(text)
    assert out == '\ufeff{\n  "instructions": [\n    {"$phase": "1.train"}\n  ]\n}\n'


def test_suppression_directives_stay_on_the_line_they_name() -> None:
    from sylla.linter import lint

    text = (
        '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5},\n'
        ' /* sylla: ignore[H501] */ {"$phase": "1.test"}, {"$repeat": {"$episode": "Pong"}, "count": 5}]}\n'
    )
    assert not [f for f in lint(text, "x.jsonc").findings if f.code == "H501"]
    out = _stable(text)
    assert '    /* sylla: ignore[H501] */ {"$phase": "1.test"},\n' in out
    assert not [f for f in lint(out, "x.jsonc").findings if f.code == "H501"]
    # a trailing directive after a long value: the value stays on the directive's line
    params = ", ".join(f'"p{i}": {i}' for i in range(30))
    text = '{"default_params": {' + params + '}, // sylla: ignore[R702]\n "x_extra": 1, "instructions": []}'
    out = _stable(text)
    assert '  "default_params": {' + params + "}, // sylla: ignore[R702]\n" in out


def test_directive_inside_an_instruction_moves_to_its_first_line() -> None:
    """Found by fuzzing: a directive between an instruction's keys made fmt write the
    instruction over several lines, and the directive then named a line inside it."""
    from sylla.linter import lint

    text = (
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5},\n'
        '  {"$phase": // sylla: ignore[H501]\n  "1.test"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5}\n]}\n'
    )
    assert not [f for f in lint(text, "x.jsonc").findings if f.code == "H501"]
    out = _stable(text)
    assert '    {"$phase": "1.test"}, // sylla: ignore[H501]\n' in out
    assert not [f for f in lint(out, "x.jsonc").findings if f.code == "H501"]
    # with another comment inside, the instruction keeps several lines: the directive goes after `{`
    text = text.replace('  "1.test"}', '  "1.test" /* why */}')
    out = _stable(text)
    assert '    { // sylla: ignore[H501]\n      "$phase": "1.test" /* why */\n    },\n' in out
    assert not [f for f in lint(out, "x.jsonc").findings if f.code == "H501"]


def test_directive_after_an_instruction_written_over_several_lines() -> None:
    """Found by the campaign: with a comment inside, the instruction is written over several
    lines and a trailing directive would name its last line; it goes after the `{`."""
    text = '{"instructions": [{"$phase": /**/ "1.train"},  // sylla: ignore[H50\n{"$episode": "Pong"}]}\n'
    out = _stable(text)
    assert out == (
        '{\n  "instructions": [\n    { // sylla: ignore[H50\n      "$phase": /**/ "1.train"\n    },\n'
        '    {"$episode": "Pong"}\n  ]\n}\n'
    )


def test_hoisted_directive_goes_before_a_multiline_comment() -> None:
    """Found by the campaign: appended after `/* multi\\n line */`, the directive landed on
    the comment's second line."""
    text = (
        '{"instructions": [\n  {"$phase": "1.train"},\n'
        '  {"$repeat": {"$episode" /* sylla: ignore[H505] */ : "Pong"}, "count": 10} /* multi\n   line */,\n'
        '  {"$repeat": {"$episode": "Pong"}, "count": 10}\n]}\n'
    )
    out = _stable(text)
    assert '    {"$repeat": {"$episode": "Pong"}, "count": 10}, /* sylla: ignore[H505] */ /* multi\n   line */\n' in out
