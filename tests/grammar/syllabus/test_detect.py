"""``is_syllabus``: the one decision every entry point shares, on the files that sit beside syllabi."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sylla
from sylla.grammar.syllabus.detect import is_syllabus

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SYLLABUS = '{"name": "x", "instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}]}'


@pytest.mark.parametrize(
    "text",
    [
        SYLLABUS,
        '{"instructions": []}',
        '[{"$phase": "1.train"}, {"$episode": "Pong"}]',  # a bare instruction list
        '{"instrutions": [{"$phase": "1.train"}]}',  # misspelt key: still a syllabus, to get its "did you mean"
        '{\n  // a JSONC syllabus\n  "instructions": /* list */ [\n    {"$info": {}},\n  ],\n}',
        '"instructions": [{"$dataset": "mnist", "num_batches": 3}]',  # the reference text's fragment
    ],
)
def test_syllabi_are_recognised(text: str) -> None:
    assert is_syllabus(text.encode())


@pytest.mark.parametrize(
    "text",
    [
        (FIXTURES / "lsp" / "package.json").read_text(encoding="utf-8"),
        '{"model": "x", "instructions": "You are a helpful assistant. Use \\"$phase\\": markers."}',
        '{"recipe": "pancakes", "steps": ["mix", "fry"]}',
        '{"tool": {"instructions": [1, 2]}}',  # a nested list is some other tool's setting
        "",
    ],
)
def test_other_json_is_not(text: str) -> None:
    assert not is_syllabus(text.encode())


def test_binary_is_not_a_syllabus_but_forced_files_are() -> None:
    assert not is_syllabus(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert is_syllabus(b"{}", force=True)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_syllabi_in_other_encodings_are_found_and_told_to_be_utf8(encoding: str) -> None:
    data = SYLLABUS.encode(encoding)
    assert is_syllabus(data)
    kinds = [d.kind for d in sylla.parse(data).diagnostics]
    if encoding == "utf-8-sig":
        assert kinds == []
    else:
        assert kinds == ["encoding"], kinds


def test_value_is_checked_when_the_text_is_strict_json() -> None:
    # "instructions" as a list only inside a string value is not a syllabus
    assert not is_syllabus(json.dumps({"doc": 'write "instructions": [ ... ]'}).encode())
