"""``sylla compare``: rliable-style evaluation of the groups of a sweep (issue 26).

Only the standard library is imported here; numpy, pandas and (with ``-o``) matplotlib load
inside `run`.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .bounds import SEED_MAX, integer, real

#: the most bootstrap resamples: the intervals stop moving long before (rliable's default is
#: 50,000), and the draws cost time and memory in proportion
MAX_REPS = 10_000_000

if TYPE_CHECKING:
    from sylla.metrics.compare.report import Settings

EXIT_CODES = (
    (0, "the comparison was computed"),
    (1, "bad input: rows that cannot be compared (the message says why)"),
    (2, "usage error: a bad option, metric, baseline group, or a folder that is not a sweep's output"),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser(
        "compare", help="IQM, optimality gap, probability of improvement over a sweep's groups",
        description="Compare the groups of a `sylla sweep --out` folder the way Agarwal et al. "
                    "(2021, rliable) recommend: IQM, median, mean and optimality gap per group, "
                    "and the probability of improvement of every pair, each with a stratified "
                    "bootstrap interval (runs resampled within each task). Groups are the "
                    "sweep's group keys but --replicate; tasks are the syllabus's tasks "
                    "(lifetime metrics are one task).")
    p.add_argument("sweep_out", metavar="SWEEP_OUT", help="the --out folder of `sylla sweep`")
    p.add_argument("--metric", "-m", action="append", default=[], metavar="NAME",
                   help="compare this metric (repeatable; default: every metric with run rows)")
    p.add_argument("--normalize", default="none", metavar="BASELINE_GROUP|ste|none",
                   help="divide each task's scores by a group's mean on it, or by the STE "
                        "runs' mean performance (with --ste), or leave them")
    p.add_argument("--ste", action="append", default=[], metavar="PATH",
                   help="single-task-expert runs for --normalize ste (repeatable)")
    p.add_argument("--perf", default="reward", metavar="COLUMN",
                   help="performance column of the STE runs")
    p.add_argument("--reps", type=integer(1, MAX_REPS), default=50000, metavar="N", help="bootstrap resamples")
    p.add_argument("--seed", type=integer(0, SEED_MAX), default=0, metavar="S",
                   help="seed of the bootstrap: equal seeds give equal output")
    p.add_argument("--gamma", type=real(-math.inf, math.inf), default=1.0, metavar="G",
                   help="optimality-gap target (1 suits normalised scores)")
    p.add_argument("--bca", action="store_true",
                   help="BCa intervals of the aggregates as well (scipy.stats.bootstrap; slower)")
    p.add_argument("--replicate", default="seed", metavar="KEY",
                   help="the group key whose values are runs (seeds), not groups")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write compare.txt, compare.json, compare.csv and PNG plots here")
    p.add_argument("--format", "-f", default="text", choices=("text", "json", "csv"),
                   help="what stdout shows")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.metrics.errors import EXIT_USAGE, MetricsError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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
    from sylla.metrics.compare import analyze, normalize, score_sets  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.compare.report import Settings, render_csv, render_json, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.compare.source import read_rows  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.errors import EXIT_USAGE, MetricsError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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
    from sylla.metrics.compare.plots import interval_plot, profile_plot  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.compare.profiles import profiles  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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
