"""``sylla rules``: list every rule (code, name, default severity, fixable, summary)."""

from __future__ import annotations

import argparse
import json

EXIT_CODES = ((0, "the rules were listed"), (2, "usage error"))


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("rules", help="list the lint rules", description="List every lint rule: code, name, default severity, whether it has a fix, summary.")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="text: one rule a line; json: a list of objects")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.linter import all_rules  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    rules = all_rules()
    if args.format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "fixable": r.fixable, "summary": r.summary} for r in rules], indent=2))
        return 0
    for r in rules:
        print(f"{r.code}  {r.name:<28} {r.severity.value:<8} {'fix' if r.fixable else '   '}  {r.summary}")
    return 0
