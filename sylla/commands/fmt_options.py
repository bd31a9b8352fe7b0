"""``sylla fmt``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.fmt``."""

from __future__ import annotations

import argparse


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("fmt", help="rewrite syllabi in the canonical layout (keeps comments)")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                   help="files or folders (default: .); folders are searched for syllabi; - reads stdin and writes stdout")
    p.add_argument("--check", action="store_true", help="only report files that would change")
    p.add_argument("--diff", action="store_true", help="print the changes as a diff, write nothing")
    p.add_argument("--stdin-filename", metavar="NAME", help="with -: the name to report for standard input")
