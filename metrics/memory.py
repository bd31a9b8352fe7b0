"""Keep the C allocator from holding on to the memory of freed block arrays.

Reading and reducing a long log one block at a time, and computing its metrics one block at a
time, allocates and frees arrays of a few to a few tens of megabytes, one after another.
glibc's malloc serves allocations above a threshold with ``mmap`` and unmaps them when they
are freed; it raises that threshold (up to 32 MiB) each time such a block is freed, and its
heap-trimming threshold with it, and a heap fragmented by a long log's arrays then keeps pages
it no longer uses. For a log of at least `LARGE` bytes both thresholds are fixed at 32 MiB
(``mallopt``, which also turns the adjustment off), and the heap is trimmed (`trim`) after each
metric plugin: the process holds about the arrays it uses, not the most it ever used. While a
log is read (`reading`) the heap keeps up to 128 MiB of freed memory instead, so that each
block's arrays reuse the pages the last block's freed, and is trimmed once the log is read; a
log below `LARGE` and its expert runs, read one after another, are trimmed once, after the
last (`reads_together`: a large log's reading restores the 32 MiB threshold and trims at once).

Why not trim after each block, as sylla did before: every block's arrays were then faulted in
afresh, 0.2 million of the 0.35 million page faults of reading a 10M-episode log of three
workers, 1 s of system time and 0.7 s of its wall time. Why not keep 128 MiB after the reading
too: the two lanes of metric plugins (`sylla.metrics.lanes`) then each held freed memory the
other could not use, 25 MB more peak memory, for few faults saved.

Why not a lower mmap threshold: one of 256 KiB (sylla before issue 24's last round) made every
array of a block a fresh mapping, faulted in page by page and unmapped again: 1.4 million page
faults and 7 s of system time on a 10M-episode log on a 2-core VM, for 50 MB less peak memory; a
4 MiB one still faulted in every 890k-value array of the metrics (2 s). The parse buffers, the other
large churn, come from Arrow's own pool and are bounded by the reader's byte ranges
(`l2logger_stream.LARGE_LOG_RANGE`); the pool keeps their pages for the next range and gives
them all back once a log is read (`readers.arrow_pool`).

Every log is read with the heap kept to one arena (``M_ARENA_MAX``, from the first reading on):
the parse threads each took an arena of their own for the parser's scratch, which no later
allocation of the main thread could reuse (issue 40: 10M episodes, one row per experience, peak
257-289 -> 229-257 MiB, CPU unchanged; the scratch is a few hundred allocations per range). A
smaller log (a million episodes, 85 MB) keeps glibc's dynamic thresholds and is trimmed once
read: with the one arena, its peak fell from 170-177 to 145-154 MiB at no measurable cost in
time. A large log keeps the glibc settings above, whose reuse of pages its many ranges need.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import threading
from typing import Callable, Iterator

_M_MMAP_THRESHOLD = -3  # glibc's <malloc.h>
_M_TRIM_THRESHOLD = -1  # glibc's <malloc.h>
_M_ARENA_MAX = -8  # glibc's <malloc.h>
THRESHOLD = 32 << 20  # bytes: both thresholds (glibc's dynamic maximum for the mmap one)
#: bytes of free memory at the top of the heap kept while a log is read (`reading`)
READING_TRIM_THRESHOLD = 128 << 20
LARGE = 200 << 20  # bytes of log data (about 2M l2logger rows; `l2logger_stream.SPILL_FROM`)
_active = False


def for_log_of(size: int) -> bool:
    """Switch the settings on if a log of ``size`` bytes is large (see the module docstring).
    Returns whether a large log has been read in this process: the stream reader then spills
    this log's values to files whatever its size, so that the expert (STE) runs read after a
    10M-episode log, 74 MB each and below the reader's own threshold, are not held in memory
    beside the run it spilled (issue 24: 170 MB of a 3-worker log's 402 MiB peak)."""
    global _active
    if size >= LARGE and not _active:
        _active = True
        return_freed_arrays()
    return _active


@functools.cache
def return_freed_arrays() -> bool:
    """Fix glibc's mmap and trim thresholds (see the module docstring); True if it took effect.
    A no-op on a C library without ``mallopt`` (musl, macOS), which do not adjust a threshold."""
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(_M_MMAP_THRESHOLD, THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, THRESHOLD))


@functools.cache
def _malloc_trim() -> "Callable[[int], int] | None":
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return trim


