"""``sylla rules``: list every rule (code, name, default severity, fixable, summary)."""

from __future__ import annotations

import argparse


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("rules", help="list the lint rules")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json

    from sylla.linter import all_rules

    rules = all_rules()
    if args.format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "fixable": r.fixable, "summary": r.summary} for r in rules], indent=2))
        return 0
    for r in rules:
        print(f"{r.code}  {r.name:<28} {r.severity.value:<8} {'fix' if r.fixable else '   '}  {r.summary}")
    return 0
