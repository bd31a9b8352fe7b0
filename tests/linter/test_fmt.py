"""fmt: canonical layout, idempotent, same parsed value, comments kept (hypothesis property)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

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


phase = st.integers(1, 9).flatmap(lambda n: st.sampled_from([f"{n}.train", f"{n}.test"])).map(lambda l: {"$phase": l})
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
