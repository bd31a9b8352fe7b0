"""Reporters: turn findings into text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

Every reporter receives ``FileReport``s (the display path, the lint result) and returns the
output as one string; lines and columns are 1-based, columns in characters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..engine import LintResult
from ..finding import Finding


@dataclass
class FileReport:
    path: str
    result: LintResult

    def position(self, offset: int) -> tuple[int, int]:
        return self.result.parse.lines.line_col(offset)

    def range(self, f: Finding) -> tuple[int, int, int, int]:
        line, col = self.position(f.span.start)
        end_line, end_col = self.position(f.span.end)
        return line, col, end_line, end_col


def get(name: str) -> Callable[[list[FileReport]], str]:
    from . import github, json_report, sarif, text

    return {"text": text.render, "json": json_report.render, "sarif": sarif.render, "github": github.render}[name]
