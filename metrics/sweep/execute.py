"""Run the per-run tasks: in this process, in local worker processes, or on a Dask cluster.

All three run the same `task.run_task` on the same arguments and hand each `Outcome` to the
driver as it completes, so the results (sorted by run afterwards) are identical, byte for byte.

Local workers get at most one run each at a time: a worker holds one run in memory, and the
runs in flight are exactly the runs being computed, which the progress bar can name. Dask gets
every task at once (its scheduler balances them); nothing of sylla runs on the scheduler.
After the runs, the same workers compute the bootstrap chunks of the summaries (`Executor.map`).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..errors import EXIT_USAGE, MetricsError
from . import isolate
from .discover import RunSpec
from .options import Options
from .task import Outcome, describe, run_task

if TYPE_CHECKING:
    from distributed import Client

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


#: what multiprocessing's fork server imports once (defined in `isolate`, whose children
#: import the same list)
PRELOAD = isolate.PRELOAD


def _context() -> Any:

    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows, macOS


def start_workers() -> None:
    """Start the fork server now, so that it imports `PRELOAD` while this process still
    discovers the runs; the pool's workers are then forked from it ready to work."""
    ctx = _context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver  # noqa: PLC0415 - lazy: start-up, multiprocessing.forkserver loads only when used

        forkserver.ensure_running()


