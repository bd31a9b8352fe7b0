"""``sylla rule``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.rule``."""

from __future__ import annotations

import argparse

EXIT_CODES = ((0, "the rule's page was printed"), (2, "no such rule, or usage error"))


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("rule", help="show the documentation of one rule",
                       description="Print one rule's documentation as markdown: what it checks, why it matters, a bad and a good example, the fix.")
    p.add_argument("code", help="rule code (P301) or name (phase-label-format)")
