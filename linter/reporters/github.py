"""GitHub Actions workflow commands: ``::error file=..,line=..,col=..,endLine=..,endColumn=..,title=..::msg``."""

from __future__ import annotations

import io
from typing import TextIO

from .file_report import FileReport

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render(reports: list[FileReport]) -> str:
    out = io.StringIO()
    write(reports, out)
    return out.getvalue()


def write(reports: list[FileReport], out: TextIO) -> None:
    """One command per finding, written as it is made (a report is never held whole, issue 38)."""
    for report in reports:
        for f in report.result.findings:
            line, col, end_line, end_col = report.range(f)
            props = f"file={_escape_prop(report.path)},line={line},col={col},endLine={end_line},endColumn={end_col},title={_escape_prop(f'{f.code} {f.name}')}"
            out.write(f"::{_LEVEL[f.severity.value]} {props}::{_escape_data(f'{f.code} {f.message}')}\n")
