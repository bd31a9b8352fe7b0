"""Syntax errors: every one reported, in plain words, with line and column; never a raise."""

from __future__ import annotations

import pytest

import sylla

from .helpers import parse_fixture, where


def test_many_errors_are_all_reported() -> None:
    result = parse_fixture("many-errors.json")
    found = where(result)
    assert len(found) >= 20
    assert found[:11] == [
        (3, 27, "expected ',' or ']' after an instruction, found '{'"),
        (4, 5, "expected ',' or ']' after an instruction, found '{'"),
        (4, 38, "expected ',' or '}' after the value of \"$repeat\", found \"count\""),
        (5, 5, "expected ',' or ']' after an instruction, found '{'"),
        (5, 17, "expected ':' after the key \"$episode\", found \"Pong\""),
        (6, 5, "expected ',' or ']' after an instruction, found '{'"),
        (6, 16, "JSON strings use double quotes, not single quotes"),
        (7, 5, "expected ',' or ']' after an instruction, found '{'"),
        (7, 18, "unquoted text 'Pong': strings and keys need double quotes"),
        (8, 5, "expected ',' or ']' after an instruction, found '{'"),
        (8, 48, "'01' is not a valid JSON number"),
    ]
    # one missing comma between two instructions on one line, fourteen times
    assert sum(1 for line, col, _ in found if col in (27, 28)) == 15


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ('{"a": 1 "b": 2}', 1, 9, "expected ',' or '}' after the value of \"a\", found \"b\""),
        ('{"a": [1, 2}', 1, 12, "expected ',' or ']' after an array element, found '}'"),
        ('{"a": }', 1, 7, "expected a value, found '}'"),
        ('{"instructions": [\n  {"$phase": "1.train"}', 2, 24, "expected ',' or ']' after an instruction, found the end of the file"),
        ('{"a": "unterminated\n}', 1, 7, "string is not closed: add '\"' before the end of the line"),
        ('{"a": True}', 1, 7, "JSON spells it true, not True"),
        ('{"a": NaN}', 1, 7, "NaN is not a JSON number"),
        ('{"a": 1} /* open', 1, 10, "comment is never closed: add '*/'"),
        ('{"a": "tab\there"}', 1, 7, "string contains a raw control character U+0009: write it escaped"),
        ('{"a": "\\x"}', 1, 7, "invalid escape '\\x' in a string"),
        ('{"a": 1} @', 1, 10, "unexpected character '@'"),
        ('{"a": 1}}', 1, 9, "expected the end of the file, found '}'"),
    ],
)
def test_error_messages(text: str, line: int, column: int, message: str) -> None:
    result = sylla.parse(text)
    assert where(result)[0] == (line, column, message)


def test_recovery_keeps_the_rest_of_the_document() -> None:
    result = sylla.parse('{"instructions": [{"$phase": "1.train"} {"$episode": "Pong"}]}')
    assert result.model is not None
    assert [type(i).__name__ for i in result.model.instructions] == ["PhaseMark", "Block"]


def test_too_many_errors_stop() -> None:
    result = sylla.parse("[" + "1 " * 500 + "]")
    assert result.model is None
    assert result.diagnostics[-1].kind == "too-many-errors"
    assert len(result.diagnostics) == 101


def test_scalar_document_is_not_a_syllabus() -> None:
    result = sylla.parse('"just a string"')
    assert result.model is None
    assert result.diagnostics[0].kind == "not-a-syllabus"


@pytest.mark.parametrize("depth", [101, 150, 201, 300, 394, 1000])
def test_nesting_past_the_limit_is_too_deep_and_never_a_recursion_error(depth: int) -> None:
    # an instruction holds two objects, so `depth` arrays inside it nest depth + 2 levels:
    # 201-394 once got past the parser and crashed jsonschema with a RecursionError
    text = '{"instructions": [{"$repeat": {"$episode": "Pong", "w": ' + "[" * depth + "0.1" + "]" * depth + '}, "count": 5}]}'
    codes = [f.code for f in sylla.lint(text.encode(), "deep.json").findings]
    assert codes == ["S110"]


def test_nesting_at_the_limit_is_parsed() -> None:
    text = '{"instructions": [{"$repeat": {"$episode": "Pong", "w": ' + "[" * 98 + "0.1" + "]" * 98 + '}, "count": 5}]}'
    assert "S110" not in [f.code for f in sylla.lint(text.encode(), "deep.json").findings]
