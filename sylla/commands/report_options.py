"""``sylla report``'s options (the standard library only: see ``sylla.cli``); the command is
``sylla.commands.report``."""

from __future__ import annotations

import argparse

from .watch_options import add_metric_options

EXIT_CODES = (
    (0, "the report was written"),
    (1, "the report was written but shows an error instead of metrics (bad input: the "
        "message names file and row), or the run diverges from its syllabus, or (a sweep) "
        "some of the sweep's runs failed"),
    (2, "usage: a bad option, a log that does not exist, an output that cannot be written"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "report", help="write one self-contained HTML report of a run",
        description="Write the dashboard of sylla watch, frozen, as one HTML file that opens "
                    "from disk with no network (docs/watch.md).")
    p.add_argument("path", metavar="RUN", help="a log (file or run folder), or a sweep's --out "
                   "folder (per-group block curves with confidence bands and the summary table)")
    add_metric_options(p)
    p.add_argument("--output-file", "-o", required=True, metavar="FILE",
                   help="the HTML file to write")