class Executor:
    """Where the per-run tasks and then the bootstrap chunks of the summaries run: this process,
    a pool of local worker processes, or a Dask cluster. The pool (or the connection) lives from
    the first run to the last chunk, so the summaries are computed in parallel by workers that
    already have SciPy loaded; `map` falls back to this process if the workers are gone."""

    def __init__(self, todo: int, *, jobs: int | None, dask: "str | Client | None") -> None:
        self.dask = dask
        self.client: Client | None = None
        self.pool: Any = None
        self.jobs = 1
        if todo == 0:
            return  # nothing to run: the summaries (if any) are computed here
        if dask is not None:
            self.client = connect(dask) if isinstance(dask, str) else dask
            return
        n = jobs or default_jobs()
        if n > 1 and todo > 1:

            self.jobs = min(n, todo)
            self._ctx = _context()
            self.pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self._ctx)

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            # a broken pool is not waited for: joining its dead workers can hang
            self.pool.shutdown(wait=not getattr(self.pool, "_broken", False),
                               cancel_futures=True)
            self.pool = None
        if self.client is not None:
            if isinstance(self.dask, str):
                self.client.close()
            self.client = None

    def runs(self, todo: Todo, options: Options, cache_dir: str | None,
             tracker: Tracker) -> Iterator[Outcome]:
        """The outcomes of ``todo`` in completion order."""
        if self.client is not None:
            yield from run_dask(todo, options, cache_dir, self.client, tracker)
        elif self.pool is not None:
            yield from self._run_processes(todo, options, cache_dir, tracker)
        else:
            yield from run_inline(todo, options, cache_dir, tracker)

    def map(self, fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
        """``[fn(x) for x in items]``, on the workers when there are any. ``fn`` must be a
        deterministic module-level function: if the workers fail, this process computes it."""
        if items:
            try:
                if self.client is not None:
                    return _dask_map(self.client, fn, items)
                if self.pool is not None:
                    return [f.result() for f in [self.pool.submit(fn, x) for x in items]]
            except Exception:  # noqa: BLE001 - a dead worker, a lost cluster: compute it here
                if self.pool is not None:
                    self.pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = None
        return [fn(x) for x in items]

    def each(self, fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
        """``[fn(x) for x in items]`` for a ``fn`` that must not run twice (it writes files): a
        worker that dies makes `Lost` the result of each item it may have been running, and
        of no other. Items not yet started go to a fresh pool; in this process when there are
        no workers."""
        if self.client is not None:
            return _dask_each(self.client, fn, items)
        if self.pool is None:
            return [fn(x) for x in items]
        out: list[Any] = [None] * len(items)
        for index, result in self._in_turn(fn, list(enumerate(items)), lambda i: None, lambda i: None):
            out[index] = result
        return out

    def _run_processes(self, todo: Todo, options: Options, cache_dir: str | None,
                       tracker: Tracker) -> Iterator[Outcome]:
        work = [(spec.id, (spec, options, cache_dir, key)) for spec, key in todo]
        for run_id, result in self._in_turn(_run_task_args, work, tracker.start, tracker.done):
            if isinstance(result, Lost):
                yield Outcome(run_id=run_id, error=result.reason)
            else:
                yield result

    def _in_turn(self, fn: Callable[[Any], Any], work: list[tuple[Any, Any]],
                 start: Callable[[Any], None], done: Callable[[Any], None]) -> Iterator[tuple[Any, Any]]:
        """``(tag, fn(arg))`` for each ``(tag, arg)`` of ``work`` in completion order, at most one
        item per worker at a time (so the items in flight are exactly those being computed).
        When a worker dies, which item it held is unknown: every item in flight gets `Lost`,
        and the pool starts afresh for the items not yet started."""
        jobs = self.jobs
        pending = list(reversed(work))
        running: dict[Future, Any] = {}
        try:
            while pending or running:
                while pending and len(running) < jobs:
                    tag, arg = pending[-1]
                    try:
                        future = self.pool.submit(fn, arg)
                    except BrokenProcessPool:  # a worker died between items: start afresh
                        self._renew()
                        continue
                    pending.pop()
                    running[future] = tag
                    start(tag)
                finished, _ = wait(list(running), timeout=1.0, return_when=FIRST_COMPLETED)
                for future in finished:
                    tag = running.pop(future)
                    done(tag)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        lost = [tag, *running.values()]
                        running.clear()
                        self._renew()
                        for other in lost:
                            done(other)
                            yield other, Lost(WORKER_DIED)
                        break
                    yield tag, result
        finally:
            for future in running:
                future.cancel()

    def _renew(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self._ctx)


#: why an item in flight on a local worker has no result
WORKER_DIED = "a worker process died (killed, or out of memory) while this run was in flight"


@dataclass(frozen=True)
class Lost:
    """The result of an item whose worker died (or whose Dask task failed) while it may have
    been running: it may have done part of its work, so it is reported, not run again."""

    reason: str


def _run_task_args(args: tuple[Any, ...]) -> Outcome:
    return run_task(*args)


class _Call:
    """Unpickled, it calls ``fn(*args)`` and becomes its result: what the scheduler sees is
    `pickle.loads` and bytes, so it needs no sylla (see `run_dask`)."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn = fn
        self.args = args

    def __reduce__(self) -> tuple[Any, tuple]:
        return self.fn, self.args


def _blob(fn: Callable[..., Any], *args: Any) -> bytes:
    return pickle.dumps(_Call(fn, *args), protocol=pickle.HIGHEST_PROTOCOL)


def _keys(prefix: str, n: int) -> list[str]:
    stamp = f"{os.getpid()}-{time.time_ns()}"
    return [f"sylla-{prefix}-{i}-{stamp}" for i in range(n)]


def connect(address: str) -> "Client":
    """A `distributed.Client` on an existing cluster, or a clear error. How long it tries is
    Dask's own setting, ``distributed.comm.timeouts.connect`` (30 s unless configured, e.g.
    ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s``)."""
    try:
        from distributed import Client  # noqa: PLC0415 - optional dependency: absent without the extra
    except ImportError:
        raise MetricsError("--dask needs Dask's distributed scheduler: pip install "
                           "'sylla[dask]' (or pip install 'dask[distributed]')",
                           exit_code=EXIT_USAGE) from None
    try:
        return Client(address, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise MetricsError(f"cannot reach the Dask scheduler: {exc}", address,
                           exit_code=EXIT_USAGE) from None


def run_dask(todo: Todo, options: Options, cache_dir: str | None, client: "Client",
             tracker: Tracker) -> Iterator[Outcome]:
    from distributed import as_completed  # noqa: PLC0415 - lazy: start-up, distributed loads only when used

    # The scheduler unpickles task graphs: a task naming sylla's function or types would need
    # sylla there. It gets `pickle.loads` and bytes instead; unpickling them on a worker is
    # what calls `isolate.run_pickled` (see _Call), which hands the run, still pickled, to a
    # child process of the worker and returns the child's reply, still pickled: the worker
    # only moves bytes. All tasks go in one message (client.map).
    blobs = [_blob(isolate.run_pickled, isolate.payload(run_task, spec, options, cache_dir, key))
             for spec, key in todo]
    submitted = client.map(pickle.loads, blobs, pure=False,
                           key=_keys("run", len(blobs)))
    futures: dict[Any, RunSpec] = {}
    for future, (spec, _) in zip(submitted, todo):
        futures[future] = spec
        tracker.start(spec.id)
    del submitted  # a result is forgotten on the worker once the driver has taken it
    try:
        # with_results: the client's event loop fetches each result as its run ends, so this
        # thread does not make one round trip to it per run
        for future, reply in as_completed(list(futures), loop=client.loop,
                                          with_results=True, raise_errors=False):
            spec = futures.pop(future)
            tracker.done(spec.id)
            try:
                if future.status != "finished":  # an error or a cancellation: raise it here
                    reply = future.result()
                outcome = isolate.result(reply)
            except Exception as exc:  # noqa: BLE001 - KilledWorker, a lost connection, ...
                text = str(exc) if isinstance(exc, isolate.ChildDied) else describe(exc)
                outcome = Outcome(run_id=spec.id, error=f"on the Dask cluster: {text}")
            yield outcome
    finally:
        if futures:
            client.cancel(list(futures))


def _dask_map(client: "Client", fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    futures = client.map(pickle.loads,
                         [_blob(isolate.run_pickled, isolate.payload(fn, x)) for x in items],
                         pure=False, key=_keys("chunk", len(items)))
    try:
        return [isolate.result(reply) for reply in client.gather(futures)]
    finally:
        client.cancel(futures)


def _dask_each(client: "Client", fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """`Executor.each` on a cluster: each item in a child of its worker (`isolate`), so a
    crash is that item's `Lost`, and the others keep their results."""
    futures = client.map(pickle.loads,
                         [_blob(isolate.run_pickled, isolate.payload(fn, x)) for x in items],
                         pure=False, key=_keys("each", len(items)))
    out: list[Any] = []
    try:
        for future in futures:
            try:
                out.append(isolate.result(future.result()))
            except Exception as exc:  # noqa: BLE001 - KilledWorker, a dead child, a lost connection
                text = str(exc) if isinstance(exc, isolate.ChildDied) else describe(exc)
                out.append(Lost(f"on the Dask cluster: {text}"))
        return out
    finally:
        client.cancel(futures)
