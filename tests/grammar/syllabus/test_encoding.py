"""Bytes that are not clean UTF-8 JSON: each gets a clear diagnostic or parses correctly."""

from __future__ import annotations

import sys

import sylla
from sylla.grammar.syllabus.model import NonJsonKind

from .helpers import parse_fixture, where


def test_bom_is_dropped_and_recorded() -> None:
    result = parse_fixture("bom.json")
    assert result.diagnostics == []
    assert result.model is not None
    assert result.model.non_json[0].kind is NonJsonKind.BOM
    assert result.model.blocks[0].task == "Pong"


def test_bom_in_a_str_is_dropped_too() -> None:
    result = sylla.parse('\ufeff{"instructions": []}')
    assert result.diagnostics == [] and result.model is not None


def test_crlf_lines_and_columns() -> None:
    result = parse_fixture("crlf.json")
    assert result.diagnostics == []
    model = result.model
    assert model is not None
    block = model.blocks[0]
    assert model.line_col(block.span.start) == (4, 5)
    assert model.line_col(block.count_span.start) == (4, 48)  # type: ignore[union-attr]
    assert block.count == 7


def test_lone_cr_is_a_line_break() -> None:
    result = sylla.parse('{\r"a": 1 "b": 2}')
    assert where(result)[0][:2] == (2, 8)


def test_invalid_utf8_is_reported_and_parsing_goes_on() -> None:
    result = sylla.parse(b'{"name": "caf\xe9",\n "instructions": [{"$phase": "1.train"} {"$phase": "1.test"}]}')
    kinds = [(d.kind, *result.lines.line_col(d.span.start)) for d in result.diagnostics]
    assert kinds == [("invalid-utf8", 1, 14), ("syntax", 2, 41)]


def test_empty_and_whitespace_only_files() -> None:
    for text in ("", "   \n", "// only a comment\n"):
        result = sylla.parse(text)
        assert result.model is None
        assert [d.kind for d in result.diagnostics] == ["empty"]


def test_binary_and_utf16_files() -> None:
    assert [d.kind for d in sylla.parse(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR").diagnostics] == ["binary"]
    utf16 = '{"instructions": []}'.encode("utf-16")
    assert [d.message for d in sylla.parse(utf16).diagnostics] == ["file is UTF-16 encoded; save it as UTF-8"]


def test_hundred_thousand_nested_brackets_do_not_recurse() -> None:
    limit = sys.getrecursionlimit()
    for text in ("[" * 100_000 + "]" * 100_000, "[" * 100_000, '{"a":' * 100_000):
        result = sylla.parse(text)
        assert result.model is None
        assert [d.kind for d in result.diagnostics] == ["too-deep"]
    assert sys.getrecursionlimit() == limit


def test_deep_parameter_values_below_the_limit_parse_and_validate() -> None:
    text = '{"instructions": [{"$episode": "A", "p": ' + "[" * 95 + "1" + "]" * 95 + "}]}"
    result = sylla.parse(text)
    assert result.diagnostics == []
    assert result.model is not None and result.model.blocks[0].task == "A"