@contextlib.contextmanager
def reading() -> Iterator[None]:
    """Around the reading of a log. Once a large log has been seen, the heap keeps up to
    `READING_TRIM_THRESHOLD` of freed memory, so that each block's arrays reuse the pages the
    last block's freed, and is trimmed to `THRESHOLD` after; before, the heap is trimmed
    after. Either way the reading's threads share one arena (see the module docstring)."""
    _one_arena()
    if not _active:
        try:
            yield
        finally:
            after_reads(_trim_now)
        return
    mallopt = _mallopt()
    if mallopt is None:
        yield
        return
    mallopt(_M_TRIM_THRESHOLD, READING_TRIM_THRESHOLD)
    try:
        yield
    finally:
        mallopt(_M_TRIM_THRESHOLD, THRESHOLD)
        trim()


def _trim_now() -> None:
    """``malloc_trim(0)``, where the C library has it."""
    release = _malloc_trim()
    if release is not None:
        release(0)


class _Held(threading.local):
    """This thread's `reads_together` blocks: how deep, and the releases put off to the end."""

    def __init__(self) -> None:
        self.depth = 0
        self.due: dict[Callable[[], object], None] = {}


_held = _Held()


@contextlib.contextmanager
def reads_together() -> Iterator[None]:
    """Around logs read one after another for one computation: a run's log, then its expert
    (STE) runs. The memory each reading gives back when it ends (`after_reads`: the heap's
    trim, Arrow's freed parse buffers) is given back once, when the last has been read, so
    that the next reading's buffers reuse the pages the last one freed instead of faulting
    fresh ones in (issue 40: a million episodes with three STE runs, 37-41k page faults
    against 23-25k, wall 0.96 of the reads given back one by one, peak 97 -> 103 MiB).

    Per thread: a reading on another thread (a Dask worker computes runs on several) gives
    its memory back as it ends, as before, so that threads that keep overlapping never keep
    each other from giving back; its purge may take pages this block meant to reuse, which
    costs page faults, not values."""
    _held.depth += 1
    try:
        yield
    finally:
        _held.depth -= 1
        if not _held.depth:
            due, _held.due = list(_held.due), {}
            for release in due:
                release()


def after_reads(release: Callable[[], object]) -> None:
    """``release()`` now, or, inside this thread's `reads_together`, once at its end (however
    often it is asked for meanwhile)."""
    if _held.depth:
        _held.due[release] = None
    else:
        release()


@functools.cache
def _one_arena() -> None:
    """Every thread allocates from the main arena from now on (glibc's ``M_ARENA_MAX``); set
    before the parse threads' first allocation, so that none takes an arena of its own."""
    mallopt = _mallopt()
    if mallopt is not None:
        mallopt(_M_ARENA_MAX, 1)


def trim() -> None:
    """Give the heap's free pages back to the system (glibc's ``malloc_trim``), once a large
    log has been seen: the many small arrays of a block's parsed batches leave holes that the
    next block may not fill."""
    if _active:
        _trim_now()


_GLIBC_DEFAULT = 128 * 1024  # both thresholds' glibc default (bytes)
_IN_RUN_TRIM = 128 << 20
_IN_RUN_MMAP = 32 << 20


@contextlib.contextmanager
def one_run_at_a_time() -> Iterator[None]:
    """Around one run's computation in a process whose allocator was tuned to hand memory back
    at once (``MALLOC_TRIM_THRESHOLD_`` or ``MALLOC_MMAP_THRESHOLD_`` in its environment, as
    Dask's nanny sets for its workers): let the run reuse its freed arrays, then restore the
    process's settings and give the memory back.

    Under those settings every array over 128 KiB is mapped and unmapped again, and the heap is
    trimmed after almost every free: a run of 100,000 episodes then takes 15 times the page
    faults and about 10 % more time than in a plain process. Elsewhere this does nothing."""
    trim_env = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    mmap_env = os.environ.get("MALLOC_MMAP_THRESHOLD_")
    mallopt = _mallopt() if (trim_env or mmap_env) and not _active else None
    if mallopt is None:
        yield
        return
    mallopt(_M_TRIM_THRESHOLD, _IN_RUN_TRIM)
    mallopt(_M_MMAP_THRESHOLD, _IN_RUN_MMAP)
    try:
        yield
    finally:
        mallopt(_M_TRIM_THRESHOLD, _int(trim_env))
        mallopt(_M_MMAP_THRESHOLD, _int(mmap_env))
        _trim_now()


def _int(value: str | None) -> int:
    try:
        return int(value) if value else _GLIBC_DEFAULT
    except ValueError:
        return _GLIBC_DEFAULT


@functools.cache
def _mallopt() -> "Callable[[int, int], int] | None":
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt
