"""SARIF 2.1.0 as GitHub code scanning accepts it: one run, the rules that fired, results with
1-based regions (columns in characters, end column exclusive) and relative URIs."""

from __future__ import annotations

import json
from pathlib import Path

from sylla.version import __version__

from ..registry import rule_for
from .file_report import FileReport

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
    codes: list[str] = []
    results = []
    for report in reports:
        for f in report.result.findings:
            if f.code not in codes:
                codes.append(f.code)
            line, col, end_line, end_col = report.range(f)
            results.append(
                {
                    "ruleId": f.code,
                    "ruleIndex": codes.index(f.code),
                    "level": _LEVEL[f.severity.value],
                    "message": {"text": f.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": _uri(report.path)},
                                "region": {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": max(end_col, col + 1) if end_line == line else end_col},
                            }
                        }
                    ],
                }
            )
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
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
