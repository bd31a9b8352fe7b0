"""When Arrow's jemalloc gives a freed parse buffer's pages back (`sylla.metrics.readers.arrow_pool`),
checked in child processes (jemalloc reads its options once, as pyarrow loads) by what the
kernel and jemalloc count: page faults, resident memory and jemalloc's own dirty pages, never
by time."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sylla.metrics.readers.arrow_pool import JEMALLOC_CONF, _code

#: the child's helpers: jemalloc's dirty pages (through the mallctl sylla found), resident
#: anonymous memory, page faults, and 64 MiB of parse-block-sized pool buffers
HELPERS = """
import ctypes, json, os, resource, sys
import numpy as np
from sylla.metrics.readers import arrow_pool

def dirty():
    call = arrow_pool.mallctl()
    if call is None:
        return None
    epoch, value, size = ctypes.c_uint64(1), ctypes.c_size_t(), ctypes.c_size_t(8)
    call(b"epoch", None, None, ctypes.byref(epoch), 8)
    assert call(b"stats.arenas.4096.pdirty", ctypes.byref(value), ctypes.byref(size), None, 0) == 0
    return value.value

def anon():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) >> 10 for l in status if l.startswith("RssAnon:"))

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

def fill(pool):
    import pyarrow as pa
    buffers = [pa.allocate_buffer(1 << 20, memory_pool=pool) for _ in range(64)]
    for buffer in buffers:
        np.frombuffer(buffer, dtype=np.uint8)[:] = 1
    return buffers
"""

FREE_AND_GIVE_BACK = HELPERS + """
if sys.argv[1] == "no-mallctl":
    arrow_pool.MALLCTL = "no_such_function"  # a libarrow whose symbol table names no mallctl
arrow_pool.load_for_parsing()  # what the stream reader calls before its first parse
pool = arrow_pool.pool()
buffers = fill(pool)
held = anon()
del buffers
kept_dirty = dirty()
before = faults()
buffers = fill(pool)  # the next range's buffers
refaulted = faults() - before
del buffers
after_free = anon()
purged = arrow_pool.give_back()
print(json.dumps(dict(backend=pool.backend_name, freed_at_once=held - after_free, given_back=after_free - anon(),
                      dirty_after_free=kept_dirty, dirty_at_end=dirty(), refaulted=refaulted,
                      purged=purged, left=os.environ.get(arrow_pool.JEMALLOC_CONF))))
"""


def _child(script: str, *args: str, **env: str) -> dict:
    inherited = {k: v for k, v in os.environ.items()
                 if not k.startswith("MALLOC_") and k != JEMALLOC_CONF}
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          env={**inherited, **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def mallctl_found() -> None:
    if _code() is None:
        pytest.skip("this pyarrow's libarrow names no jemalloc mallctl in its symbol table "
                    "(a pyarrow built without jemalloc, or stripped): the fallback is tested")


def test_freed_parse_buffers_serve_the_next_range_until_given_back(mallctl_found):
    """The point of keeping them: the next range's buffers fault no page in (issue 40: the
    pages given back at once were 45k of a million-episode run's 82k page faults)."""
    got = _child(FREE_AND_GIVE_BACK, "found")
    assert got["backend"] == "jemalloc"
    assert got["dirty_after_free"] >= 64 * 256  # 64 MiB of 4 KiB pages kept, none given back
    assert got["freed_at_once"] < 8  # MiB
    assert got["refaulted"] < 64 * 256 // 10  # served by the kept pages
    assert got["purged"]
    assert got["dirty_at_end"] == 0
    assert got["given_back"] >= 48  # of the 64 MiB freed
    assert got["left"] is None  # no process sylla starts inherits jemalloc's options


def test_without_mallctl_freed_parse_buffers_go_back_at_once():
    """A pyarrow whose ``libarrow`` names no ``mallctl`` (or one that cannot be found in
    memory) is loaded with jemalloc's decay 0, as before: nothing is kept."""
    got = _child(FREE_AND_GIVE_BACK, "no-mallctl")
    if got["backend"] != "jemalloc":
        pytest.skip("pyarrow without jemalloc (the system allocator has no decay)")
    assert got["freed_at_once"] >= 48
    assert got["refaulted"] >= 64 * 256 // 2  # every buffer faulted in afresh
    assert not got["purged"]
    assert got["dirty_after_free"] is None
    assert got["left"] is None


def test_a_users_jemalloc_options_are_left_as_they_are(mallctl_found):
    got = _child(FREE_AND_GIVE_BACK, "found", JE_ARROW_MALLOC_CONF="dirty_decay_ms:5000")
    assert got["left"] == "dirty_decay_ms:5000"
    assert got["purged"] and got["dirty_at_end"] == 0  # given back all the same


