"""Run the per-run tasks: in this process, in local worker processes, or on a Dask cluster.

All three run the same `task.run_task` on the same arguments and hand each `Outcome` to the
driver as it completes, so the results (sorted by run afterwards) are identical, byte for byte.

Local workers get at most one run each at a time: a worker holds one run in memory, and the
runs in flight are exactly the runs being computed, which the progress bar can name. Dask gets
every task at once (its scheduler balances them); nothing of sylla runs on the scheduler.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Iterator

from ..errors import EXIT_USAGE, MetricsError
from .discover import RunSpec
from .task import Options, Outcome, run_task

Todo = list[tuple[RunSpec, "str | None"]]
#: a run in flight longer than this is named on the progress bar
SLOW_SECONDS = 10.0


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Tracker:
    """Runs in flight and since when: the progress bar shows the oldest one once it is slow."""

    def __init__(self) -> None:
        self.started: dict[str, float] = {}

    def start(self, run_id: str) -> None:
        self.started[run_id] = time.monotonic()

    def done(self, run_id: str) -> None:
        self.started.pop(run_id, None)

    def slowest(self) -> str | None:
        if not self.started:
            return None
        run_id, since = min(self.started.items(), key=lambda kv: kv[1])
        age = time.monotonic() - since
        return f"{run_id} ({age:.0f} s)" if age >= SLOW_SECONDS else None


def run_inline(todo: Todo, options: Options, cache_dir: str | None,
               tracker: Tracker) -> Iterator[Outcome]:
    for spec, key in todo:
        tracker.start(spec.id)
        outcome = run_task(spec, options, cache_dir, key)
        tracker.done(spec.id)
        yield outcome


def run_processes(todo: Todo, options: Options, cache_dir: str | None, jobs: int,
                  tracker: Tracker) -> Iterator[Outcome]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    ctx: Any
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["sylla.metrics.sweep.task", "sylla.metrics.result"])
    else:  # pragma: no cover - Windows, macOS without forkserver
        ctx = multiprocessing.get_context("spawn")
    pending = list(reversed(todo))
    running: dict[Future, RunSpec] = {}
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                spec, key = pending[-1]
                try:
                    future = pool.submit(run_task, spec, options, cache_dir, key)
                except BrokenProcessPool:  # a worker died between runs: start afresh
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
                    continue
                pending.pop()
                running[future] = spec
                tracker.start(spec.id)
            done, _ = wait(list(running), timeout=1.0, return_when=FIRST_COMPLETED)
            for future in done:
                spec = running.pop(future)
                tracker.done(spec.id)
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    # which run's worker died is unknown: every run in flight is reported, and
                    # a re-run computes them again (finished ones are in the cache)
                    lost = [spec] + list(running.values())
                    running.clear()
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
                    for other in lost:
                        tracker.done(other.id)
                        yield Outcome(run_id=other.id, error="a worker process died (killed, or "
                                      "out of memory) while this run was in flight")
                    break
                yield outcome
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


class _Call:
    """Unpickled, it calls `run_task` and becomes its `Outcome`."""

    def __init__(self, spec: RunSpec, options: Options, cache_dir: str | None,
                 key: str | None) -> None:
        self.args = (spec, options, cache_dir, key)

    def __reduce__(self) -> tuple[Any, tuple]:
        return run_task, self.args


def connect(address: str) -> "object":
    """A `distributed.Client` on an existing cluster, or a clear error."""
    try:
        from distributed import Client
    except ImportError:
        raise MetricsError("--dask needs Dask's distributed scheduler: pip install "
                           "'sylla[dask]' (or pip install 'dask[distributed]')",
                           exit_code=EXIT_USAGE) from None
    try:
        return Client(address, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise MetricsError(f"cannot reach the Dask scheduler: {exc}", address,
                           exit_code=EXIT_USAGE) from None


def run_dask(todo: Todo, options: Options, cache_dir: str | None, client: "object",
             tracker: Tracker) -> Iterator[Outcome]:
    from distributed import as_completed

    import pickle

    futures: dict[Any, RunSpec] = {}
    for spec, key in todo:
        # The scheduler unpickles task graphs: a task naming sylla's function or types would
        # need sylla there. It gets `pickle.loads` and bytes instead; unpickling them on a worker
        # is what calls run_task (see _Call).
        blob = pickle.dumps(_Call(spec, options, cache_dir, key), protocol=pickle.HIGHEST_PROTOCOL)
        future = client.submit(pickle.loads, blob,  # type: ignore[attr-defined]
                               pure=False, key=f"sylla-run-{len(futures)}-{os.getpid()}-{time.time_ns()}")
        futures[future] = spec
        tracker.start(spec.id)
    try:
        for future in as_completed(list(futures), loop=client.loop):  # type: ignore[attr-defined]
            spec = futures.pop(future)
            tracker.done(spec.id)
            try:
                yield future.result()
            except Exception as exc:  # noqa: BLE001 - KilledWorker, a lost connection, ...
                from .task import describe

                yield Outcome(run_id=spec.id, error=f"on the Dask cluster: {describe(exc)}")
    finally:
        if futures:
            client.cancel(list(futures))  # type: ignore[attr-defined]


def execute(todo: Todo, options: Options, cache_dir: str | None, *, jobs: int | None,
            dask: "str | object | None", tracker: Tracker) -> Iterator[Outcome]:
    """Outcomes in completion order. ``dask`` is a scheduler address or a `distributed.Client`."""
    if dask is not None:
        client = connect(dask) if isinstance(dask, str) else dask
        try:
            yield from run_dask(todo, options, cache_dir, client, tracker)
        finally:
            if isinstance(dask, str):
                client.close()  # type: ignore[attr-defined]
        return
    n = jobs or default_jobs()
    if n <= 1 or len(todo) <= 1:
        yield from run_inline(todo, options, cache_dir, tracker)
    else:
        yield from run_processes(todo, options, cache_dir, min(n, len(todo)), tracker)


Callback = Callable[[Outcome], None]
