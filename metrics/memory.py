"""Keep the C allocator from holding on to the memory of freed block arrays.

Reading and reducing a long log one block at a time allocates and frees arrays of a few to a
few tens of megabytes, one after another. glibc's malloc serves allocations above a threshold
with ``mmap`` and unmaps them when they are freed, but it raises that threshold (up to 32 MiB)
each time such a block is freed, so the following arrays come from the heap, and a heap that is
fragmented by them keeps its pages: the process holds several blocks' worth of memory it no
longer uses. Fixing the threshold (``mallopt(M_MMAP_THRESHOLD, ...)``, which also turns the
adjustment off) makes every array of a block go back to the system when it is freed.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Callable

_M_MMAP_THRESHOLD = -3  # glibc's <malloc.h>
THRESHOLD = 1 << 18  # bytes: arrays of 32k float64 values and more


@functools.cache
def return_freed_arrays() -> bool:
    """Fix glibc's mmap threshold (see the module docstring); True if it took effect. A no-op
    on a C library without ``mallopt`` (musl, macOS), which do not adjust a threshold."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, THRESHOLD))


@functools.cache
def _malloc_trim() -> "Callable[[int], int] | None":
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return trim


def trim() -> None:
    """Give the heap's free pages back to the system (glibc's ``malloc_trim``): the many
    small arrays of a block's parsed batches leave holes that the next block may not fill."""
    release = _malloc_trim()
    if release is not None:
        release(0)
