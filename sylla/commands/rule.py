"""``sylla rule CODE``: print one rule's documentation (markdown). Its options are in
``rule_options``."""

from __future__ import annotations

import argparse
import sys

from sylla.kit.suggest import did_you_mean
from sylla.linter import rule_for
from sylla.linter.docs import rule_markdown
from sylla.linter.registry import all_rules


def run(args: argparse.Namespace) -> int:
    rule = rule_for(args.code)
    if rule is None:
        names = [r.code for r in all_rules()] + [r.name for r in all_rules()]
        print(f"sylla: no rule {args.code!r}{did_you_mean(args.code, names)}; see sylla rules", file=sys.stderr)
        return 2
    sys.stdout.write(rule_markdown(rule, level=1))
    return 0
