"""``sylla sweep``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.sweep``."""

from __future__ import annotations

import argparse

from .bounds import integer

#: the most local worker processes: each loads numpy, pandas and SciPy (about 100 MB), and
#: ``--jobs 10**9`` over thousands of runs would start thousands of them
MAX_JOBS = 256

EXIT_CODES = (
    (0, "every run was computed (or read from the cache)"),
    (1, "at least one run failed (each is reported with its path and error)"),
    (2, "usage error: a bad option, root, --group-by pattern or Dask address"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "sweep", help="metrics over every run under a folder, with bootstrap intervals",
        description="Find every run under ROOT (l2logger and learnkit directories, plain logs "
                    "with a syllabus beside them), compute its metrics as `sylla metrics` does "
                    "(cached by content under --out), and summarise per group with 95 % "
                    "bootstrap intervals.")
    p.add_argument("root", metavar="ROOT", help="folder holding the runs")
    p.add_argument("--group-by", metavar="PATTERN",
                   help="name the folder levels below ROOT, e.g. '{agent}/{seed}/{name}' "
                        "(keys from l2logger metadata are used too)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=integer(1, MAX_JOBS), metavar="N",
                       help="local worker processes (default: the number of cores)")
    where.add_argument("--dask", metavar="ADDRESS",
                       help="submit the runs to an existing Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--out", "-o", default="sylla-sweep", metavar="DIR",
                   help="cache, Parquet dataset (DIR/rows) and summaries")
    p.add_argument("--format", "-f", default="text", choices=("text", "json"),
                   help="summary on stdout")
    p.add_argument("--compare", metavar="KEY",
                   help="paired differences between the values of this group key")
    p.add_argument("--replicate", default="seed", metavar="KEY",
                   help="the key whose values are repeats, not groups")
    p.add_argument("--plots", action="store_true", help="a forest plot per metric (DIR/plots)")
    p.add_argument("--ste", action="append", default=[], metavar="PATH",
                   help="single-task-expert runs for every run (repeatable)")
    p.add_argument("--perf", default="reward", metavar="COLUMN", help="performance column")
    p.add_argument("--param", "-P", action="append", default=[], metavar="NAME=VALUE",
                   help="a metric parameter, as for sylla metrics")
    p.add_argument("--metric", "-m", action="append", default=[], metavar="NAME",
                   help="only these metric plugins (repeatable)")
    p.add_argument("--allow-partial", action="store_true",
                   help="accept logs that end early, as sylla metrics does")
    p.add_argument("--fail-fast", action="store_true", help="stop at the first failed run")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
