"""``reparse`` after edits anywhere: between instructions, across their boundaries, at the
top level, and through states where the file does not parse, equals a full parse, and the lint
of its result equals a fresh ``sylla lint`` of the text.

The edits are the ones a person makes one keystroke at a time (a character typed or deleted,
a line break, a bracket, a quote, a comma), chained into editing sessions on the real syllabi
of the suite and their mutants, each step parsed from the previous step's result, so that a
syntax error made by one keystroke and repaired by a later one goes through the incremental
paths on both sides."""

from __future__ import annotations

import random

import pytest
from fuzzing.syllabus import mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus import incremental
from sylla.grammar.syllabus.incremental import reparse
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.linter import Config, lint

from .test_incremental import TEXTS, assert_same

pytestmark = pytest.mark.slow

#: one keystroke: what JSON is made of, layout, and what breaks it
KEY = st.sampled_from(list('{}[],:" \n\t0123456789ae$./*-') + ["\r\n", "//", "<--", "é"])


@st.composite
def keystroke(draw: st.DrawFn, text: str) -> str:
    """``text`` with one character (or line break) typed or deleted, somewhere; most often at
    a place that matters to structure: next to a bracket, comma, colon or quote."""
    if text and draw(st.integers(0, 2)):
        marks = [i for i, c in enumerate(text) if c in '{}[],:"\n']
        at = draw(st.sampled_from(marks)) + draw(st.integers(-1, 1)) if marks else 0
        at = min(max(at, 0), len(text))
    else:
        at = draw(st.integers(0, len(text)))
    if draw(st.booleans()) and at < len(text):
        return text[:at] + text[at + 1 :]
    return text[:at] + draw(KEY) + text[at:]


def _findings(result, text: str):
    return [(f.code, f.message, f.span, f.severity) for f in lint(text, None, Config(), parsed=result).findings]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(TEXTS), st.integers(0, 2**32 - 1), st.integers(1, 8), st.data())
def test_an_editing_session_anywhere_equals_full_parses_and_fresh_lints(
    text: str, seed: int, steps: int, data: st.DataObject
) -> None:
    if seed % 4 == 0:
        text = mutate(text, random.Random(seed), 1)
    result = parse(text)
    for _ in range(steps):
        text = data.draw(keystroke(text))
        result = reparse(result, text)
        fresh = parse(text)
        assert_same(result, fresh)
        assert _findings(result, text) == [
            (f.code, f.message, f.span, f.severity) for f in lint(text, None, Config()).findings
        ]


def _edit_at(text: str, needle: str, offset: int, new: str, cut: int = 0) -> str:
    at = text.index(needle) + offset
    return text[:at] + new + text[at + cut :]


def test_the_edits_of_the_bench_take_an_incremental_path() -> None:
    """Each kind of keystroke ``bench/lsp_edits.py`` makes is parsed incrementally (the
    property above would pass with full parses only), one after the other, the broken
    states included."""
    text = phase_pairs(instructions=200)
    result = parse(text)
    line = '{"$repeat": {"$episode": "Pong"}, "count": 10}'
    steps = [
        lambda t: _edit_at(t, '  "instructions"', 0, " "),  # the start of a top-level line
        lambda t: _edit_at(t, '"author"', 2, "x"),  # inside a top-level key
        lambda t: _edit_at(t, '"sylla"', 3, "", 1),  # inside a top-level string
        lambda t: _edit_at(t, line + ",", len(line) + 1, " "),  # whitespace between instructions
        lambda t: _edit_at(t, line + ",", len(line) + 1, "", 1),  # a line break deleted
        lambda t: _edit_at(t, line, 0, "\n"),  # a line break typed before an instruction
        lambda t: _edit_at(t, '"Pong"}, "count": 10', 3, "o"),  # inside a string
        lambda t: _edit_at(t, line + ",", len(line), "", 1),  # a comma deleted: invalid
        lambda t: _edit_at(t, '"$phase": "3.train"', 0, "", 1),  # a quote deleted: still invalid
        lambda t: _edit_at(t, '$phase": "3.train"', 0, '"'),  # the quote back
        lambda t: _edit_at(t, line + "\n", len(line), ","),  # the comma back: valid again
        lambda t: _edit_at(t, line + ",\n    {\"$info", len(line) - 1, "", 1),  # an instruction's closing brace deleted
        lambda t: _edit_at(t, '"count": 10,\n    {"$info', len('"count": 10'), "}"),  # and typed back
    ]
    for n, step in enumerate(steps):
        text = step(text)
        fast = incremental._reparse(result, text)
        assert fast is not None, f"step {n} was parsed in full"
        assert_same(fast, parse(text))
        result = fast
    assert result.diagnostics == parse(text).diagnostics
