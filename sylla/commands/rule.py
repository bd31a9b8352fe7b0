"""``sylla rule CODE``: print one rule's documentation (markdown)."""

from __future__ import annotations

import argparse
import sys

EXIT_CODES = ((0, "the rule's page was printed"), (2, "no such rule, or usage error"))


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("rule", help="show the documentation of one rule",
                       description="Print one rule's documentation as markdown: what it checks, why it matters, a bad and a good example, the fix.")
    p.add_argument("code", help="rule code (P301) or name (phase-label-format)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.kit.suggest import did_you_mean  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter import rule_for  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.docs import rule_markdown  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.registry import all_rules  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    rule = rule_for(args.code)
    if rule is None:
        names = [r.code for r in all_rules()] + [r.name for r in all_rules()]
        print(f"sylla: no rule {args.code!r}{did_you_mean(args.code, names)}; see sylla rules", file=sys.stderr)
        return 2
    sys.stdout.write(rule_markdown(rule, level=1))
    return 0
