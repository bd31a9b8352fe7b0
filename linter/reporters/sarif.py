"""SARIF 2.1.0 as GitHub code scanning accepts it: one run, the rules that fired, results with
1-based regions (columns in characters, end column exclusive) and relative URIs."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Iterator, TextIO

from sylla.kit.version import __version__

from ..registry import rule_for
from .file_report import FileReport
from .json_report import write_array

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    p = Path(path)
    if p.is_absolute():
        try:
            return p.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return p.as_uri()
    return p.as_posix()


def render(reports: list[FileReport]) -> str:
    out = io.StringIO()
    write(reports, out)
    return out.getvalue()


#: stands for the results in the document written around them (``write``)
_RESULTS = "sylla-sarif-results-go-here"


def write(reports: list[FileReport], out: TextIO) -> None:
    """The document, its results written one at a time (the same bytes as dumping it whole,
    ``json.dumps(doc, indent=2)``): a report of many findings is never held whole (issue 38)."""
    codes: dict[str, int] = {}
    for report in reports:
        for f in report.result.findings:
            codes.setdefault(f.code, len(codes))
    rules = []
    for code in codes:
        rule = rule_for(code)
        assert rule is not None
        rules.append(
            {
                "id": code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.summary},
                "help": {"text": rule.doc, "markdown": rule.doc},
                "defaultConfiguration": {"level": _LEVEL[rule.severity.value]},
            }
        )
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "sylla", "version": __version__, "rules": rules}},
                "columnKind": "unicodeCodePoints",
                "results": _RESULTS,
            }
        ],
    }
    head, _, tail = json.dumps(doc, indent=2, ensure_ascii=False).partition(json.dumps(_RESULTS))
    out.write(head)
    write_array(_results(reports, codes), out, indent=2, level=3)
    out.write(tail + "\n")


def _results(reports: list[FileReport], codes: dict[str, int]) -> Iterator[dict[str, Any]]:
    for report in reports:
        uri = _uri(report.path)
        for f in report.result.findings:
            line, col, end_line, end_col = report.range(f)
            yield {
                "ruleId": f.code,
                "ruleIndex": codes[f.code],
                "level": _LEVEL[f.severity.value],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri},
                            "region": {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": max(end_col, col + 1) if end_line == line else end_col},
                        }
                    }
                ],
            }
