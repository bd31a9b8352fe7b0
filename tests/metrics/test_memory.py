"""The allocator settings of `sylla.metrics.memory`, checked by what they are for: page faults
(counted by the kernel, not timed) of a loop that allocates and frees block-sized arrays."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                reason="the settings are glibc's (mallopt, malloc_trim)")

LOOP = """
import json, resource, numpy as np
from sylla.metrics.memory import one_run_at_a_time

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(200):
        a = np.ones(200_000)  # 1.6 MB, as a block of a 100,000-episode run
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

outside = faults()
with one_run_at_a_time():
    inside = faults()
after = faults()
print(json.dumps([outside, inside, after]))
"""


def _faults(**env: str) -> list[int]:
    """The loop's page faults in a child whose glibc settings are ``env`` alone: a Dask
    cluster started earlier in this process (test_sweep_dask, on the same xdist worker) leaves
    its nanny's ``MALLOC_TRIM_THRESHOLD_`` in ``os.environ``, and a child would inherit it."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    proc = subprocess.run([sys.executable, "-c", LOOP], capture_output=True, text=True,
                          env={**inherited, **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_run_reuses_its_arrays_in_a_worker_tuned_as_dask_does():
    # Dask's nanny starts its workers with this setting; every array is then mapped afresh
    outside, inside, after = _faults(MALLOC_TRIM_THRESHOLD_="65536")
    assert outside > 20_000
    assert inside < outside / 10
    assert after > inside * 10  # the worker's own settings are back after the run


def test_nothing_changes_in_a_plain_process():
    outside, inside, after = _faults()
    # glibc's dynamic threshold already keeps such arrays on the heap: few faults throughout
    assert max(outside, inside, after) < 5_000


READING = """
import json, resource, numpy as np
from sylla.metrics import memory

memory.for_log_of(memory.LARGE)

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(30):
        block = [np.ones(2_000_000) for _ in range(4)]  # 64 MB of a block's arrays, each mapped
        del block                                       # from the heap (below the mmap threshold)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

outside = faults()
with memory.reading():
    inside = faults()
after = faults()
print(json.dumps([outside, inside, after]))
"""


def test_a_log_being_read_reuses_each_blocks_pages():
    proc = subprocess.run([sys.executable, "-c", READING], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")},
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    outside, inside, after = json.loads(proc.stdout)
    # trimmed to 32 MiB between blocks, half of each block's 64 MB is faulted in again
    assert outside > 30_000
    assert inside < outside / 10  # kept while reading: only the first block faults
    assert after > inside * 10  # and trimmed again once the log is read


ARENAS = """
import ctypes, os, sys
from sylla.metrics.readers import read_log

libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
libc.fclose.argtypes = (ctypes.c_void_p,)

def arenas():
    path = os.path.join(sys.argv[2], "info.xml")
    handle = libc.fopen(path.encode(), b"w")
    libc.malloc_info(0, handle)
    libc.fclose(handle)
    with open(path) as info:
        return info.read().count("<heap nr=")

before = arenas()
log = read_log(sys.argv[1], None, "auto", False, stream=True)
print(before, arenas())
"""


def test_reading_a_log_takes_no_arena_of_its_own(tmp_path):
    """A log that pyarrow parses on two threads (issue 40): the parse threads allocate from
    the main arena, so that what they free serves the metrics after (each thread's own arena
    kept freed parse memory no later allocation could reuse)."""
    from sylla.metrics.readers.l2logger_small import SMALL
    from sylla.metrics.synth import alternating_plan, write_l2logger

    log = write_l2logger(tmp_path / "ll", alternating_plan(["a_v0", "b_v0", "c_v0"], 2000, 300, cycles=3),
                         seed=1)
    assert sum(f.stat().st_size for f in log.rglob("data-log.tsv")) > SMALL  # parsed by pyarrow
    proc = subprocess.run([sys.executable, "-c", ARENAS, str(log), str(tmp_path)],
                          capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")})
    assert proc.returncode == 0, proc.stderr
    before, after = map(int, proc.stdout.split())
    assert after == before


def test_reads_together_puts_each_give_back_off_to_its_end_once():
    """`after_reads` inside `reads_together`: each release once, at the outermost block's end,
    in the order first asked for; even when the block ends with an error. Outside: at once."""
    from sylla.metrics import memory

    done: list[str] = []

    def heap() -> None:
        done.append("heap")

    def pool() -> None:
        done.append("pool")

    memory.after_reads(heap)
    assert done == ["heap"]
    done.clear()
    with pytest.raises(RuntimeError):
        with memory.reads_together():
            memory.after_reads(pool)
            with memory.reads_together():
                memory.after_reads(heap)
                memory.after_reads(pool)
            assert done == []  # the inner block's end is not the last reading's
            memory.after_reads(heap)
            raise RuntimeError("a log that cannot be read")
    assert done == ["pool", "heap"]
    done.clear()
    memory.after_reads(pool)  # nothing left held
    assert done == ["pool"]


def test_a_reading_on_another_thread_gives_back_as_it_ends():
    """Threads that compute runs side by side (a Dask worker's) never hold each other's
    give-back: only the thread inside `reads_together` puts its releases off."""
    import threading

    from sylla.metrics import memory

    done: list[str] = []
    inside, finish = threading.Event(), threading.Event()

    def holder() -> None:
        with memory.reads_together():
            memory.after_reads(lambda: done.append("holder"))
            inside.set()
            finish.wait(60)

    thread = threading.Thread(target=holder)
    thread.start()
    assert inside.wait(60)
    memory.after_reads(lambda: done.append("other"))
    assert done == ["other"]  # at once, although another thread is inside a block
    finish.set()
    thread.join(60)
    assert done == ["other", "holder"]


def _expert_logs(folder) -> tuple[str, str]:
    from sylla.metrics.synth import alternating_plan, write_l2logger

    tasks = ["a_v0", "b_v0", "c_v0"]
    log = write_l2logger(folder / "ll", alternating_plan(tasks, 20_000, 2_000, cycles=2), seed=1)
    for k, task in enumerate(tasks):
        write_l2logger(folder / "ste" / f"ste_{task}_run1", [("train", [(task, 20_000)])],
                       seed=10 + k)
    return str(log), str(folder / "ste")


CHAIN = """
import contextlib, json, resource, sys
from sylla.metrics import result, ste
from tests.metrics.test_arrow_pool import HELPERS
exec(HELPERS)

if sys.argv[3] == "apart":  # each reading gives its memory back as it ends (sylla before)
    result.reads_together = ste.reads_together = contextlib.nullcontext
reads = []
real = ste.read_log

def observed(*args, **kwargs):
    dirty_before, before = dirty(), faults()
    log = real(*args, **kwargs)
    reads.append(dict(dirty_before=dirty_before, faults=faults() - before))
    return log

ste.read_log = observed
computed = result.compute_metrics(sys.argv[1], ste=[sys.argv[2]], progress=False)
print(json.dumps(dict(reads=reads, dirty_at_end=dirty(), records=len(computed.records))))
"""


def test_expert_runs_reuse_the_memory_the_log_freed(tmp_path):
    """`compute_metrics` reads a run's log, then its expert runs, inside `reads_together`:
    the first expert run's parse finds the log's freed parse pages kept (Arrow's jemalloc
    counts them), so the expert runs fault in fewer pages than when every reading gives its
    memory back as it ends; and once the reading is over, nothing kept is left."""
    from sylla.metrics.readers.arrow_pool import _code

    if _code() is None:
        pytest.skip("this pyarrow's libarrow names no jemalloc mallctl in its symbol table: "
                    "its freed pages cannot be counted")
    log, experts = _expert_logs(tmp_path)
    inherited = {k: v for k, v in os.environ.items()
                 if not k.startswith("MALLOC_") and k != "JE_ARROW_MALLOC_CONF"}

    def run(mode: str) -> dict:
        proc = subprocess.run([sys.executable, "-c", CHAIN, log, experts, mode],
                              capture_output=True, text=True, env=inherited, timeout=300,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    together, apart = run("together"), run("apart")
    assert len(together["reads"]) == len(apart["reads"]) == 3
    assert together["records"] == apart["records"] > 0
    page = 4096
    assert together["reads"][0]["dirty_before"] > (4 << 20) // page  # at least a range's buffers
    assert apart["reads"][0]["dirty_before"] < (1 << 20) // page
    faults_together = sum(r["faults"] for r in together["reads"])
    faults_apart = sum(r["faults"] for r in apart["reads"])
    assert faults_together < 0.7 * faults_apart, (faults_together, faults_apart)
    # given back once the expert runs were read: what the computation frees after that (the
    # reading's last objects, released by the collector or a pool thread later) may leave a
    # few hundred pages (341 seen in a full run of the suite), not the thousands kept before
    assert together["dirty_at_end"] < together["reads"][0]["dirty_before"] / 4
