"""Arrow's memory pool for the parse buffers of l2logger logs, and when its freed pages go back.

A log is parsed in byte ranges (`l2logger_stream`), and each range's parse buffers are freed
as the next range is parsed: the same few tens of megabytes, allocated and freed over and over.
Arrow's jemalloc can either keep a freed buffer's pages for the next one or give them back at
once. Kept, they serve the next range without a page fault; given back at once, every range's
buffers are faulted in afresh (issue 40: a million episodes, 82k page faults against 37k,
0.24-0.29 s of system time against 0.15-0.16 s, 1.33-1.42x the pyarrow read floor against
1.21-1.31x). But kept pages outlive the reading unless something gives them back, and
pyarrow's own purge, ``MemoryPool.release_unused``, gives nothing back with jemalloc: it names
its arena ``MALLCTL_ARENAS_ALL`` literally, which jemalloc does not know (issue 40; seen in
the disassembly of pyarrow 26.0.1's ``libarrow``), so a 10M-episode log's kept pages stayed
into the metrics (40-56 MiB of the peak).

So sylla calls jemalloc's ``mallctl`` itself, found in ``libarrow``'s symbol table and checked
byte for byte (`sylla.kit.native`): pyarrow is loaded with jemalloc keeping freed pages
until told (decay -1) in one arena (so that the parse threads' arenas do not each keep their
own), and `give_back` purges them once a log is read. Where that function cannot be found (a
pyarrow built otherwise, another platform), pyarrow is loaded with decay 0 as before: freed
pages go back at once, in more time.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sylla.kit.native import Code, address_in_memory, code_in_file

if TYPE_CHECKING:
    import pyarrow as pa

#: the environment variable Arrow's own jemalloc (symbols prefixed ``je_arrow_``) reads its
#: options from when it starts, as pyarrow loads
JEMALLOC_CONF = "JE_ARROW_MALLOC_CONF"
#: jemalloc's options when sylla can purge (`give_back`): freed pages kept for the next parse,
#: in one arena
KEEP_UNTIL_PURGED = "dirty_decay_ms:-1,narenas:1"
#: jemalloc's options when it cannot: freed pages given back at once
GIVE_BACK_AT_ONCE = "dirty_decay_ms:0"
MALLCTL = "je_arrow_mallctl"
#: jemalloc's ``MALLCTL_ARENAS_ALL``: an arena index that stands for every arena
ARENAS_ALL = 4096

_Mallctl = Callable[[bytes, "ctypes.c_void_p | None", "ctypes.c_void_p | None",
                     "ctypes.c_void_p | None", int], int]


def pool() -> "pa.MemoryPool":
    """Arrow's jemalloc pool where pyarrow has it, else the system allocator. The stream reader
    parses a bounded range at a time (`l2logger_stream.RANGE`), so the buffers in flight are a
    few tens of megabytes; glibc's allocator held far more of a 10M-episode log's parse (its
    peak 240-250 MiB against jemalloc's 145-155, issue 40)."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:  # a pyarrow built without jemalloc (Windows wheels)
        return pa.system_memory_pool()


def libarrow() -> "Path | None":
    """The ``libarrow`` shared library of the pyarrow that would be imported (without importing
    it), or None."""
    try:
        spec = importlib.util.find_spec("pyarrow")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("libarrow.so.*"))
        if found:
            return found[0]
    return None


@functools.cache
def _code() -> "tuple[Path, Code] | None":
    """``libarrow`` and its ``mallctl``'s code in the file, looked up before pyarrow loads."""
    lib = libarrow()
    code = code_in_file(lib, MALLCTL) if lib is not None else None
    return (lib, code) if lib is not None and code is not None else None


@functools.cache
def mallctl() -> "_Mallctl | None":
    """Arrow's jemalloc's ``mallctl`` in this process, or None; loads pyarrow."""
    found = _code()
    if found is None:
        return None
    import pyarrow  # noqa: F401, PLC0415 - the library must be mapped to be found in memory

    lib, code = found
    address = address_in_memory(lib, code)
    if address is None:
        return None
    prototype = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p,
                                 ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
    return prototype(address)


_LOADING = threading.Lock()
_loaded = False


def load_for_parsing() -> None:
    """Load pyarrow with the jemalloc options above (unless the user set `JEMALLOC_CONF`, or
    pyarrow is loaded already), then take the variable out of the environment again, so that
    no process sylla starts inherits it. jemalloc reads its options once, as pyarrow loads,
    and makes its first arena then: ``jemalloc_set_decay_ms`` reaches only arenas made after
    the call, which is why the options go in before. Once per process, under a lock: readers
    on several threads (a Dask worker's tasks) would each set and take out the variable."""
    global _loaded
    with _LOADING:
        if _loaded:
            return
        if "pyarrow" not in sys.modules and JEMALLOC_CONF not in os.environ:
            os.environ[JEMALLOC_CONF] = KEEP_UNTIL_PURGED if _code() else GIVE_BACK_AT_ONCE
            try:
                import pyarrow  # noqa: F401, PLC0415 - jemalloc reads its options as pyarrow loads
            finally:
                del os.environ[JEMALLOC_CONF]
        import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

        if mallctl() is None:
            try:
                pa.jemalloc_set_decay_ms(0)  # the arenas made from now on give back at once
            except NotImplementedError:  # a pyarrow built without jemalloc
                pass
        _loaded = True


def give_back() -> bool:
    """Give back the pages of the parse buffers freed so far, once a log (or a large part of
    one) is read: every jemalloc arena's, through ``mallctl``; else the pool's own
    ``release_unused``, which frees with the system allocator and with mimalloc. Returns
    whether jemalloc was purged. A no-op before pyarrow is loaded (a small log read without
    it has nothing to give back)."""
    if "pyarrow" not in sys.modules:
        return False
    call = mallctl()
    if call is not None:
        return call(f"arena.{ARENAS_ALL}.purge".encode(), None, None, None, 0) == 0
    pool().release_unused()
    return False
