"""The analysis cache of open documents (``lsp/documents.py``), in process: which parse a new
version is parsed from when it arrives while an earlier version is still being parsed."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from sylla.grammar.syllabus.parse import parse as parse_syllabus
from sylla.grammar.syllabus.synth import phase_pairs
from sylla.lsp import documents
from sylla.lsp.documents import Analysis, Documents

TEXT = phase_pairs(min_bytes=20_000)
EDITED = TEXT.replace('"count": 10', '"count": 19', 1)
URI = "file:///first-edit.json"
BOUND = 120.0  # seconds: only bounds a hang


def test_a_version_that_arrives_while_an_earlier_one_is_parsed_is_parsed_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first edit typed while a just-opened syllabus is parsed: its parse waits for the
    open's and starts from it (an incremental parse), rather than parsing the whole text
    beside it. Both parses are held (``SYLLA_TEST_HOLD_PARSE``) until both have been asked for."""
    monkeypatch.setattr(documents, "HOLD_PARSE", str(tmp_path))
    entered = {0: threading.Event(), 1: threading.Event()}
    held, parse = documents._held, documents._parse

    def hold(version: int | None) -> None:
        entered[version or 0].set()
        held(version)

    parsed_from: dict[str, Analysis | None] = {}

    def spy(language: Any, text: str, path: str | None, previous: Analysis | None = None) -> Any:
        parsed_from[text] = previous
        return parse(language, text, path, previous)

    monkeypatch.setattr(documents, "_held", hold)
    monkeypatch.setattr(documents, "_parse", spy)
    docs = Documents()
    got: dict[int, Analysis] = {}

    def analyse(version: int, text: str) -> None:
        got[version] = docs.analyse(URI, version, text, "utf-16")

    opened = threading.Thread(target=analyse, args=(0, TEXT))
    opened.start()
    assert entered[0].wait(BOUND)
    edited = threading.Thread(target=analyse, args=(1, EDITED))
    edited.start()
    assert entered[1].wait(BOUND)
    (tmp_path / "1").touch()  # release both
    opened.join(BOUND)
    edited.join(BOUND)

    assert parsed_from[TEXT] is None
    assert parsed_from[EDITED] is got[0]
    assert got[1].result == parse_syllabus(EDITED, documents._path_of(URI))  # what a fresh parse of the edited text gives
