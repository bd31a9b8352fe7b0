"""``sylla report``: one self-contained HTML file with the dashboard of ``sylla watch``
(learning curves with phase bands, test matrix, metric table, conformance), frozen; or, for a
sweep's ``--out`` folder, per-group block curves with confidence bands and the summary table.
Its options are in ``report_options``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sylla.metrics.errors import EXIT_USAGE, MetricsError
from sylla.metrics.watch.report import run_report

from .watch import options_from


def run(args: argparse.Namespace) -> int:
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
            from sylla.metrics.watch.sweep_report import sweep_report  # noqa: PLC0415 - lazy: start-up, pandas loads only for a sweep's folder

            html, ok = sweep_report(args.path)
            problem = None if ok else "some runs of the sweep failed (the report lists them)"
        else:
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
