"""Trial files past the limits of Python's own machinery (issue 38): nesting deeper than any
recursion, integers past the 4,300 digits ``int`` converts, lists of millions of values. Each
is a finding at its position, in bounded memory; none is a traceback.

The properties mutate the request's real trial files (tests/fixtures/trials/json) in the ways
that break a parser built on recursion or on ``int``/``json``: wrap a value in brackets, make a
number very long, cut the file. Every mutant holds an error by construction, so linting it
must report one; the positions must lie inside the text."""

from __future__ import annotations

import json
import re
import tracemalloc
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.core import Severity
from sylla.grammar.trials.detect import is_trial_file
from sylla.grammar.trials.parse import MAX_DEPTH, MAX_SAID, parse
from sylla.grammar.trials.plain import plain_examples
from sylla.linter.languages import language_of, lint_text

JSON = Path(__file__).resolve().parents[2] / "fixtures" / "trials" / "json"
SEEDS = sorted(JSON.glob("*.json"))
#: where a value of an example's list starts in a trial file as the request writes it
_VALUE = re.compile(r"(?<=[\[ ])[0-9]+(?=[,\]])")


def _errors(text: str) -> list[tuple[str, int, int]]:
    result = lint_text(text, "c046_1.json")
    for f in result.findings:
        assert 0 <= f.span.start <= f.span.end <= len(text), f
    return [(f.code, f.span.start, f.span.end) for f in result.findings if f.severity is Severity.ERROR]


def test_nesting_past_the_limit_is_one_finding_at_the_bracket_that_goes_too_deep() -> None:
    text = SEEDS[0].read_text()
    at = text.index('"i": [') + len('"i": ')
    deep = text[:at] + "[" * 70_000 + text[at:].replace("]", "]" * 70_001, 1)
    assert is_trial_file(deep.encode()) and language_of("c046_1.json", deep.encode()) == "trials"
    # the object, data and the example are 3 levels: the input's own bracket is the 4th
    bracket = at + MAX_DEPTH - 3
    assert _errors(deep) == [("W902", bracket, bracket + 1)]


def test_nesting_within_the_limit_is_a_nested_value_not_an_integer() -> None:
    text = SEEDS[0].read_text()
    at = text.index('"i": [') + len('"i": [')
    nested = text[:at] + "[[[1]]], " + text[at:]
    assert _errors(nested) == [("W902", at, at + len("[[[1]]]"))]
    assert "a nested value is not an integer" in lint_text(nested, "c046_1.json").findings[0].message


def test_an_integer_past_python_s_digit_limit_is_out_of_range_where_it_stands() -> None:
    text = SEEDS[0].read_text()
    m = _VALUE.search(text)
    assert m is not None
    huge = text[: m.start()] + "7" * 5000 + text[m.end():]
    found = lint_text(huge, "c046_1.json").findings
    assert [(f.code, f.span.start, f.span.end) for f in found] == [("W906", m.start(), m.start() + 5000)]
    assert "5,000 digits" in found[0].message
    assert plain_examples(huge) is None  # and the plain reader of the folder checks does not raise


def test_many_bad_values_give_a_bounded_report_in_bounded_memory() -> None:
    """An 80 KB trial file with 20,000 values out of range: at most MAX_SAID findings and one
    that counts the rest, and the lint holds under 100 bytes per byte of input (about 50; with a
    parse tree and a finding per value it held 290, and 2.3 GB for a 6 MB file)."""
    doc = json.loads(SEEDS[0].read_text())
    doc["data"][0]["i"] = [12] * 20_000
    text = json.dumps(doc)
    tracemalloc.start()
    try:
        result = lint_text(text, "c046_1.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    w906 = [f for f in result.findings if f.code == "W906"]
    assert len(w906) == MAX_SAID + 1
    assert f"{20_000 - MAX_SAID:,} more values" in w906[-1].message
    assert peak < 100 * len(text), (peak, len(text))


def _mutants() -> st.SearchStrategy[tuple[str, str]]:
    """(kind, mutant) from a real trial file; every kind leaves an error in the file."""
    seed = st.sampled_from(SEEDS).map(lambda p: p.read_text())

    def wrap(text: str, k: int, depth: int) -> tuple[str, str]:
        values = list(_VALUE.finditer(text))
        m = values[k % len(values)]
        return "nested", text[: m.start()] + "[" * depth + m.group() + "]" * depth + text[m.end():]

    def long_int(text: str, k: int, digits: int, sign: str) -> tuple[str, str]:
        values = list(_VALUE.finditer(text))
        m = values[k % len(values)]
        return "long", text[: m.start()] + sign + "9" * digits + text[m.end():]

    def long_float(text: str, k: int, exponent: int) -> tuple[str, str]:
        values = list(_VALUE.finditer(text))
        m = values[k % len(values)]
        return "float", text[: m.start()] + f"1.5e{exponent}" + text[m.end():]

    def cut(text: str, at: int) -> tuple[str, str]:
        keep = text.index('"data": [') + len('"data": [')  # still a trial file by its first key
        return "cut", text[: keep + at % (len(text) - keep - 1)]

    k = st.integers(min_value=0, max_value=10_000)
    return st.one_of(
        st.builds(wrap, seed, k, st.one_of(st.integers(1, 40), st.integers(900, 1100), st.integers(60_000, 80_000))),
        st.builds(long_int, seed, k, st.one_of(st.integers(21, 100), st.integers(4_290, 4_310), st.integers(20_000, 30_000)),
                  st.sampled_from(["", "-"])),
        st.builds(long_float, seed, k, st.integers(300, 100_000)),
        st.builds(cut, seed, k),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_mutants())
def test_every_mutant_is_an_error_at_a_position_never_a_traceback(mutant: tuple[str, str]) -> None:
    kind, text = mutant
    data = text.encode()
    assert is_trial_file(data) and language_of("c046_1.json", data) == "trials"
    assert _errors(text), kind
    plain_examples(data)  # what the folder checks read: None or examples, never a raise
    result = parse(data)
    for d in result.diagnostics:
        assert 0 <= d.span.start <= d.span.end <= len(text)
