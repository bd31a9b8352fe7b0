"""``Shift``: the changed region between two texts, and spans moved through it (lsp/stale.py).

Whatever the edit, a span the edit does not touch must cover the same text in the new text,
and the region must be bounded by text common to both (chunk boundaries included: texts are
made longer than the 4 KB chunks ``Shift`` compares at a time)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.grammar.core import Span
from sylla.lsp.stale import Shift

ALPHABET = st.sampled_from("ab\n{}")


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, str]:
    base = draw(st.text(ALPHABET, max_size=40))
    old = base * draw(st.sampled_from([1, 5, 300]))
    start = draw(st.integers(0, len(old)))
    end = draw(st.integers(start, len(old)))
    return old, old[:start] + draw(st.text(ALPHABET, max_size=10)) + old[end:]


@settings(max_examples=300, deadline=None)
@given(edits(), st.data())
def test_untouched_spans_keep_their_text(pair: tuple[str, str], data: st.DataObject) -> None:
    old, new = pair
    shift = Shift.between(old, new)
    assert old[: shift.start] == new[: shift.start]
    assert old[shift.old_end :] == new[shift.new_end :]
    assert shift.start <= shift.old_end and shift.start <= shift.new_end
    s = data.draw(st.integers(0, len(old)))
    span = Span(s, data.draw(st.integers(s, len(old))))
    moved = shift.span(span)
    if moved is None:
        assert shift.touches(span)
    else:
        assert new[moved.start : moved.end] == old[span.start : span.end]
        for o in (moved.start, moved.end):
            back = shift.old_offset(o)
            assert back is not None and back == o - (moved.start - span.start)


def test_one_character_replaced_in_a_large_text() -> None:
    old = "x" * 10_000 + "1" + "y" * 10_000
    shift = Shift.between(old, old.replace("1", "22"))
    assert (shift.start, shift.old_end, shift.new_end) == (10_000, 10_001, 10_002)
    assert shift.span(Span(0, 9_999)) == Span(0, 9_999)
    assert shift.span(Span(10_002, 10_005)) == Span(10_003, 10_006)
    assert shift.span(Span(9_990, 10_000)) is None  # borders the edit
