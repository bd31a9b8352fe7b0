"""``sylla sweep``: the metrics of every run under a folder, with across-run intervals.

Only the standard library is imported here; the sweep machinery (pandas, SciPy, Dask) loads
inside `run`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .bounds import integer

if TYPE_CHECKING:
    from sylla.metrics.sweep import SweepResult

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
    p.set_defaults(run=run)


#: the modules multiprocessing's fork server loads before it forks the local workers; the
#: same list as ``sylla.metrics.sweep.execute.PRELOAD`` (a test checks), kept here because
#: importing anything under ``sylla.metrics`` loads pandas, and this runs before that
PRELOAD = ["sylla.metrics.sweep.task", "sylla.metrics.result", "scipy.stats"]


def start_workers_early(args: argparse.Namespace) -> None:
    """Start the fork server of the local workers first thing, so that it loads pandas, the
    per-run task and SciPy while this process loads its own and finds the runs. Not for Dask,
    one job, or an ``--out`` holding a finished sweep (a re-run: most likely all cached)."""
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1)
    if args.dask is not None or (args.jobs or cores) <= 1:
        return
    if (Path(args.out) / "rows" / "_sweep.json").is_file():
        return
    import multiprocessing  # noqa: PLC0415 - lazy: start-up, multiprocessing loads only when used

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return  # pragma: no cover - Windows, macOS without a fork server
    multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD)
    from multiprocessing import forkserver  # noqa: PLC0415 - lazy: start-up, multiprocessing loads only when used

    forkserver.ensure_running()


def run(args: argparse.Namespace) -> int:
    start_workers_early(args)
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

    from .common import metric_params  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    params = metric_params(args.param)
    from sylla.metrics.sweep import sweep  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.sweep.report import render_json, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    out = Path(args.out)
    result = sweep(args.root, group_by=args.group_by, jobs=args.jobs, dask=args.dask, out=out,
                   compare=args.compare, replicate=args.replicate, perf=args.perf,
                   params=params, metrics=args.metric, allow_partial=args.allow_partial,
                   ste=args.ste, fail_fast=args.fail_fast,
                   progress=False if args.no_progress else None)
    text = render_json(result) if args.format == "json" else render_text(result)
    sys.stdout.write(text)
    _write_summaries(result, out, text if args.format == "json" else None)
    c = result.counts
    busy = sum(result.seconds.values())
    print(f"sylla: {c['runs']} run(s): {c['computed']} computed ({busy:.2f} s in the per-run "
          f"tasks), {c['cached']} from the cache, {c['failed']} failed; summaries in "
          f"{result.summary_seconds:.2f} s; rows in {out / 'rows'}", file=sys.stderr)
    for path, error in zip(result.failures["path"], result.failures["error"]):
        print(f"sylla: {path}: {error}", file=sys.stderr)
    if result.warnings:
        print(f"sylla: {len(result.warnings)} run(s) have warnings (see "
              f"{out / 'warnings.json'})", file=sys.stderr)
    if args.plots:
        from sylla.metrics.sweep.plots import forest_plots  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        written = forest_plots(result, out / "plots")
        print(f"sylla: wrote {len(written)} forest plot(s) to {out / 'plots'}", file=sys.stderr)
    return 0 if result.ok else 1


def _write_summaries(result: SweepResult, out: Path, doc: str | None = None) -> None:
    """summary.json (the --format json document, ``doc`` when stdout already has it),
    summary.parquet, compare.parquet and warnings.json beside the rows, each written
    atomically."""
    from sylla.metrics.sweep.cache import atomic_write  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.metrics.sweep.report import render_json  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if doc is None:
        doc = render_json(result)
    atomic_write(out / "summary.json", lambda tmp: Path(tmp).write_text(doc, encoding="utf-8"))
    warnings = json.dumps(result.warnings, indent=2) + "\n"
    atomic_write(out / "warnings.json", lambda tmp: Path(tmp).write_text(warnings, encoding="utf-8"))
    atomic_write(out / "summary.parquet",
                 lambda tmp: result.summary.to_parquet(tmp, index=False))
    if result.compare_key is not None:
        atomic_write(out / "compare.parquet",
                     lambda tmp: result.compare.to_parquet(tmp, index=False))
