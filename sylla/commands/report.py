"""``sylla report``: one self-contained HTML file with the dashboard of ``sylla watch``
(learning curves with phase bands, test matrix, metric table, conformance), frozen; or, for a
sweep's ``--out`` folder, per-group block curves with confidence bands and the summary table.

Only the standard library is imported here; the rest loads inside `run`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_CODES = (
    (0, "the report was written"),
    (1, "the report was written but shows an error instead of metrics (bad input: the "
        "message names file and row), or the run diverges from its syllabus, or (a sweep) "
        "some of the sweep's runs failed"),
    (2, "usage: a bad option, a log that does not exist, an output that cannot be written"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from sylla.commands.watch import add_metric_options  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    p = subparsers.add_parser(
        "report", help="write one self-contained HTML report of a run",
        description="Write the dashboard of sylla watch, frozen, as one HTML file that opens "
                    "from disk with no network (docs/watch.md).")
    p.add_argument("path", metavar="RUN", help="a log (file or run folder), or a sweep's --out "
                   "folder (per-group block curves with confidence bands and the summary table)")
    add_metric_options(p)
    p.add_argument("--output-file", "-o", required=True, metavar="FILE",
                   help="the HTML file to write")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:

    from sylla.commands.watch import options_from  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.errors import EXIT_USAGE, MetricsError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if not Path(args.path).exists():
        print(f"sylla: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_USAGE
    sweep = (Path(args.path) / "rows" / "_sweep.json").is_file()
    if sweep:
        given = [o for o, v in (("--syllabus", args.syllabus), ("--ste", args.ste),
                                ("--perf", args.perf), ("-P", args.param), ("-m", args.metric),
                                ("--allow-partial", args.allow_partial)) if v]
        if given:
            print(f"sylla: {args.path} is a sweep's --out: its report shows what the sweep "
                  f"computed, so {', '.join(given)} cannot apply (give them to sylla sweep)",
                  file=sys.stderr)
            return EXIT_USAGE
    try:
        if sweep:
            from sylla.metrics.watch.sweep_report import sweep_report  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

            html, ok = sweep_report(args.path)
            problem = None if ok else "some runs of the sweep failed (the report lists them)"
        else:
            from sylla.metrics.watch.report import run_report  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

            html, problem = run_report(args.path, options_from(args))
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        Path(args.output_file).write_text(html, encoding="utf-8")
    except OSError as exc:
        print(f"sylla: cannot write {args.output_file}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    if problem is not None:
        print(f"sylla: {problem}", file=sys.stderr)
    print(f"sylla: wrote {args.output_file}" + (" (it shows the problem above)" if problem else ""), file=sys.stderr)
    return 0 if problem is None else 1
