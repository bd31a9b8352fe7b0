"""What ``sylla explain`` does with a folder of wave-3 trial files: the protocol as a schedule.

``explain`` asks ``explain_trials_folder`` first; None means "no trial files here, go on"."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sylla.kit.no_typing import TYPE_CHECKING

from .severity import SEVERITY_RANK

if TYPE_CHECKING:
    from typing import Callable

    from sylla.linter import Config


def explain_trials_folder(folder: str, fmt: str) -> int | None:
    from sylla.grammar.trials.schedule import load_folder, render_text, schedule  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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


def lint_deliveries(args: argparse.Namespace, config_for: Callable[[str], "Config"]) -> int:
    """``sylla lint DELIVERY_DIR ... --trials json/``: each PATH is a delivery folder, each of its
    files linted with the config of its path (``--select``, ``--ignore``, severities)."""
    from sylla.linter import ConfigError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.deliveries import check_delivery  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.reporters import FileReport, get  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if not os.path.isdir(args.trials):
        print(f"sylla: --trials {args.trials}: not a folder of trial files (json/)", file=sys.stderr)
        return 2
    reports: list = []
    unread = False
    for folder in args.paths:
        if not os.path.isdir(folder):
            print(f"sylla: {folder}: with --trials, each PATH is a delivery folder", file=sys.stderr)
            return 2
        try:
            results, trial_errors = check_delivery(folder, args.trials, config_for)
        except ConfigError as exc:
            print(f"sylla: {exc}", file=sys.stderr)
            return 2
        for e in trial_errors:
            print(f"sylla: trial file: {e}", file=sys.stderr)
        unread = unread or bool(trial_errors)
        reports.extend(FileReport(path, result) for path, result in results)
    out = get(args.format)(reports)
    if args.output_file:
        Path(args.output_file).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    threshold = SEVERITY_RANK[args.fail_on]
    failed = any(SEVERITY_RANK[f.severity.value] >= threshold for r in reports for f in r.result.findings)
    return 1 if failed or unread else 0  # a trial file that could not be read left rows unchecked


def metrics_trials(args: argparse.Namespace) -> int:
    """``sylla metrics --log DELIVERY_DIR --trials json/``: learning curves of a wave-3 delivery."""
    from sylla.metrics.learning_curves import compute, render_text, tidy, write_plots  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.readers.deliveries import read_trials  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    data = read_trials(args.log, args.trials)
    tables = compute(data)
    long = tidy(tables)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    if args.format == "text":
        text = render_text(data, tables)
        print(text)
        if out is not None:
            (out / "learning_curves.txt").write_text(text + "\n", encoding="utf-8")
    elif args.format == "json":
        doc = {"derived_predictions": data.derived, "notes": data.notes, "bad_rows": data.bad,
               "rows": json.loads(long.to_json(orient="records"))}
        text = json.dumps(doc, indent=2)
        (out / "learning_curves.json").write_text(text + "\n") if out else print(text)
    elif args.format == "csv":
        (long.to_csv(out / "learning_curves.csv", index=False) if out else sys.stdout.write(long.to_csv(index=False)))
    else:
        target = (out or Path(".")) / "learning_curves.parquet"
        long.to_parquet(target, index=False)
        print(f"sylla: wrote {target}", file=sys.stderr)
    if args.format != "text":
        for note in data.notes:
            print(f"sylla: note: {note}", file=sys.stderr)
        for name, reasons in data.bad.items():
            for reason, rows in reasons.items():
                print(f"sylla: bad rows: {name}: {len(rows)} {reason}: rows {', '.join(map(str, rows[:8]))}", file=sys.stderr)
    if args.plots:
        written = write_plots(tables, (out or Path("metrics-plots")) / "plots")
        print(f"sylla: wrote {len(written)} plot(s) to {written[0].parent}", file=sys.stderr)
    return 0
