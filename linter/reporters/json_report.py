"""A JSON array, one object per finding, with 1-based lines and character columns."""

from __future__ import annotations

import json
from typing import Any

from .file_report import FileReport


def items(reports: list[FileReport]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for report in reports:
        for f in report.result.findings:
            line, col, end_line, end_col = report.range(f)
            fix = None
            if f.fix is not None:
                edits = []
                for e in f.fix.edits:
                    l1, c1 = report.position(e.span.start)
                    l2, c2 = report.position(e.span.end)
                    edits.append({"line": l1, "column": c1, "end_line": l2, "end_column": c2, "text": e.new_text})
                fix = {"description": f.fix.description, "edits": edits}
            out.append(
                {
                    "path": report.path, "line": line, "column": col, "end_line": end_line, "end_column": end_col,
                    "code": f.code, "name": f.name, "severity": f.severity.value, "message": f.message, "fix": fix,
                }
            )
    return out


def render(reports: list[FileReport]) -> str:
    return json.dumps(items(reports), indent=2, ensure_ascii=False) + "\n"
