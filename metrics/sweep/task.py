"""The per-run task: the one function a local worker process or a Dask worker runs.

It is a plain module-level function of plain data (a `RunSpec`, `Options`, a cache directory),
so Dask pickles it by reference: the scheduler never needs sylla, the workers import it. It
never raises for a bad run: the error comes back worded as ``sylla metrics`` words it, so one
bad run cannot stop the others.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import MetricsError
from ..memory import one_run_at_a_time
from ..result import TIDY, compute_metrics
from . import cache as cache_mod
from .discover import RunSpec
from .options import Options


@dataclass
class Outcome:
    """What a worker sends back: the rows (no run or group columns: the driver adds them) or
    the error, the cache key and the file digests it computed, and how long it took."""

    run_id: str
    key: str | None = None
    digests: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    rows: Any = None                     # pandas DataFrame: task, block, phase, metric, value, partial
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    cached: bool = False
    #: the worker wrote the cache entry itself (it sees the cache directory)
    written: bool = False
    seconds: float = 0.0


def describe(exc: BaseException) -> str:
    """An exception as ``sylla metrics`` prints it (without the leading ``sylla: ``)."""
    if isinstance(exc, MetricsError):
        return str(exc)
    if isinstance(exc, MemoryError):
        return "out of memory while computing metrics"
    if isinstance(exc, OSError):
        name = f"{exc.filename}: " if exc.filename else ""
        return f"{name}{exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"


def run_task(spec: RunSpec, options: Options, cache_dir: str | None,
             key: str | None = None) -> Outcome:
    """Hash the run's files (unless the driver knew the key), reuse a cache entry this worker
    can see, else compute the metrics of the run."""
    start = time.perf_counter()
    out = Outcome(run_id=spec.id)
    try:
        if key is None:
            out.digests = cache_mod.digest_files(spec)
            key = cache_mod.run_key(spec, options, out.digests)
        out.key = key
        if cache_dir is not None and cache_mod.entry_path(cache_dir, key).is_file():
            out.cached = True
            out.seconds = time.perf_counter() - start
            return out
        with one_run_at_a_time():
            out.rows, out.warnings = compute_run(spec, options)
        if cache_dir is not None:
            # written here, not by the driver, when this worker sees the cache: a driver
            # writing every entry itself would be the bottleneck of a big cluster
            try:
                cache_mod.write_entry(cache_dir, key, out.rows, out.warnings)
                out.written = True
            except OSError:
                pass
    except Exception as exc:  # noqa: BLE001 - reported per run; the sweep goes on
        out.error = describe(exc)
    out.seconds = time.perf_counter() - start
    return out


def compute_run(spec: RunSpec, options: Options) -> tuple[Any, list[str]]:
    """One run through `compute_metrics`, exactly what ``sylla metrics`` computes for it."""
    result = compute_metrics(
        spec.path, spec.syllabus, ste=list(options.ste), perf=options.perf,
        log_format=spec.format, params=dict(options.params), allow_partial=options.allow_partial,
        only=list(options.metrics) or None, progress=False)
    # Rows a plugin adds across the log's runs (the continual-imitation pooled row) are not a
    # run's: the sweep summarises across runs itself, and counting them would count a run twice.
    own = result.rows["run"].astype(str).isin([run.run for run in result.runs])
    kept = result.rows[own.to_numpy()]
    rows = kept.reindex(columns=TIDY[1:] + ["partial"])
    rows["partial"] = rows["partial"].fillna(False).astype(bool)
    # a log with several runs (a plain log with a ``run`` column) keeps them apart
    runs = kept["run"].astype(str)
    if runs.nunique() > 1:
        rows.insert(0, "subrun", runs.to_numpy())
    return rows.reset_index(drop=True), list(result.warnings)

