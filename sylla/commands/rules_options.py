"""``sylla rules``' options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.rules``."""

from __future__ import annotations

import argparse

EXIT_CODES = ((0, "the rules were listed"), (2, "usage error"))


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("rules", help="list the lint rules", description="List every lint rule: code, name, default severity, whether it has a fix, summary.")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="text: one rule a line; json: a list of objects")
