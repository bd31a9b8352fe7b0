"""The l2logger data files' shape, shared by the whole-log reader (``l2logger``) and the
streaming one (``l2logger_stream``): the standard columns, the folder names, the pyarrow.csv
options. Below both readers, so that neither imports the other for it."""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import MetricsError
from .sniff import L2LOGGER_COLUMNS

if TYPE_CHECKING:
    import pyarrow as pa

STANDARD = L2LOGGER_COLUMNS
BLOCK = 1 << 20  # bytes of input per parsed batch when a progress bar follows the reading
THREADS = False  # single-threaded parsing keeps peak memory near the data kept
STRINGS = ("worker_id", "block_type", "block_subtype", "task_name", "task_params", "exp_status")

#: a log counting experiences from 1 is complete: it is read as it is, with this note
STARTS_AT_ONE = ("exp_num starts at 1, not 0 as l2logger counts; no experience is missing, so "
                 "the metrics are exact")

FOLDER = re.compile(r"^(\d+)-(train|test)$")


def natural_order(name: "str | Path") -> tuple:
    """The sort key of l2logger's files and workers (and of STE run folders): numbers by value,
    so ``2-test`` comes before ``10-train`` and ``worker2`` before ``worker10``."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(name)))


def group_means(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The mean of each run of rows starting at ``starts``: their sum in row order over their
    count. The whole-log reader averages the experiences of several workers with this function
    too (pandas' groupby mean summed with Kahan compensation before pandas 3, so the two readers
    would differ in the last bit with pandas 2 if each used its own)."""
    return np.add.reduceat(values, starts) / np.diff(np.r_[starts, values.size])


def csv_options(file: Path, perf: str, subtype: bool, as_text: bool = False,
                kind: str | None = None) -> dict:
    """pyarrow.csv options for one data file: the standard columns and ``perf`` only, numbers
    typed (or kept as text to locate a bad value), strings dictionary-encoded. Checks that
    the file is not empty and has every column.

    With ``kind`` (the stream reader, `l2logger_stream._parse_range`, for a block folder of
    that type) the strings are left as bytes for the reader to compare (`l2logger_stream._runs`),
    except the two columns whose one value a regular block is known before it is read, which
    the parser checks as it converts, for less than converting them costs:
    ``block_type`` must be ``kind`` on every row (a ``null`` column whose one null value is
    ``kind``) and ``exp_status`` ``complete`` (a ``bool`` column whose one true value is
    ``complete``). Anything else fails the parse, or reads as a null where no null can be
    (``kind`` in a number's or in ``exp_status``' place): the stream reader takes either for
    an irregular log (issue 24: dictionary-encoding the six string columns was a third of the
    parse's CPU on a 10M-episode log, converting these two to bytes a tenth)."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    wanted = check_header(file, perf, subtype)
    types = {c: pa.binary() if kind else pa.dictionary(pa.int32(), pa.string())
             for c in STRINGS}
    types.update({"block_num": pa.string(), "exp_num": pa.string()} if as_text else
                 {"block_num": pa.int64(), "exp_num": pa.int64()})
    types[perf] = pa.string() if as_text else pa.float64()
    checked: dict = {}
    if kind:
        types.update(block_type=pa.null(), exp_status=pa.bool_())
        checked = dict(null_values=[kind], true_values=["complete"], false_values=[])
    return dict(
        memory_pool=_pool(), read_options=pacsv.ReadOptions(use_threads=THREADS),
        parse_options=pacsv.ParseOptions(delimiter="\t"),
        convert_options=pacsv.ConvertOptions(include_columns=wanted, column_types=types,
                                             strings_can_be_null=False, **checked))


def check_header(file: Path, perf: str, subtype: bool) -> list[str]:
    """The columns a data file must have (the standard ones and ``perf``), after checking that
    the file is not empty and has each of them (without pyarrow: small logs never load it)."""
    if file.stat().st_size == 0:
        raise MetricsError("the file is empty", str(file))
    wanted = list(STANDARD) + (["block_subtype"] if subtype else []) + [perf]
    names = header(file)
    missing = [c for c in wanted if c not in names]
    if missing:
        raise MetricsError(f"missing column(s): {', '.join(missing)}", str(file))
    return wanted


def header(file: Path) -> list[str]:
    """The column names on a data file's first line."""
    with open(file, "rb") as handle:
        return handle.readline().decode("utf-8", "replace").rstrip("\r\n").split("\t")


def _pool() -> "pa.MemoryPool":
    """Arrow's jemalloc pool where pyarrow has it, else the system allocator. The stream reader
    parses a bounded range at a time (`l2logger_stream.RANGE`), so the buffers in flight are a
    few tens of megabytes; glibc's allocator held far more of a 10M-episode log's parse (its
    peak 240-250 MiB against jemalloc's 145-155, issue 40). The pool gives a freed buffer's
    pages back at once (`free_parse_memory_at_once`)."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:  # a pyarrow built without jemalloc (Windows wheels)
        return pa.system_memory_pool()


#: the environment variable Arrow's own jemalloc (symbols prefixed ``je_arrow_``) reads its
#: options from when it starts, as pyarrow loads
JEMALLOC_CONF = "JE_ARROW_MALLOC_CONF"


@functools.cache
def free_parse_memory_at_once() -> None:
    """Arrow's jemalloc returns the pages of freed parse buffers at once (its decay time 0)
    rather than keeping them for reuse: the pages kept were most of what the reading added to
    the peak beside the values it keeps (issue 40: a million episodes, 25 MiB), and
    ``release_unused`` never gives them back (pyarrow's jemalloc purge names its arena
    ``MALLCTL_ARENAS_ALL`` literally, which jemalloc does not know), so a large log's stayed
    into the metrics (10M episodes: 40-56 MiB). Faulting the next range's buffers in afresh
    costs no measurable time at a million episodes, and at 10M 0.5 million more page faults
    (CPU 5.4-5.5 -> 6.0-6.1 s on two cores; about 19 MiB of parse buffers per 8 MiB range).

    ``jemalloc_set_decay_ms`` only sets the decay of arenas made after the call, and jemalloc
    makes its first arena as pyarrow loads, which the parse buffers freed on the main thread
    go back to: their pages stayed (issue 40: 10-14 MiB of a million-episode run's peak, in
    the reading and in the metrics). So when pyarrow is not loaded yet, it is loaded here with
    jemalloc's decay 0 in `JEMALLOC_CONF` (unless the user set that variable), which is then
    taken out of the environment again so that no process sylla starts inherits it."""
    if "pyarrow" not in sys.modules and JEMALLOC_CONF not in os.environ:
        os.environ[JEMALLOC_CONF] = "dirty_decay_ms:0"
        try:
            import pyarrow  # noqa: F401, PLC0415 - jemalloc reads its options as pyarrow loads
        finally:
            del os.environ[JEMALLOC_CONF]
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    try:
        pa.jemalloc_set_decay_ms(0)
    except NotImplementedError:  # a pyarrow built without jemalloc
        pass


def release_parse_memory() -> None:
    """Give back the parse buffers the pool keeps (`_pool`), once a log is read: the system
    allocator's and mimalloc's; with pyarrow's jemalloc it frees nothing (see
    `free_parse_memory_at_once`)."""
    if "pyarrow" in sys.modules:  # a small log read without pyarrow has nothing to give back
        _pool().release_unused()
