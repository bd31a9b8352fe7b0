"""``sylla sweep``: the metrics of every run under a root, cached, with across-run summaries.

The driver discovers the runs (`discover`), looks each one up in the content-keyed cache
(`cache`), sends the rest to the per-run task (`task.run_task`, which calls `compute_metrics`
as ``sylla metrics`` does) in this process, local worker processes or a Dask cluster
(`execute`), then writes the per-run Parquet dataset and summarises across runs
(`aggregate`). Everything it prints or writes is sorted by run, so a sweep computed now and one
read from the cache give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import EXIT_USAGE, MetricsError
from ..progress import Progress
from ..registry import load_plugins, resolve_params
from ..result import TIDY
from .cache import (
    StatIndex,
    atomic_write,
    entry_path,
    file_digest,
    read_entry,
    read_summary,
    run_key,
    summary_key,
    write_entry,
    write_summary,
)
from .discover import Discovery, RunSpec, discover
from .options import Options
from .task import Outcome

if TYPE_CHECKING:
    from distributed import Client

    from .execute import Executor, Tracker

__all__ = ["SweepResult", "sweep", "Options", "RunSpec", "discover"]

ROWS_DIR = "rows"
RUNS_PER_PART = 5000


@dataclass
class SweepResult:
    """The tidy frames of a sweep.

    - ``rows``: one row per (run, task, block or pair, metric): ``run``, the group keys, ``task,
      block, phase, metric, value, partial`` (the Parquet dataset under ``out/rows``);
    - ``summary``: per group and metric: ``n, mean, median, std, ci_low, ci_high``;
    - ``compare``: paired differences ``a - b`` between values of the ``compare`` key;
    - ``failures``: ``path, error`` of each run that could not be computed.
    """

    rows: pd.DataFrame
    summary: pd.DataFrame
    compare: pd.DataFrame
    failures: pd.DataFrame
    groups: list[str]
    compare_key: str | None = None
    warnings: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: runs computed now, read from the cache, failed; and per-run compute seconds
    counts: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    #: time spent on the summaries (bootstrap included)
    summary_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.failures.empty


def _ste_digest(paths: Iterable[str]) -> str:
    h = hashlib.sha256()
    for given in paths:
        p = Path(given)
        if not p.exists():
            raise MetricsError("no such STE file or directory", str(p), exit_code=EXIT_USAGE)
        files = [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.is_file())
        for f in files:
            h.update(f.relative_to(p.parent).as_posix().encode() + b"\0")
            h.update(file_digest(str(f)).encode())
    return h.hexdigest()


@dataclass
class Tally:
    """What a sweep has so far: each run's rows and warnings (computed or cached), each failed
    run's error by path, each computed run's seconds, the counts the summary line prints, and
    the cache key of each run whose files are known."""

    results: dict[str, tuple[pd.DataFrame, list[str]]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    run_keys: dict[str, str] = field(default_factory=dict)


def sweep(
    root: str | Path,
    *,
    group_by: str | None = None,
    jobs: int | None = None,
    dask: "str | Client | None" = None,
    out: str | Path | None = "sylla-sweep",
    compare: str | None = None,
    replicate: str = "seed",
    perf: str = "reward",
    params: dict[str, str] | None = None,
    metrics: Iterable[str] = (),
    allow_partial: bool = False,
    ste: Iterable[str | Path] = (),
    fail_fast: bool = False,
    progress: bool | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> SweepResult:
    """Compute every run under ``root`` (reusing ``out/cache``) and summarise across runs.

    ``dask`` is a scheduler address (``tcp://host:8786``) or a `distributed.Client`; else
    ``jobs`` local processes (default: the cores). ``out=None`` keeps nothing on disk (no
    cache). Bad input of one run is a failure of that run; bad options raise `MetricsError`.
    """
    from .execute import Executor, start_workers  # noqa: PLC0415 - lazy: the executor (multiprocessing, dask) loads only when runs are computed

    ste_paths = tuple(str(Path(s).resolve()) for s in ste)
    out_dir = Path(out).resolve() if out is not None else None
    if dask is None and likely_to_compute(out_dir, jobs):
        start_workers()  # they get ready while the runs are found and looked up
    found: Discovery = discover(root, group_by, exclude=[*ste_paths, *( [out_dir] if out_dir else [])])
    _check_compare(compare, found)
    _check_options(perf, params or {}, list(metrics))
    options = Options(perf=perf, params=tuple(sorted((params or {}).items())),
                      metrics=tuple(metrics), allow_partial=allow_partial, ste=ste_paths,
                      ste_digest=_ste_digest(ste_paths) if ste_paths else "")
    cache_dir = str(out_dir / "cache") if out_dir is not None else None
    index = StatIndex(cache_dir) if cache_dir is not None else None
    tally = Tally(failures={path: msg for path, msg in found.problems},
                  counts={"runs": len(found.runs), "cached": 0, "computed": 0, "failed": 0},
                  run_keys=_known_keys(found, index, options))
    summary_keys = [k for k in found.keys if k != replicate]
    if out_dir is not None and cache_dir is not None:
        whole = _whole_from_cache(found, tally, out_dir, cache_dir, summary_keys, compare,
                                  replicate)
        if whole is not None:
            return whole
    todo = _todo(found, tally, cache_dir)
    with Executor(len(todo), jobs=jobs, dask=dask) as workers:
        _compute(workers, todo, found, tally, options, cache_dir, index, progress, on_outcome,
                 fail_fast)
        rows = _assemble(found, tally.results)
        t_summary = time.perf_counter()
        summary, compared, notes, skey = _summaries(rows, found, tally, cache_dir, summary_keys,
                                                    compare, replicate, workers.map)
    warnings = {k: v[1] for k, v in sorted(tally.results.items()) if v[1]}
    summary_seconds = time.perf_counter() - t_summary
    fail_frame = pd.DataFrame(sorted(tally.failures.items()), columns=["path", "error"])
    summary, compared = _text_columns(summary), _text_columns(compared)
    result = SweepResult(rows=rows, summary=summary, compare=compared, failures=fail_frame,
                         groups=summary_keys, compare_key=compare,
                         warnings=warnings, notes=notes, counts=tally.counts,
                         seconds=tally.seconds, summary_seconds=summary_seconds)
    if out_dir is not None:
        write_dataset(rows, out_dir / ROWS_DIR, skey if not tally.failures else None, warnings)
    return result


def _check_compare(compare: str | None, found: Discovery) -> None:
    """``--compare`` must name a group key whose value differs between runs."""
    if compare is not None and compare in found.constant:
        raise MetricsError(f"--compare {compare}: every run has {compare} = "
                           f"{found.constant[compare]!r}, so it is no group key (keys: "
                           f"{', '.join(found.keys) or 'none; use --group-by'})",
                           exit_code=EXIT_USAGE)
    if compare is not None and compare not in found.keys:
        raise MetricsError(f"--compare {compare}: not a group key (keys: "
                           f"{', '.join(found.keys) or 'none; use --group-by'})",
                           exit_code=EXIT_USAGE)


def _known_keys(found: Discovery, index: StatIndex | None, options: Options) -> dict[str, str]:
    """The cache key of every run whose files the stat index knows unchanged (no hashing)."""
    run_keys: dict[str, str] = {}
    for spec in found.runs:
        if index is None or not index.entries:
            break  # nothing hashed before (a new --out): every run goes to a worker, unlisted
        try:
            files = spec.files()
        except OSError:
            continue  # the worker reports it
        known = index.known(files)
        if known is not None:
            run_keys[spec.id] = run_key(spec, options, known, files)
    return run_keys


def _whole_from_cache(found: Discovery, tally: Tally, out_dir: Path, cache_dir: str,
                      summary_keys: list[str], compare: str | None,
                      replicate: str) -> SweepResult | None:
    """The whole sweep read back when every run is cached and the dataset and summaries were
    written for this very set of runs and settings; None when anything must be computed."""
    if not (len(tally.run_keys) == len(found.runs) and found.runs and all(
            entry_path(cache_dir, k).is_file() for k in tally.run_keys.values())):
        return None
    skey = summary_key([(s.id, tally.run_keys[s.id], s.groups) for s in found.runs],
                       summary_keys, compare, replicate)
    quick = _from_bundle(out_dir, cache_dir, skey, found)
    if quick is None:
        return None
    rows, summary, compared, notes, warnings = quick
    summary, compared = _text_columns(summary), _text_columns(compared)
    tally.counts["cached"] = len(found.runs)
    tally.counts["failed"] = len(tally.failures)
    return SweepResult(
        rows=rows, summary=summary, compare=compared,
        failures=pd.DataFrame(sorted(tally.failures.items()), columns=["path", "error"]),
        groups=summary_keys, compare_key=compare, warnings=warnings, notes=notes,
        counts=tally.counts, seconds=tally.seconds)


def _todo(found: Discovery, tally: Tally, cache_dir: str | None) -> list[tuple[RunSpec, str | None]]:
    """The runs to compute (with their key, when known); cached runs go into the tally."""
    todo: list[tuple[RunSpec, str | None]] = []
    for spec in found.runs:
        key = tally.run_keys.get(spec.id)
        if key is not None:
            entry = read_entry(cache_dir, key) if cache_dir else None
            if entry is not None:
                tally.results[spec.id] = entry
                tally.counts["cached"] += 1
                continue
            # missing, or damaged: a damaged entry is removed so the worker computes it again
            entry_path(cache_dir or "", key).unlink(missing_ok=True)
            del tally.run_keys[spec.id]
            todo.append((spec, key))
        else:
            todo.append((spec, None))
    return todo


def _compute(workers: Executor, todo: list[tuple[RunSpec, str | None]], found: Discovery,
             tally: Tally, options: Options, cache_dir: str | None, index: StatIndex | None,
             progress: bool | None, on_outcome: Callable[[Outcome], None] | None,
             fail_fast: bool) -> None:
    """Send the runs to the workers and take in each outcome as it comes (its rows, its error,
    its cache entry), with the progress bar."""
    from .execute import Tracker  # noqa: PLC0415 - lazy: the executor (multiprocessing, dask) loads only when runs are computed

    by_id = {r.id: r for r in found.runs}
    tracker = Tracker()
    bar = Progress(len(found.runs), "runs", progress, count=True, delay=0,
                   note=lambda: _slow_note(tracker))
    bar.step(len(tally.results))
    counts, failures = tally.counts, tally.failures
    try:
        for outcome in workers.runs(todo, options, cache_dir, tracker):
            spec = by_id[outcome.run_id]
            if index is not None and outcome.digests:
                index.update(outcome.digests)
            if outcome.key is not None:
                tally.run_keys[spec.id] = outcome.key
            if outcome.error is not None:
                failures[spec.path] = outcome.error
                counts["failed"] += 1
            elif outcome.cached:
                entry = read_entry(cache_dir, outcome.key) if cache_dir and outcome.key else None
                if entry is None:
                    failures[spec.path] = (f"cache entry {entry_path(cache_dir or '', outcome.key or '')} "
                                           "vanished while the sweep ran")
                    counts["failed"] += 1
                else:
                    tally.results[spec.id] = entry
                    counts["cached"] += 1
            else:
                if cache_dir is not None and outcome.key is not None and not outcome.written:
                    write_entry(cache_dir, outcome.key, outcome.rows, outcome.warnings)
                tally.results[spec.id] = (outcome.rows, outcome.warnings)
                tally.seconds[spec.id] = outcome.seconds
                counts["computed"] += 1
            if on_outcome is not None:
                on_outcome(outcome)
            bar.step()
            if fail_fast and outcome.error is not None:
                break
    finally:
        bar.close()
        if index is not None:
            index.save()
    counts["failed"] = len(failures)


def _summaries(rows: pd.DataFrame, found: Discovery, tally: Tally, cache_dir: str | None,
               summary_keys: list[str], compare: str | None, replicate: str,
               mapper: Callable) -> tuple[pd.DataFrame, pd.DataFrame, list[str], str | None]:
    """The summaries and paired comparisons (and the summary key, when every computed run has
    a key): they depend on nothing but the runs' keys, groups and these settings, so a sweep
    whose runs all come from the cache reuses them (and never loads SciPy)."""
    from .aggregate import summaries  # noqa: PLC0415 - lazy: start-up, sylla.metrics.sweep.aggregate loads only when used

    skey = None
    if cache_dir is not None and set(tally.run_keys) >= set(tally.results):
        skey = summary_key([(s.id, tally.run_keys[s.id], s.groups) for s in found.runs
                            if s.id in tally.results], summary_keys, compare, replicate)
    stored = read_summary(cache_dir, skey) if skey else None
    if stored is not None:
        summary, compared, notes = stored
    else:
        # the bootstrap chunks go to the workers that computed the runs
        summary, compared, notes = summaries(
            rows, summary_keys, found.keys, compare,
            replicate if replicate in found.keys else None, mapper=mapper)
        if skey is not None and cache_dir is not None:
            write_summary(cache_dir, skey, summary, compared, notes)
    return summary, compared, notes, skey


def _text_columns(frame: pd.DataFrame) -> pd.DataFrame:
    from .aggregate import STATS  # noqa: PLC0415 - lazy: start-up, sylla.metrics.sweep.aggregate loads only when used

    return strings(frame, [c for c in frame.columns if c not in STATS])


def _check_options(perf: str, params: dict[str, str], metrics: list[str]) -> None:
    """Refuse bad -P / -m once, up front, rather than as the same failure of every run."""
    plugins = load_plugins()
    names = {p.name for p in plugins}
    unknown = [m for m in metrics if m not in names]
    if unknown:
        raise MetricsError(f"unknown metric(s): {', '.join(unknown)} (see sylla metrics --list)",
                           exit_code=EXIT_USAGE)
    resolve_params([p for p in plugins if not metrics or p.name in metrics], params)
    if not perf:
        raise MetricsError("--perf must name a column", exit_code=EXIT_USAGE)


def likely_to_compute(out_dir: Path | None, jobs: int | None) -> bool:
    """Worth starting local workers before the runs are even found: several jobs, and no whole
    sweep finished in ``out_dir`` before (a re-run most likely finds everything cached)."""
    from .execute import default_jobs  # noqa: PLC0415 - lazy: the executor (multiprocessing, dask) loads only when runs are computed

    if (jobs or default_jobs()) <= 1:
        return False
    return out_dir is None or not (out_dir / ROWS_DIR / MARK).is_file()


def _assemble(found: Discovery, results: dict[str, tuple[pd.DataFrame, list[str]]]) -> pd.DataFrame:
    """All runs' rows in run order, with ``run`` and the group keys in front."""

    columns = ["run", *found.keys, *TIDY[1:], "partial"]
    specs = [spec for spec in found.runs if spec.id in results]
    if not specs:
        frame = pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
        return _normalise(frame, found.keys)
    parts = [results[spec.id][0] for spec in specs]
    body = pd.concat(parts, ignore_index=True)
    lengths = [len(part) for part in parts]
    run = np.repeat(np.array([spec.id for spec in specs], dtype=object), lengths)
    if "subrun" in body.columns:  # a log holding several runs: RUN#subrun
        sub = body.pop("subrun")
        has = sub.notna().to_numpy()
        run[has] = run[has] + "#" + sub[has].astype(str).to_numpy(dtype=object)
    front = {"run": run}
    for k in found.keys:
        front[k] = np.repeat(np.array([dict(spec.groups).get(k) for spec in specs],
                                      dtype=object), lengths)
    frame = pd.concat([pd.DataFrame(front), body], axis=1)
    return _normalise(frame, found.keys)


def _normalise(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The dtypes of the rows frame, the same whether assembled now or read back."""
    frame = frame.reindex(columns=["run", *keys, *TIDY[1:], "partial"])
    frame["block"] = frame["block"].astype("Int64")
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype(float)
    frame["partial"] = frame["partial"].fillna(False).astype(bool)
    return strings(frame, ["run", *keys, "task", "phase", "metric"])


def strings(frame: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """Text columns as pandas reads them back from Parquet (``str`` in pandas 3, ``object``
    with None before), so that a frame is the same computed now or read from the cache."""
    new = int(pd.__version__.split(".")[0]) >= 3
    for c in columns:
        if c in frame.columns:
            frame[c] = (frame[c].astype("str") if new
                        else frame[c].astype(object).where(frame[c].notna(), None))
    return frame


MARK = "_sweep.json"


def _from_bundle(out_dir: Path, cache_dir: str, skey: str, found: Discovery) -> tuple | None:
    """Everything a sweep whose runs are all cached returns, without reading one entry: the
    dataset under ``rows/`` (when it was written for this very summary key), the cached
    summaries and the warnings recorded beside the dataset."""
    try:
        mark = json.loads((out_dir / ROWS_DIR / MARK).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(mark, dict) or mark.get("key") != skey:
        return None
    stored = read_summary(cache_dir, skey)
    if stored is None:
        return None
    try:
        rows = pd.read_parquet(out_dir / ROWS_DIR)
    except (OSError, ValueError):
        return None
    rows = _normalise(rows, found.keys)
    return rows, stored[0], stored[1], stored[2], dict(mark.get("warnings", {}))


def write_dataset(rows: pd.DataFrame, directory: Path, key: str | None = None,
                  warnings: dict[str, list[str]] | None = None) -> list[Path]:
    """``part-NNNNN.parquet`` files of whole runs; parts left from a bigger earlier sweep are
    removed so that reading the directory gives this sweep's rows only. ``_sweep.json`` records
    the summary key the parts belong to (and the runs' warnings), so that the next sweep with
    every run cached can reuse them as they are; it is removed first and written last, so a
    half-written dataset is never taken for a whole one."""
    import pyarrow.parquet as pq  # noqa: PLC0415 - lazy: start-up, pyarrow.parquet loads only when used

    directory.mkdir(parents=True, exist_ok=True)
    (directory / MARK).unlink(missing_ok=True)
    runs = rows["run"].drop_duplicates().tolist()
    written: list[Path] = []
    starts = range(0, max(len(runs), 1), RUNS_PER_PART)
    for part, start in enumerate(starts):
        chosen = set(runs[start:start + RUNS_PER_PART])
        chunk = rows[rows["run"].isin(chosen)] if len(starts) > 1 else rows
        table = pa.Table.from_pandas(chunk, preserve_index=False)
        target = directory / f"part-{part:05d}.parquet"
        atomic_write(target, lambda tmp, t=table: pq.write_table(t, tmp))
        written.append(target)
    for stale in directory.glob("part-*.parquet"):
        if stale not in written:
            stale.unlink()
    if key is not None:
        text = json.dumps({"key": key, "warnings": warnings or {}})
        atomic_write(directory / MARK, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    return written


def _slow_note(tracker: Tracker) -> str:
    """The bar's note: the oldest run in flight once it has taken long."""
    slow = tracker.slowest()
    return f"slow: {slow}" if slow else ""
