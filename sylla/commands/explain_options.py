"""``sylla explain``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.explain``."""

from __future__ import annotations

import argparse

from .bounds import integer

#: the most parallel workers ``--workers`` lays out: each lane is the whole schedule again, so
#: the work and the output grow with workers x blocks (a billion workers ran for hours)
MAX_WORKERS = 1024

EXIT_CODES = (
    (0, "the syllabus parsed cleanly"),
    (1, "syntax or schema errors (printed as path:line:col: message)"),
    (2, "usage error, unreadable file, or a file that is not a syllabus"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain", help="show the schedule of a syllabus and its inferred type",
        description="Print the phases and blocks of a syllabus with their episode ranges, "
        "learning on/off, totals, and the syllabus type with its reason.",
    )
    p.add_argument("file", metavar="FILE", help="syllabus file ('-' reads standard input)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text",
                   help="text: a table for people; json: the stable document tools read (keys are only added)")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the output to FILE instead of standard output")
    p.add_argument("--workers", type=integer(1, MAX_WORKERS), default=1, metavar="K", help="split blocks across K parallel workers")
    p.add_argument("--worker", type=integer(0, MAX_WORKERS - 1), default=0, metavar="I", help="with --workers K: show worker I's schedule (0 .. K-1)")
    p.add_argument("--metrics", action="store_true",
                   help="instead of the schedule: which metrics this syllabus can yield, each 'no' with its reason and "
                   "smallest fix (JSON: {\"metrics\": [{name, feasible, reason, fix, pairs}]})")
    p.add_argument("--ste-task", action="append", default=[], metavar="NAME",
                   help="with --metrics: a task that single-task-expert runs (--ste) will cover (repeatable)")
