"""``sylla sweep``: the metrics of every run under a folder, with across-run intervals. Its
options are in ``sweep_options``.

The sweep machinery (pandas, SciPy, Dask) loads inside `run`, once the local workers' fork
server has been started (`start_workers_early`): it loads the same libraries meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sylla.metrics.errors import EXIT_USAGE, MetricsError

from .params import metric_params

if TYPE_CHECKING:
    from sylla.metrics.sweep import SweepResult

#: the modules multiprocessing's fork server loads before it forks the local workers; the
#: same list as ``sylla.metrics.sweep.execute.PRELOAD`` (a test checks), kept here because
#: importing ``sylla.metrics.sweep`` loads pandas, and this runs before that
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
    params = metric_params(args.param)
    from sylla.metrics.sweep import sweep  # noqa: PLC0415 - lazy: pandas loads after start_workers_early, whose fork server loads it meanwhile
    from sylla.metrics.sweep.report import render_json, render_text  # noqa: PLC0415 - lazy: as above

    out = Path(args.out)
    result = sweep(args.root, group_by=args.group_by, jobs=args.jobs, dask=args.dask, out=out,
                   compare=args.compare, replicate=args.replicate, perf=args.perf,
                   params=params, metrics=args.metric, allow_partial=args.allow_partial,
                   ste=args.ste, fail_fast=args.fail_fast,
                   progress=False if args.no_progress else None)
    text = render_json(result) if args.format == "json" else render_text(result)
    sys.stdout.write(text)
    _write_summaries(result, out, text if args.format == "json" else render_json(result))
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
        from sylla.metrics.sweep.plots import forest_plots  # noqa: PLC0415 - lazy: start-up, the plot writer loads only with --plots

        written = forest_plots(result, out / "plots")
        print(f"sylla: wrote {len(written)} forest plot(s) to {out / 'plots'}", file=sys.stderr)
    return 0 if result.ok else 1


def _write_summaries(result: SweepResult, out: Path, doc: str) -> None:
    """summary.json (``doc``, the --format json document), summary.parquet, compare.parquet
    and warnings.json beside the rows, each written atomically."""
    from sylla.metrics.sweep.cache import atomic_write  # noqa: PLC0415 - lazy: as in _run, after the fork server has started

    atomic_write(out / "summary.json", lambda tmp: Path(tmp).write_text(doc, encoding="utf-8"))
    warnings = json.dumps(result.warnings, indent=2) + "\n"
    atomic_write(out / "warnings.json", lambda tmp: Path(tmp).write_text(warnings, encoding="utf-8"))
    atomic_write(out / "summary.parquet",
                 lambda tmp: result.summary.to_parquet(tmp, index=False))
    if result.compare_key is not None:
        atomic_write(out / "compare.parquet",
                     lambda tmp: result.compare.to_parquet(tmp, index=False))