READ = HELPERS + """
from sylla.metrics import memory
from sylla.metrics.readers import read_log
from sylla.metrics.spill import SpillArray

if sys.argv[2] == "no-mallctl":
    arrow_pool.MALLCTL = "no_such_function"
if sys.argv[3] == "large":
    memory.LARGE = 1  # the log is read as a log of at least memory.LARGE bytes is
before = faults()
log = read_log(sys.argv[1], None, "auto", False, stream=True)
print(json.dumps(dict(faults=faults() - before, dirty=dirty(), parsed="pyarrow" in sys.modules,
                      spilled=isinstance(log.runs[0].perf, SpillArray), episodes=len(log.runs[0].perf))))
"""


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> str:
    from sylla.metrics.synth import alternating_plan, write_l2logger

    folder = tmp_path_factory.mktemp("pool")
    return str(write_l2logger(folder / "ll", alternating_plan(["a_v0", "b_v0", "c_v0"], 40_000,
                                                                5_000, cycles=3), seed=1))


@pytest.mark.parametrize("size", ["small", "large"])
def test_reading_a_log_leaves_no_freed_parse_pages_behind(mallctl_found, log, size):
    """Whether the reading ends or stops, the kept pages go back (`_Ahead.__exit__`), so none
    of them stays into the metrics (issue 40: 10M episodes, 40-56 MiB of the peak); while it
    reads, the ranges reuse them: fewer page faults than the same reading with every freed
    buffer given back at once."""
    kept = _child(READ, log, "found", size)
    at_once = _child(READ, log, "no-mallctl", size)
    assert kept["parsed"] and kept["spilled"] == (size == "large")
    assert kept["episodes"] == at_once["episodes"] > 3 * 3 * 40_000
    # a range's buffers are megabytes (at least `SMALL_LOG_RANGE` of input); what a value the
    # reader still held as it ended frees afterwards may be a few pages
    assert kept["dirty"] < (1 << 20) // 4096
    assert kept["faults"] < 0.8 * at_once["faults"]


WHOLE = HELPERS + """
from sylla.metrics.readers import read_log

log = read_log(sys.argv[1], None, "auto", False, stream=False)  # the whole-log reader
print(json.dumps(dict(dirty=dirty(), parsed="pyarrow" in sys.modules)))
"""


def test_the_whole_log_reader_gives_its_parse_pages_back(mallctl_found, log):
    """The reader an irregular log falls back to reads file by file: its freed parse buffers
    go back when it is done too."""
    got = _child(WHOLE, log)
    assert got["parsed"]
    assert got["dirty"] < (1 << 20) // 4096


TAIL = HELPERS + """
import shutil
from pathlib import Path
from sylla.metrics.synth import write_l2logger
from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

folder = Path(sys.argv[1])
if sys.argv[2] == "keep":
    from sylla.metrics.watch import l2logger_tail
    l2logger_tail.GIVE_BACK_FROM = 1 << 62  # as an update below it
episodes = 150_000  # about 10 MB of rows in one block, which the run is writing
source = write_l2logger(folder / "source", [("train", [("a_v0", episodes)])], seed=2)
syllabus = folder / "syllabus.json"
syllabus.write_text(json.dumps({"instructions": [
    {"$phase": "1.train"}, {"$repeat": {"$episode": "a_v0"}, "count": episodes}]}))
run = folder / "run"
shutil.copytree(source, run)
data = next(run.rglob("data-log.tsv"))
lines = data.read_bytes().splitlines(keepends=True)
data.write_bytes(b"".join(lines[:2001]))  # the header and 2,000 rows written so far
follower = Follower(run, Options(syllabus=str(syllabus)))
first = follower.refresh()
appended = b"".join(lines[2001:])
with open(data, "ab") as handle:
    handle.write(appended)
second = follower.refresh()
print(json.dumps(dict(dirty=dirty(), how=follower.last_update, error=second.error,
                      appended=len(appended))))
"""


def test_a_large_watch_update_gives_its_parse_pages_back(mallctl_found, tmp_path):
    """`sylla watch` reads appended rows on its own (`l2logger_tail`): an update of at least
    `GIVE_BACK_FROM` bytes gives its parse buffers' pages back, so that a watch does not keep
    the pages of the largest update it ever read."""
    from sylla.metrics.watch.l2logger_tail import GIVE_BACK_FROM

    got = _child(TAIL, str(tmp_path / "given"), "give")
    kept = _child(TAIL, str(tmp_path / "kept"), "keep")
    assert got["error"] is None and got["how"] == "incremental"
    assert got["appended"] >= GIVE_BACK_FROM
    # the same update below the threshold keeps its pages for the next one
    assert got["dirty"] < (1 << 20) // 4096 < kept["dirty"]


THREADS = """
import os, sys, threading
from sylla.metrics.readers import arrow_pool

start = threading.Barrier(8)
failed = []

def load():
    start.wait()
    try:
        arrow_pool.load_for_parsing()
    except BaseException as exc:  # noqa: BLE001 - reported below
        failed.append(repr(exc))

threads = [threading.Thread(target=load) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(failed, os.environ.get(arrow_pool.JEMALLOC_CONF))
"""


def test_readers_on_several_threads_load_pyarrow_once():
    """Tasks of a Dask worker read logs on several threads of one process: the first one to
    read loads pyarrow with jemalloc's options, and no other sets or takes out the variable
    meanwhile (each did: a KeyError as the second took it out again)."""
    inherited = {k: v for k, v in os.environ.items() if k != JEMALLOC_CONF}
    proc = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True,
                          env=inherited, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[]", "None"]
