"""``sylla compare``: rliable-style evaluation of the groups of a sweep (issue 26). Its options
are in ``compare_options``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sylla.metrics.compare import analyze, normalize, score_sets
from sylla.metrics.compare.plots import interval_plot, profile_plot
from sylla.metrics.compare.profiles import profiles
from sylla.metrics.compare.report import Settings, render_csv, render_json, render_text
from sylla.metrics.compare.source import read_rows
from sylla.metrics.errors import EXIT_USAGE, MetricsError


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        print(f"sylla: {name}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    if args.normalize != "ste" and args.ste:
        raise MetricsError("--ste is for --normalize ste", exit_code=EXIT_USAGE)
    rows = read_rows(args.sweep_out)
    sets = score_sets(rows, args.metric or None, args.replicate)
    comparisons = [analyze(normalize(s, args.normalize, args.ste, args.perf), reps=args.reps,
                           seed=args.seed, gamma=args.gamma, bca=args.bca) for s in sets]
    settings = Settings(source=str(args.sweep_out), reps=args.reps, seed=args.seed,
                        confidence=0.95, normalize=args.normalize, gamma=args.gamma, bca=args.bca)
    renders = {"text": render_text, "json": render_json, "csv": render_csv}
    sys.stdout.write(renders[args.format](comparisons, settings))
    if args.out:
        _write(Path(args.out), comparisons, sets, settings, renders)
    missing = sum(len(c.missing) for c in comparisons)
    if missing:
        print(f"sylla: {missing} missing value(s) left out of the scores (listed above)",
              file=sys.stderr)
    return 0


def _write(out: Path, comparisons: list, sets: list, settings: Settings,
           renders: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for fmt, ext in (("text", "txt"), ("json", "json"), ("csv", "csv")):
        (out / f"compare.{ext}").write_text(renders[fmt](comparisons, settings), encoding="utf-8")
    written = []
    for c, s in zip(comparisons, sets):
        if not c.estimates:
            continue
        written.append(interval_plot(c, out / "plots"))
        written.append(profile_plot(c.metric, profiles(s, seed=settings.seed),
                                    out / "plots"))
    print(f"sylla: wrote compare.txt, compare.json, compare.csv and {len(written)} plot(s) "
          f"to {out}", file=sys.stderr)
