"""``sylla new``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.new``."""

from __future__ import annotations

import argparse

from .bounds import COUNT_MAX, integer

EXIT_CODES = (
    (0, "the syllabus was written (or printed, or explained with --dry-run)"),
    (2, "usage error (a bad combination of options), or the output file cannot be written or exists"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "new", help="write a complete syllabus of a given type",
        description="Write a syllabus that lints clean for its type: phases numbered, test phases with "
        "learning off, every ANT-B transfer cell covered, CL and ANT-C with the requested variation. "
        "The output is deterministic and in 'sylla fmt' layout.",
    )
    p.add_argument("--type", required=True, choices=("CL", "ANT-A", "ANT-B", "ANT-C", "STE"),
                   help="the syllabus type (STE: one task, the single-task-expert run)")
    p.add_argument("--task", action="append", default=[], metavar="NAME", required=True,
                   help="a task, in training order (repeat for several tasks)")
    p.add_argument("--episodes", type=integer(1, COUNT_MAX), default=5000, metavar="N", help="episodes of each training block")
    p.add_argument("--test-episodes", type=integer(1, COUNT_MAX), default=100, metavar="M", help="episodes of each test block")
    p.add_argument("--pretest", action="store_true",
                   help="evaluate every task in a 0.test phase before training (lint with profile pretest)")
    p.add_argument("--vary", action="append", default=[], metavar="TASK:PARAM=v1,v2,...",
                   help="values of one parameter of a task (CL: exactly one; ANT-C: at least one)")
    p.add_argument("--module", metavar="M", help="prefix every task as $M:NAME (e.g. l2arcadekit.l2agames)")
    p.add_argument("--style", choices=("info", "enable_updates"), default="info",
                   help='how test phases turn learning off: {"$info": {"disable_updates": true}} ... {"$info": {}}, '
                   'or "enable_updates": false on the $phase')
    p.add_argument("--name", help="the syllabus's name (default: type and tasks)")
    p.add_argument("--author", default="sylla new", help="the syllabus's author field")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--force", action="store_true", help="with -o: overwrite an existing file")
    p.add_argument("--dry-run", action="store_true", help="print 'sylla explain' of the syllabus instead of writing it")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="with --dry-run: the explain format")
