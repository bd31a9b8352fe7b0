"""The outline of a new version, written reusing the previous outline's pieces (one per phase,
``outline_pieces.Pieces``), equals the outline written from scratch for that text.

Edits are typed anywhere (mostly inside instructions, where the incremental parse applies),
with line breaks of every kind and characters that take two UTF-16 units or several UTF-8
bytes, in every position encoding, one after the other as in an editing session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.incremental import reparse
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.lsp import outline_pieces
from sylla.lsp.documents import Analysis
from sylla.lsp.outline import document_symbols

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
BASE = phase_pairs(instructions=60)
TEXTS = [
    BASE,
    BASE.replace("\n", "\r\n"),
    BASE.replace('"Pong"', '"Pöng𝄞"', 5),
    (FIXTURES / "good.json").read_text(encoding="utf-8"),
    (FIXTURES / "unicode.jsonc").read_text(encoding="utf-8"),
]
TYPED = st.lists(st.sampled_from(list("0123456789 ab\n") + ["\r\n", "\r", "é", "𝄞", '"', ",", "}"]), max_size=4).map("".join)
ENCODINGS = st.sampled_from(["utf-16", "utf-8", "utf-32"])
URI = "file:///outline.json"


def outline(text: str, encoding: str, result, previous=None):
    return document_symbols(Analysis(URI, None, text, encoding, result), previous)


@st.composite
def edit(draw: st.DrawFn, text: str) -> str:
    model = parse(text).model
    spans = [i.span for i in model.instructions if i.span.end - i.span.start > 2] if model else []
    if spans and draw(st.integers(0, 3)):
        span = draw(st.sampled_from(spans))
        start = draw(st.integers(span.start + 1, span.end - 1))
        end = draw(st.integers(start, span.end - 1))
    else:
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 5)))
    return text[:start] + draw(TYPED) + text[end:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(TEXTS), ENCODINGS, st.data())
def test_a_reused_outline_equals_a_fresh_one(text: str, encoding: str, data: st.DataObject) -> None:
    _session(text, encoding, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(TEXTS), ENCODINGS, st.data())
def test_a_reused_outline_equals_a_fresh_one_across_chunks(text: str, encoding: str, data: st.DataObject) -> None:
    """The same with two phases per chunk, so that these small texts have many chunks and an
    edit that adds or removes a phase moves the chunks' bounds."""
    saved = outline_pieces.CHUNK
    outline_pieces.CHUNK = 2
    try:
        _session(text, encoding, data)
    finally:
        outline_pieces.CHUNK = saved


def _session(text: str, encoding: str, data: st.DataObject) -> None:
    """Two edits one after the other, each outline from the last one's pieces."""
    result = parse(text)
    _, rendered = outline(text, encoding, result)
    for _ in range(2):
        new = data.draw(edit(text))
        result = reparse(result, new)
        answer, rendered = outline(new, encoding, result, rendered)
        fresh, _ = outline(new, encoding, parse(new))
        assert json.loads(answer) == json.loads(fresh)
        text = new


def test_the_outline_is_the_documented_json() -> None:
    """The JSON text is LSP's DocumentSymbol[] (the values test_outline.py checks through a
    client), with the non-ASCII of names and details escaped and nothing else."""
    text = (FIXTURES / "good.json").read_text(encoding="utf-8")
    answer, _ = outline(text, "utf-16", parse(text))
    assert answer.isascii()
    symbols = json.loads(answer)
    assert set(symbols[0]) == {"name", "detail", "kind", "range", "selectionRange", "children"}
    assert set(symbols[0]["children"][0]) == {"name", "detail", "kind", "range", "selectionRange"}
    assert symbols[0]["children"][0]["detail"] == "$repeat · episodes 0–4999"
