"""The schema check left for later (``parse(..., schema=False)``, then ``checked``) gives what a
full parse gives: the same model at once, every other diagnostic at once, and, once checked,
exactly the full parse's diagnostics in its order. Versions parsed incrementally from a parse
whose check is pending stay pending (the schema diagnostics they would carry over are not
known), through syntax errors and back, and each one checked equals a full parse of its text
and lints as ``sylla lint`` does: an editor's first edits after opening a file go this way."""

from __future__ import annotations

import random

import pytest
from fuzzing.syllabus import mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.incremental import reparse
from sylla.grammar.syllabus.parse import ParseResult, checked, parse
from sylla.grammar.syllabus.schema import validate
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.linter import Config, lint

from .test_incremental import TEXTS, assert_same
from .test_incremental_anywhere import keystroke

#: the suite's syllabi whose full parse has schema diagnostics: the check is what they test
WITH_SCHEMA_ERRORS = [text for text in TEXTS if any(d.kind == "schema" for d in parse(text).diagnostics)]


def _findings(result: ParseResult, text: str) -> list[tuple[object, ...]]:
    return [(f.code, f.message, f.span, f.severity) for f in lint(text, None, Config(), parsed=result).findings]


def test_the_suite_has_syllabi_with_schema_errors() -> None:
    assert len(WITH_SCHEMA_ERRORS) >= 3


@pytest.mark.parametrize("text", TEXTS)
def test_the_check_made_later_equals_the_full_parse(text: str) -> None:
    full = parse(text)
    later = parse(text, schema=False)
    assert later.model == full.model
    assert later.diagnostics == [d for d in full.diagnostics if d.kind != "schema"]
    assert later.schema_pending
    done = checked(later)
    assert not done.schema_pending
    assert_same(done, full)
    assert done.model is later.model  # the check adds diagnostics; the model is the one answered from
    assert checked(done) is done
    assert _findings(done, text) == _findings(full, text)


def test_a_parse_with_its_check_made_is_left_alone() -> None:
    full = parse(TEXTS[0])
    assert not full.schema_pending
    assert checked(full) is full


def test_between_is_called_while_a_long_document_is_checked() -> None:
    text = phase_pairs(instructions=300)
    model = parse(text, schema=False).model
    assert model is not None and model.source_map is not None
    calls: list[None] = []
    found = validate(model.value, model.form, model.source_map, text, lambda: calls.append(None))
    assert len(calls) >= 2
    assert found == [d for d in parse(text).diagnostics if d.kind == "schema"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(WITH_SCHEMA_ERRORS + TEXTS), st.integers(0, 2**32 - 1), st.integers(1, 8), st.data())
def test_versions_parsed_from_an_unchecked_parse_stay_pending_and_check_to_full_parses(
    text: str, seed: int, steps: int, data: st.DataObject
) -> None:
    if seed % 4 == 0:
        text = mutate(text, random.Random(seed), 1)
    result = parse(text, schema=False)
    for _ in range(steps):
        text = data.draw(keystroke(text))
        if data.draw(st.integers(0, 3)) == 0:
            result = checked(result)  # the lint checked the version before: the next is parsed from that
        was_pending = result.schema_pending
        result = reparse(result, text)
        full = parse(text)
        if was_pending and result.model is not None:
            assert result.schema_pending
            assert not any(d.kind == "schema" for d in result.diagnostics)  # none half-known
            assert result.schema_memo is None
        elif not was_pending:
            assert_same(result, full)
        assert_same(checked(result), full)
        assert _findings(checked(result), text) == _findings(full, text)
