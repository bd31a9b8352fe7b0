"""Small helpers for the grammar tests."""

from __future__ import annotations

from pathlib import Path

import sylla
from sylla.grammar.syllabus.parse import ParseResult

GRAMMAR = Path(__file__).parents[2] / "fixtures" / "grammar"


def parse_fixture(name: str) -> ParseResult:
    path = GRAMMAR / name
    return sylla.parse(path.read_bytes(), str(path))


def where(result: ParseResult) -> list[tuple[int, int, str]]:
    """(line, column, message) of each diagnostic, 1-based."""
    return [(*result.lines.line_col(d.span.start), d.message) for d in result.diagnostics]
