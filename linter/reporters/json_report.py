"""A JSON array, one object per finding, with 1-based lines and character columns.

Written one finding at a time (the same bytes ``json.dumps(items, indent=2)`` gives), so a
report of many findings is never held whole in memory (issue 38)."""

from __future__ import annotations

import io
import json
from typing import Any, Iterator, TextIO

from .file_report import FileReport


def each_item(reports: list[FileReport]) -> Iterator[dict[str, Any]]:
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
            yield {
                "path": report.path, "line": line, "column": col, "end_line": end_line, "end_column": end_col,
                "code": f.code, "name": f.name, "severity": f.severity.value, "message": f.message, "fix": fix,
            }


def items(reports: list[FileReport]) -> list[dict[str, Any]]:
    return list(each_item(reports))


def render(reports: list[FileReport]) -> str:
    out = io.StringIO()
    write(reports, out)
    return out.getvalue()


def write(reports: list[FileReport], out: TextIO) -> None:
    write_array(each_item(reports), out, indent=2, level=0)
    out.write("\n")


def write_array(values: Iterator[Any], out: TextIO, *, indent: int, level: int) -> None:
    """``json.dumps(list(values), indent=indent, ensure_ascii=False)`` nested ``level`` levels
    deep, written value by value. JSON strings hold no raw line break, so indenting each line of
    a value's own dump indents it exactly as the whole dump would."""
    inner = "\n" + " " * (indent * (level + 1))
    first = True
    for value in values:
        out.write("[" if first else ",")
        out.write(inner + json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", inner))
        first = False
    out.write("[]" if first else "\n" + " " * (indent * level) + "]")
