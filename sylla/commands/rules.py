"""``sylla rules``: list every rule (code, name, default severity, fixable, summary). Its
options are in ``rules_options``."""

from __future__ import annotations

import argparse
import json

from sylla.linter import all_rules


def run(args: argparse.Namespace) -> int:
    rules = all_rules()
    if args.format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "fixable": r.fixable, "summary": r.summary} for r in rules], indent=2))
        return 0
    for r in rules:
        print(f"{r.code}  {r.name:<28} {r.severity.value:<8} {'fix' if r.fixable else '   '}  {r.summary}")
    return 0
