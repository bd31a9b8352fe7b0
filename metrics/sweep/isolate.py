"""Run a sweep's tasks on a Dask worker in a child process of that worker.

Why: a Dask worker runs its tasks in threads, beside an event loop that wakes every few
milliseconds (the statistical profiler every 10 ms, the loop's health tick every 20 ms, the
memory monitor every 100 ms). Each wake-up takes the GIL from the task. A sylla run is
GIL-bound Python and pandas, so on two busy cores 30 runs took 3.2–3.4 s in a worker thread
against ~3.0 s in a plain process, and a whole sweep ~5 % longer (docs/metrics.md, *Sweep
benchmark*; with the profiler and monitors turned off the tasks ran as fast as in `--jobs N`
worker processes, which have no event loop). A child process has no event loop: the task thread
of the worker only waits on a pipe, with the GIL released.

It also keeps a crash inside a C extension, or the kernel's out-of-memory killer, from taking
the Dask worker down: the run fails with a clear message and the next run gets a new child.

Each worker thread takes an idle child (or starts one) for the length of one call, so a worker
with several threads has as many children. A child lives as long as its worker: it exits when
the pipe from the worker closes, and on Linux also when the worker dies (``PR_SET_PDEATHSIG``).
The child is the worker's own interpreter with the worker's ``sys.path`` and environment, so it
imports exactly the sylla the worker has. If a child cannot be started at all, calls run in the
worker thread as before.

The memory a run takes is the child's, which a Dask nanny does not count against the worker's
memory limit; the operating system's limits still apply to it.
"""

from __future__ import annotations

import ctypes
import json
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
from typing import Any, Callable

#: what multiprocessing's fork server (and each isolated child, `serve`) imports once, before it forks any worker: the per-run
#: task with everything it loads, and SciPy for the bootstrap chunks of the summaries. (The
#: ``sylla sweep`` command starts the server with the same list before it loads pandas itself.)
PRELOAD = ["sylla.metrics.sweep.task", "sylla.metrics.result", "scipy.stats"]

_HEADER = struct.Struct("<Q")

#: the child's first lines: take the worker's import path, then serve calls
_BOOT = ("import json, os, sys\n"
         "sys.path[:] = json.loads(os.environ.pop('SYLLA_CHILD_PATH'))\n"
         "from sylla.metrics.sweep.isolate import serve\n"
         "serve(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))\n")


class ChildDied(RuntimeError):
    """The child process ended while it computed a call."""


def _write_frame(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def _read_frame(fd: int) -> bytes | None:
    head = _read_exact(fd, _HEADER.size)
    if head is None:
        return None
    return _read_exact(fd, _HEADER.unpack(head)[0])


class Child:
    """One child process and the two pipes to it."""

    def __init__(self) -> None:
        to_child_r, self._to = os.pipe()
        self._from, from_child_w = os.pipe()
        env = dict(os.environ, SYLLA_CHILD_PATH=json.dumps(sys.path))
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _BOOT, str(to_child_r), str(from_child_w),
                 str(os.getpid())],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, env=env)
        except BaseException:
            for fd in (self._to, self._from):
                os.close(fd)
            raise
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        if _read_frame(self._from) != b"ready":
            self.close()
            raise ChildDied(self._ended())

    def call(self, payload: bytes) -> bytes:
        """The child's reply to ``payload``; `ChildDied` (and this child closed) if it ended."""
        try:
            _write_frame(self._to, payload)
            reply = _read_frame(self._from)
        except OSError:  # a broken pipe: the child is gone
            reply = None
        if reply is None:
            self.close()
            raise ChildDied(self._ended())
        return reply

    def _ended(self) -> str:
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return (f"the Dask worker's child process that computed it was killed ({name}"
                    + (", most likely out of memory)" if -code == signal.SIGKILL else ")"))
        return f"the Dask worker's child process that computed it exited with status {code}"

    def close(self) -> None:
        for fd in (self._to, self._from):
            try:
                os.close(fd)
            except OSError:
                pass
        self._to = self._from = -1
        if self.proc.poll() is None:
            try:
                self.proc.wait(timeout=10)  # it exits on the closed pipe
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def alive(self) -> bool:
        return self._to >= 0 and self.proc.poll() is None


_idle: list[Child] = []
_lock = threading.Lock()
#: why children cannot be started here (then calls run in the calling thread)
_unavailable: str | None = None if os.name == "posix" else "not a POSIX system"
#: set on the workers to compute in the worker's own thread (e.g. so that a nanny's memory
#: limit counts the runs)
IN_WORKER = "SYLLA_SWEEP_IN_WORKER"


def payload(fn: Callable[..., Any], *args: Any) -> bytes:
    """What `run_pickled` takes: ``fn(*args)``, pickled where the call is made."""
    return pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)


def result(reply: bytes) -> Any:
    """The value of a `run_pickled` reply, or its exception raised here."""
    ok, value = pickle.loads(reply)
    if not ok:
        raise value
    return value


def _reply(data: bytes) -> bytes:
    try:
        fn, args = pickle.loads(data)
        reply = (True, fn(*args))
    except Exception as exc:  # noqa: BLE001 - handed to the caller, which raises it
        reply = (False, exc)
    try:
        return pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - a value or exception that cannot be pickled
        return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


def run_pickled(data: bytes) -> bytes:
    """The reply to a `payload`, computed in an idle child of this process (started if there
    is none). The caller only moves bytes: this process never unpickles the arguments or the
    result, so a Dask worker does no work of sylla's on its event loop. A child that dies is
    the reply ``(False, ChildDied(...))``; the next call starts a new one."""
    global _unavailable
    child: Child | None = None
    with _lock:
        while _idle and child is None:
            child = _idle.pop()
            if not child.alive:
                child = None
        unavailable = _unavailable or (IN_WORKER if os.environ.get(IN_WORKER) else None)
    if child is None:
        if unavailable is not None:
            return _reply(data)
        try:
            child = Child()
        except (OSError, ValueError, ChildDied) as exc:
            with _lock:
                _unavailable = f"cannot start a child process: {exc}"
            return _reply(data)
    try:
        reply = child.call(data)
    except ChildDied as exc:
        return pickle.dumps((False, exc))
    with _lock:
        _idle.append(child)
    return reply


def serve(read_fd: int, write_fd: int, parent: int) -> None:
    """The child's loop: a `payload` in, the pickled ``(True, value)`` or ``(False, exc)`` out,
    until the worker closes the pipe."""
    _die_with(parent)
    for name in PRELOAD:
        __import__(name)
    _write_frame(write_fd, b"ready")
    while True:
        frame = _read_frame(read_fd)
        if frame is None:
            return
        _write_frame(write_fd, _reply(frame))


def _die_with(parent: int) -> None:
    """Ask Linux to end this process when the worker dies, whatever way it dies. Linux sends
    the signal when the *thread* that started the child ends; a worker thread that ends while
    its child is idle only costs a new child on the next call (`run_pickled` skips dead ones)."""
    if sys.platform.startswith("linux"):
        try:

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:  # the worker died before the request took effect
        os._exit(0)
