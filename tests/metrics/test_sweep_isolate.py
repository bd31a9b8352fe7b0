"""`metrics.sweep.isolate`: calls computed in a real child process of this one, which is reused,
replaced when it dies, ends with its parent, and is skipped when it cannot be started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from sylla.metrics.errors import MetricsError
from sylla.metrics.sweep import isolate

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with no children and ends by closing the ones it started."""
    monkeypatch.setattr(isolate, "_idle", [])
    monkeypatch.setattr(isolate, "_unavailable", None)
    monkeypatch.delenv(isolate.IN_WORKER, raising=False)
    yield
    for child in isolate._idle:
        child.close()


def call(fn, *args):  # type: ignore[no-untyped-def]
    return isolate.result(isolate.run_pickled(isolate.payload(fn, *args)))


def test_a_call_runs_in_one_child_that_is_reused() -> None:
    first = call(os.getpid)
    assert first != os.getpid()
    assert call(os.getppid) == os.getpid()  # a child of this process
    assert call(os.getpid) == first  # the same child, kept between calls
    assert [c.proc.pid for c in isolate._idle] == [first]


def test_an_exception_comes_back_with_its_type_and_words() -> None:
    from sylla.metrics.readers import detect

    with pytest.raises(MetricsError) as caught:
        call(detect, Path("/nonexistent/run_ll"))
    assert str(caught.value) == "/nonexistent/run_ll: no such file or directory"
    assert call(os.getpid) != os.getpid()  # the child survives a failed call


def test_a_child_that_dies_fails_that_call_only() -> None:
    with pytest.raises(isolate.ChildDied) as caught:
        call(os.abort)
    assert "child process that computed it was killed (SIGABRT)" in str(caught.value)
    assert isolate._idle == []
    pid = call(os.getpid)  # a new child
    assert pid != os.getpid() and call(os.getpid) == pid


def test_a_child_killed_while_idle_is_replaced() -> None:
    pid = call(os.getpid)
    os.kill(pid, signal.SIGKILL)
    isolate._idle[0].proc.wait(timeout=20)  # until every thread of it has ended
    again = call(os.getpid)
    assert again not in (pid, os.getpid())


def test_the_out_of_memory_killer_is_named() -> None:
    with pytest.raises(isolate.ChildDied, match=r"killed \(SIGKILL, most likely out of memory\)"):
        call(signal.raise_signal, signal.SIGKILL)


def test_children_end_with_their_parent(tmp_path: Path) -> None:
    """A parent killed outright (as a nanny kills a worker) leaves no child behind."""
    script = ("import os, sys, time\n"
              "from sylla.metrics.sweep import isolate\n"
              "print(isolate.result(isolate.run_pickled(isolate.payload(os.getpid))), flush=True)\n"
              "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert _alive(child)
        parent.kill()
        parent.wait()
        _gone(child)
    finally:
        if parent.poll() is None:
            parent.kill()


def test_without_children_calls_run_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert call(os.getpid) == os.getpid()
    assert isolate._unavailable and "/nonexistent/python" in isolate._unavailable


def test_the_environment_switch_keeps_calls_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(isolate.IN_WORKER, "1")
    assert call(os.getpid) == os.getpid()
    assert isolate._idle == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (not yet reaped) has finished too
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _gone(pid: int) -> None:
    deadline = time.monotonic() + 20
    while _alive(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs"
        time.sleep(0.05)


def test_a_child_whose_starting_thread_ended_is_replaced() -> None:
    """Linux's parent-death signal follows the thread that started the child: when a worker
    thread ends, its idle child ends too, and the next call gets a new child, not an error."""
    import threading

    started: list[int] = []
    thread = threading.Thread(target=lambda: started.append(call(os.getpid)))
    thread.start()
    thread.join()
    (gone,) = isolate._idle
    assert gone.proc.pid == started[0]
    assert gone.proc.wait(timeout=30) == -signal.SIGTERM
    pid = call(os.getpid)
    assert pid not in (started[0], os.getpid())
    assert [c.proc.pid for c in isolate._idle] == [pid]
