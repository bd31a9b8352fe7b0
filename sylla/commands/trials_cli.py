"""What ``sylla explain`` does with a folder of wave-3 trial files: the protocol as a schedule.

``explain`` asks ``explain_trials_folder`` first; None means "no trial files here, go on"."""

from __future__ import annotations

import json
import sys


def explain_trials_folder(folder: str, fmt: str) -> int | None:
    from sylla.grammar.trials.schedule import load_folder, render_text, schedule

    orderings, errors = load_folder(folder)
    if not orderings and not errors:
        return None
    for e in errors:
        print(e, file=sys.stderr)
    doc = schedule(orderings)
    if fmt == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(doc))
    return 1 if errors else 0


def lint_deliveries(args) -> int:  # noqa: ANN001 - the lint command's namespace
    """``sylla lint DELIVERY_DIR ... --trials json/``: each PATH is a delivery folder."""
    import os
    from pathlib import Path

    from sylla.linter.deliveries import check_delivery
    from sylla.linter.reporters import FileReport, get

    from .lint import SEVERITY_RANK

    if not os.path.isdir(args.trials):
        print(f"sylla: --trials {args.trials}: not a folder of trial files (json/)", file=sys.stderr)
        return 2
    reports = []
    for folder in args.paths:
        if not os.path.isdir(folder):
            print(f"sylla: {folder}: with --trials, each PATH is a delivery folder", file=sys.stderr)
            return 2
        results, trial_errors = check_delivery(folder, args.trials)
        for e in trial_errors:
            print(f"sylla: trial file: {e}", file=sys.stderr)
        reports.extend(FileReport(path, result) for path, result in results)  # type: ignore[arg-type]
    out = get(args.format)(reports)
    if args.output_file:
        Path(args.output_file).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    threshold = SEVERITY_RANK[args.fail_on]
    return 1 if any(SEVERITY_RANK[f.severity.value] >= threshold for r in reports for f in r.result.findings) else 0
