"""``sylla report``: one self-contained HTML file with the dashboard of ``sylla watch``
(learning curves with phase bands, test matrix, metric table, conformance), frozen.

Only the standard library is imported here; the rest loads inside `run`.
"""

from __future__ import annotations

import argparse
import sys

EXIT_CODES = (
    (0, "the report was written"),
    (1, "the report was written but shows an error instead of metrics (bad input: the "
        "message names file and row), or the run diverges from its syllabus"),
    (2, "usage: a bad option, a log that does not exist, an output that cannot be written"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from sylla.commands.watch import add_metric_options  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    p = subparsers.add_parser(
        "report", help="write one self-contained HTML report of a run",
        description="Write the dashboard of sylla watch, frozen, as one HTML file that opens "
                    "from disk with no network (docs/watch.md).")
    p.add_argument("path", metavar="RUN", help="a log (file or run folder)")
    add_metric_options(p)
    p.add_argument("--output-file", "-o", required=True, metavar="FILE",
                   help="the HTML file to write")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    from sylla.commands.watch import options_from  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.errors import EXIT_USAGE, MetricsError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if not Path(args.path).exists():
        print(f"sylla: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_USAGE
    if (Path(args.path) / "rows" / "_sweep.json").is_file():
        print(f"sylla: {args.path} is a sweep's --out; sylla report reads one run for now "
              "(give one of the sweep's runs)", file=sys.stderr)
        return EXIT_USAGE
    try:
        from sylla.metrics.watch.report import run_report  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        html, ok = run_report(args.path, options_from(args))  # type: ignore[arg-type]
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code
    try:
        Path(args.output_file).write_text(html, encoding="utf-8")
    except OSError as exc:
        print(f"sylla: cannot write {args.output_file}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    print(f"sylla: wrote {args.output_file}", file=sys.stderr)
    return 0 if ok else 1
