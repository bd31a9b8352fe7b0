"""Properties: the parser agrees with json.loads on every JSON document, positions from the
fast path equal positions from the exact path, and no byte string makes it raise."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sylla
from sylla.grammar.syllabus.lalr import parse_range

pytestmark = pytest.mark.slow

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=40,
)
containers = st.one_of(st.lists(json_values, max_size=6), st.dictionaries(st.text(max_size=8), json_values, max_size=6))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(containers, st.sampled_from([None, 0, 2]), st.booleans())
def test_values_agree_with_json_loads(value: object, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    result = sylla.parse(text)
    assert not [d for d in result.diagnostics if d.kind != "schema"]
    assert result.model is not None
    assert result.model.value == json.loads(text)


@settings(max_examples=200)
@given(containers, st.sampled_from([None, 1]))
def test_whole_lexed_containers_resolve_to_exact_positions(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    fast = parse_range(text)
    exact = parse_range(text, exact=True)
    assert fast.root is not None and exact.root is not None
    assert fast.root.value == exact.root.value
    from sylla.grammar.syllabus.source_map import SourceMap

    fast_map, exact_map = SourceMap(text, fast.root), SourceMap(text, exact.root)
    for path in _paths(json.loads(text)):
        assert fast_map.span(path) == exact_map.span(path), path
        assert fast_map.key_span(path) == exact_map.key_span(path), path


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_any_bytes_give_diagnostics_and_never_raise(data: bytes) -> None:
    result = sylla.parse(data)
    assert result.model is not None or result.diagnostics


syllabus_alphabet = st.sampled_from(list('{}[]:,"\\ \n\t/*<-$abc0123456789.eE+truefalsn') + ["\r", "\x00", "é", "🎮"])


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(syllabus_alphabet, max_size=200))
def test_json_like_garbage_never_raises(text: str) -> None:
    result = sylla.parse(text)
    assert result.model is not None or result.diagnostics
    for d in result.diagnostics:
        assert 0 <= d.span.start <= d.span.end <= len(text)
