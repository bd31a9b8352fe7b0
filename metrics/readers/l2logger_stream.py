"""l2logger directories read and reduced block by block, for logs in the regular shape.

`read_l2logger` (``l2logger.py``) holds every logged row in memory, checks the log as a whole
and splits it into regimes. On a 10M-episode log that is a few gigabytes, while the metrics
only ever need one block, or one task's blocks, at a time. This reader handles the shape
l2logger itself writes: every experience complete, each block folder one block
(one type and one subtype), experience numbers running on from one
folder to the next without gaps or repeats (several rows of one experience are adjacent, as the
logger writes them), finite performance values; a test block may evaluate several tasks one
after another, each once. It reads one ``data-log.tsv`` at a time,
reduces each experience's rows to their mean, and appends the per-experience and per-row values
to spill files (`sylla.metrics.spill.SpillArray`); what stays in memory is the block table. A log
smaller than `SPILL_FROM` keeps them in memory instead: reading its spill files back was a
quarter of the time on a 1M-episode log, for memory it does not need (issue 24).

A log of several workers (l2logger's ``<worker>/<block_num>-<type>`` folders, one block counter
and one experience counter for all) is read one block number at a time, its workers' files
merged by experience number as the whole-log reader sorts them (`_Units`); what stays in
memory is still one block (of all workers) and the block table.

Anything else raises `Irregular`, and the whole-log reader runs instead: it gives the same
numbers, and it is the one that words the errors and warnings of an irregular log. A test
checks that both readers give the same runs, rows and metrics.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from ..cores import cores
from ..data import Columns, EpisodeLog, RunData, StreamedWorkers, regime_columns
from ..errors import MetricsError
from ..memory import after_reads, for_log_of, reading
from ..numbering import Consecutive
from ..progress import Progress
from ..spill import SpillArray
from . import l2logger_small as small
from .arrow_pool import give_back, load_for_parsing
from .codes import Codes
from .common import in_range
from .l2logger_files import (
    FOLDER,
    STARTS_AT_ONE,
    check_header,
    csv_options,
    group_means,
    header,
)
from .l2logger_small import SMALL, Unusual
from .labels import SUBTYPES, label_problem, spaced_twin

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    import pyarrow as pa


class Irregular(Exception):
    """The log is not in the regular shape this reader handles (the message says why)."""


#: runs of one value length a block's string column may take before the block is `Irregular`:
#: a regular block's tasks each come in one stretch, so a column changes value (and so length)
#: at most once per task
MAX_RUNS = 1 << 12


def value_runs(array: "pa.BinaryArray") -> tuple[np.ndarray, list[str]]:
    """The first row of each run of equal values in a string column read as bytes, and each
    run's value. The stream reader parses its string columns as ``binary``: dictionary-encoding
    them in the CSV parser was a third of the parse's CPU on a 10M-episode log (issue 24), and a
    block's columns hold a handful of values, each in one stretch, which rows compared with the
    row before find in one vectorised pass per stretch of equal lengths (its bytes against the
    same bytes one value further on). A value that is not UTF-8 is `Irregular` (the whole-log
    reader words it)."""
    n = len(array)
    if array.null_count:
        raise Irregular("a missing value")
    _, offset_buffer, data = array.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int32, count=n + 1, offset=array.offset * 4)
    raw = np.frombuffer(data, dtype=np.uint8) if data is not None else np.empty(0, np.uint8)
    lengths = np.diff(offsets)
    edges = np.flatnonzero(lengths[1:] != lengths[:-1]) + 1
    if edges.size >= MAX_RUNS:
        raise Irregular("a string column changes too often within a block")
    starts = [np.zeros(1, np.int64)] + [edges]
    for a, b in zip([0] + edges.tolist(), edges.tolist() + [n]):
        width = int(lengths[a])
        if width and b - a > 1:  # each row against the one before: the bytes one width apart
            lo, hi = int(offsets[a]), int(offsets[b])
            differ = np.flatnonzero(raw[lo + width:hi] != raw[lo:hi - width])
            if differ.size:
                starts.append(a + 1 + np.unique(differ // width))
    first = np.unique(np.concatenate(starts)) if len(starts) > 2 else np.concatenate(starts)
    try:
        values = [bytes(raw[offsets[i]:offsets[i + 1]]).decode() for i in first.tolist()]
    except UnicodeDecodeError:
        raise Irregular("a value that is not UTF-8") from None
    return first, values


def _single(array: "pa.BinaryArray", column: str) -> str:
    """The one value of a string column in a batch, or `Irregular`."""
    _, values = value_runs(array)
    if len(values) != 1:
        raise Irregular(f"{column} changes within a block")
    return _placeable(values[0], column)


def _placeable(value: str, column: str) -> str:
    """``value`` if it can name a worker, subtype or task (`labels`), else `Irregular`: the
    whole-log reader names the row."""
    if label_problem(value) is not None or (column == "block_subtype" and value not in SUBTYPES):
        raise Irregular(f"a {column} the reader cannot place")
    return value


def _coded(codes: Codes, array: "pa.BinaryArray") -> np.ndarray:
    """Each row's code (`value_runs`: the values coded in the order they first appear, as the
    whole-log reader's dictionaries list them)."""
    starts, values = value_runs(array)
    return codes.of_runs(starts, values, len(array))


def _new_task(value: str, codes: Codes) -> None:
    """A task name the stream reader places (`_placeable`), and no second spelling of one
    with and without spaces; else `Irregular` (the whole-log reader words it)."""
    _placeable(value, "task_name")
    if spaced_twin(codes.names, fold=True) is not None:
        raise Irregular("a task name written with and without spaces")


_NUMPY = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
          "double": np.float64}


def _numpy(array: "pa.Array") -> np.ndarray:
    """A numeric Arrow array without nulls as a numpy view of its buffer. pyarrow's own
    ``to_numpy`` and compute calls with a Python scalar go through its pandas shim, which
    imports pandas: half a second of a small log's run (issue 24). A null (an empty cell) is
    `Irregular`, as ``to_numpy()`` raising was before: the whole-log reader words it."""
    if array.null_count:
        raise Irregular("a missing value")
    dtype = _NUMPY.get(str(array.type))
    if dtype is None:
        raise Irregular(f"a column of type {array.type}")
    return np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array),
                         offset=array.offset * np.dtype(dtype).itemsize)


def _folder(file: Path) -> tuple[int, str]:
    """Block number and type from the folder name (checked by `read_l2logger` already)."""
    folder = FOLDER.match(file.parent.name)
    assert folder is not None
    return int(folder.group(1)), folder.group(2)


#: bytes of a block file parsed at a time, by pyarrow's threaded reader on all cores: enough
#: that a range's set-up is noise, few enough that the ranges in flight (one reduced, one or two
#: parsed ahead) hold a few tens of megabytes whatever the size of the files (issue 24: a
#: 10M-episode log's block files are about 90 MB each, parsed whole they were most of the peak)
RANGE = 16 << 20
#: bytes of a range each of pyarrow's threads parses at a time: four to a range, so that the
#: reduction loops over a few large batches (on a 10M-episode log of three rows per experience,
#: 1 MiB batches cost 1 s more CPU in per-batch overhead); a larger `RANGE` would put its
#: buffers past glibc's mmap threshold (`sylla.metrics.memory.THRESHOLD`), faulted in afresh
PARSE_BLOCK = 4 << 20
#: a log below `sylla.metrics.memory.LARGE` is parsed in ranges of a `SMALL_LOG_SHARE`th
#: of its bytes, at least `SMALL_LOG_RANGE` (and at most `RANGE`), each in two parse blocks: the
#: ranges in flight then weigh in proportion to the values the reading keeps (issue 40: a
#: million episodes, one row per experience, 88 MB, 4 MiB ranges: the reading's peak 143-149 ->
#: 116-120 MiB, 8 MiB ranges 129-140; with 1-3 rows, 170 MB, 8 MiB ranges: 167-170 MiB as with
#: 4, in 5 % less CPU, the per-range and per-batch overhead)
SMALL_LOG_RANGE = 4 << 20
SMALL_LOG_SHARE = 20
#: a log of at least `sylla.metrics.memory.LARGE` bytes (and every log read after one) is
#: parsed in ranges of this many bytes, two parse blocks each, not `RANGE`: fewer parse buffers
#: in flight for the same CPU (issue 40: 10M episodes, one row per experience, the reading's
#: plateau about 10 MiB lower)
LARGE_LOG_RANGE = 8 << 20


def _ranges(file: Path, step: int | None = None) -> list[tuple[int, int]]:
    """The byte ranges a block file is parsed in: from the end of its header line to the end of
    the file, cut after the first line end at least ``step`` (default `RANGE`) bytes on
    (pyarrow's reader cuts its own blocks at line ends too, as a value cannot hold one). At
    least one range (an empty one for a file without rows), so that the file's parse reports
    what is wrong with it."""
    step = RANGE if step is None else step
    size = file.stat().st_size
    with open(file, "rb") as handle:
        lo = len(handle.readline())
        out: list[tuple[int, int]] = []
        while lo + step < size:
            handle.seek(lo + step)
            handle.readline()  # to the end of the line the cut falls in
            hi = min(handle.tell(), size)
            out.append((lo, hi))
            lo = hi
    return out + [(lo, size)] if lo < size or not out else out


def _parse_range(file: Path, lo: int, hi: int, perf: str, subtype: bool,
                 threads: bool = True, block_size: int | None = None) -> "pa.Table":
    """Bytes ``lo .. hi`` of a block file (whole lines after its header) as an Arrow table, the
    string columns as bytes (`csv_options`, `value_runs`); ``threads``: on pyarrow's threads, else
    on the calling one; ``block_size``: bytes a parse block (default `PARSE_BLOCK`).
    Thread-safe: `_Ahead` parses ranges ahead of the one being reduced."""
    import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

    options = csv_options(file, perf, subtype, kind=_folder(file)[1])
    options["read_options"] = pacsv.ReadOptions(use_threads=threads, column_names=header(file),
                                                block_size=block_size or PARSE_BLOCK)
    with pa.OSFile(str(file), memory_pool=options["memory_pool"]) as handle:
        data = handle.read_at(hi - lo, lo)
    return pacsv.read_csv(pa.BufferReader(data), **options)


def _read_small(file: Path, perf: str, subtype: bool, tasks: Codes,
                params: Codes) -> tuple:
    """`_read_block` for a file of a small log, parsed without pyarrow (`l2logger_small`);
    `Unusual` when pyarrow must parse it."""

    number, kind = _folder(file)
    columns = small.read_columns(file, check_header(file, perf, subtype))
    if bool((small.integers(columns["block_num"]) != number).any()):
        raise Irregular("block_num differs from the folder's")
    seen = {}
    for column in ("worker_id", "block_type", "exp_status") + (
            ("block_subtype",) if subtype else ()):
        distinct = set(columns[column])
        if len(distinct) != 1:
            raise Irregular(f"{column} takes {len(distinct)} values in one block")
        seen[column] = distinct.pop()
    for column in ("worker_id",) + (("block_subtype",) if subtype else ()):
        _placeable(seen[column], column)
    if seen["block_type"] != kind or seen["exp_status"] != "complete":
        raise Irregular("a type other than the folder's, or incomplete rows")
    # values first: a value pyarrow must read stops here before any task or parameter is coded
    exp, values = small.integers(columns["exp_num"]), small.floats(columns[perf])
    return ([exp], [values], [tasks.of_texts(columns["task_name"])],
            [params.of_texts(columns["task_params"])], seen["worker_id"],
            seen.get("block_subtype", "wake"))


def _read_block(file: Path, perf: str, subtype: bool, tasks: Codes, params: Codes,
                tables: "Iterator[tuple[pa.Table, int]]",
                on_bytes: "Callable[[int], None] | None", small: bool = False) -> tuple:
    """One block file: the experience numbers, performance values and task and parameter codes
    of its rows (each a list of arrays, for its unit to join: `_joined`), and its worker and
    subtype. Whatever the whole-file reader would report
    raises `Irregular`. ``tables``: the file's ranges parsed (`_Ahead.tables`), each with the
    byte it ends at; ``small``: try the standard-library parser first (`_read_small`)."""
    if not _whole_lines(file):
        raise Irregular("a file cut inside its last line")
    if small:
        try:
            block = _read_small(file, perf, subtype, tasks, params)
        except Unusual:
            pass
        else:
            if on_bytes is not None:
                on_bytes(file.stat().st_size)
            return block
    number = _folder(file)[0]
    exps, values, task_codes, param_codes = [], [], [], []
    seen: dict[str, str] = {}
    try:
        for table, end in tables:
            if on_bytes is not None:
                on_bytes(end)
            for batch in table.to_batches():
                if not batch.num_rows:
                    continue
                if bool((_numpy(batch.column("block_num")) != number).any()):
                    raise Irregular("block_num differs from the folder's")
                status = batch.column("exp_status")  # checked by the parser (`csv_options`)
                if status.null_count or status.true_count != len(status):
                    raise Irregular("incomplete rows, or a type in exp_status")
                for column in ("worker_id",) + (("block_subtype",) if subtype else ()):
                    value = _single(batch.column(column), column)
                    if seen.setdefault(column, value) != value:
                        raise Irregular(f"{column} changes within a block")
                exps.append(_numpy(batch.column("exp_num")))
                values.append(_numpy(batch.column(perf)))
                task_codes.append(_coded(tasks, batch.column("task_name")))
                param_codes.append(_coded(params, batch.column("task_params")))
            del table
    except (Irregular, MetricsError):  # an empty file or a missing column (`check_header`)
        raise
    except Exception as exc:  # noqa: BLE001 - the whole-file reader locates and words it
        raise Irregular(f"unreadable: {exc}") from None
    if not exps:
        raise Irregular("an empty block")
    return exps, values, task_codes, param_codes, seen["worker_id"], seen.get(
        "block_subtype", "wake")


def _whole_lines(file: Path) -> bool:
    """Whether the file ends with a line end, as l2logger writes every row (else the whole-log
    reader reports the cut line)."""
    with open(file, "rb") as handle:
        handle.seek(0, 2)
        if handle.tell() == 0:
            return True  # `check_header` reports the empty file
        handle.seek(-1, 2)
        return handle.read(1) == b"\n"


def _joined(blocks: list[tuple]) -> list[np.ndarray]:
    """The four row columns of ``blocks`` (`_read_block`'s, one file or the files of one block
    number), each joined in one copy and its parts freed before the next is joined."""
    columns = []
    for j in range(4):
        columns.append(np.concatenate([part for block in blocks for part in block[j]]))
        for block in blocks:
            block[j].clear()
    return columns


class _Ahead:
    """The block files' ranges (`_ranges`) parsed in reading order, `DEPTH` ranges ahead of the
    one being reduced, `PARALLEL` at a time on threads of their own, which release the GIL, so
    the reduction's numpy work overlaps the next parses instead of waiting for them (issue 24);
    the tables come out in reading order whatever order they are parsed in. A log of one range
    (an expert run of a million-episode log: one 8 MB file) has nothing to parse beside it, and
    is parsed on pyarrow's threads, on every core (issue 40: its parse took 21 ms on one core of
    two, 12 ms on both; three such runs were a serial stretch of `sylla metrics`). Without
    ``enabled`` (a small log, read by the standard-library parser) a range is parsed when it
    is asked for. ``large``: a log of at least `sylla.metrics.memory.LARGE` bytes, parsed in
    ranges of `LARGE_LOG_RANGE`; else the ranges are a share of the log's ``log_bytes``
    (`SMALL_LOG_SHARE`). Either way Arrow's pool keeps a freed range's pages for the next
    range, and they all go back when the reading ends (`arrow_pool`), whether it finished or
    stopped at an irregular block (issue 40: a million episodes, 82k -> 37k page faults,
    1.33-1.42x -> 1.21-1.31x the pyarrow read floor; before, the pages kept outlived the reading and stayed into
    the metrics: 10M episodes, 40-56 MiB of the peak)."""

    DEPTH = 2
    #: ranges parsed at once, each on a thread of its own, and on pyarrow's threads as well
    #: only where there are more cores than these: on 2 cores one range at a time on pyarrow's
    #: threads left a core idle at each range's start and end (its reading and its last block),
    #: 15-30 % of a 10M-episode log's parse time, which two single-threaded parses fill
    PARALLEL = 2

    def __init__(self, files: list[Path], perf: str, subtype: bool, enabled: bool,
                 large: bool = True, log_bytes: int = 0) -> None:
        self.files, self.perf, self.subtype = files, perf, subtype
        self.pool: "ThreadPoolExecutor | None" = None
        self.threads = True
        if enabled and files:
            load_for_parsing()
            from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - lazy: start-up, small logs parse in the main thread

            self.pool = ThreadPoolExecutor(self.PARALLEL, thread_name_prefix="sylla-parse")
            self.threads = cores() > self.PARALLEL
        # a small log's ranges are a share of it (`SMALL_LOG_SHARE`), never more than `RANGE`
        self.step = LARGE_LOG_RANGE if large else min(
            RANGE, max(SMALL_LOG_RANGE, log_bytes // SMALL_LOG_SHARE))
        self.block_size = PARSE_BLOCK if large else min(PARSE_BLOCK, self.step // 2)
        self.jobs = ((k, lo, hi) for k in range(len(files))
                     for lo, hi in _ranges(files[k], self.step))
        if self.pool is not None and len(files) == 1:
            ranges = _ranges(files[0], self.step)
            self.threads = self.threads or len(ranges) == 1
            self.jobs = ((0, lo, hi) for lo, hi in ranges)
        self.queue: "deque[tuple[int, int, Future[pa.Table]]]" = deque()

    def _fill(self) -> None:
        assert self.pool is not None
        while len(self.queue) < self.DEPTH:
            job = next(self.jobs, None)
            if job is None:
                return
            k, lo, hi = job
            self.queue.append((k, hi, self.pool.submit(
                _parse_range, self.files[k], lo, hi, self.perf, self.subtype, self.threads,
                self.block_size)))

    def tables(self, k: int) -> "Iterator[tuple[pa.Table, int]]":
        """File ``k``'s ranges parsed, each with the byte it ends at. The files are asked for
        in order, each once (a file the standard-library parser read is skipped)."""
        if self.pool is None:
            for lo, hi in _ranges(self.files[k], self.step):
                yield _parse_range(self.files[k], lo, hi, self.perf, self.subtype,
                                   block_size=self.block_size), hi
            return
        self._fill()
        while self.queue and self.queue[0][0] < k:  # a file read without pyarrow
            self.queue.popleft()[2].cancel()
            self._fill()
        while self.queue and self.queue[0][0] == k:
            _, hi, parsed = self.queue.popleft()
            self._fill()
            yield parsed.result(), hi

    def __enter__(self) -> "_Ahead":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:  # an irregular log stops early: drop the parses ahead
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.queue.clear()
        after_reads(give_back)


#: bytes of block files from which the per-experience and per-row values are spilled to files
#: (about 2M logged rows: 4 float64 arrays of that are 64 MB)
SPILL_FROM = 200 << 20


class _Parts:
    """Values appended block by block and joined once at the end: `SpillArray`'s ``append``
    and ``size`` for a log small enough to keep in memory (`SPILL_FROM`)."""

    def __init__(self, dtype: "type | np.dtype" = np.float64) -> None:
        self.parts: list[np.ndarray] = []
        self.size = 0
        self.dtype = np.dtype(dtype)

    def append(self, values: np.ndarray) -> None:
        self.parts.append(np.asarray(values, dtype=self.dtype))
        self.size += values.size

    def joined(self) -> np.ndarray:
        whole = np.concatenate(self.parts) if self.parts else np.empty(0, self.dtype)
        self.parts = []
        return whole

    def copy(self) -> "_Parts":
        """The values so far, to append to separately (the parts are never written to, so
        both share them)."""
        out = _Parts(self.dtype)
        out.parts, out.size = list(self.parts), self.size
        return out


def _done(values: "SpillArray | _Parts") -> "SpillArray | np.ndarray":
    return values.joined() if isinstance(values, _Parts) else values


def _advance(bar: Progress, base: int) -> "Callable[[int], None]":
    """The progress callback of a block file whose bytes start at ``base``."""
    return lambda done: bar.advance(base + done)


class _Units:
    """The reading units of a log, each what the reduction below takes: the experience
    numbers, performance values, task and parameter codes of its rows in the whole-log
    reader's order, the first row of each experience (None when every row is one), and the
    means of the experiences.

    One worker: one block file a unit, read as it is. Several workers (l2logger's layout
    ``<worker>/<block_num>-<type>``; the workers share one block counter and one experience
    counter): one block number a unit, its workers' files merged by experience number as the
    whole-log reader sorts them (``lexsort((block_num, exp))``, file order breaking ties), an
    experience being one worker's rows of one number (`group_means`). Every check the whole-log
    reader makes raises `Irregular` here when it would fail or warn: per worker, experience
    numbers rise from one file to the next and the rows of one are adjacent, a task does not
    come back in a file nor an experience span two; all together, each block's numbers come
    after the last block's and the numbers run on without gaps, each number one worker's (the
    workers take them from one queue); the workers of a block agree on its type and subtype."""

    def __init__(self, files: list[Path], sizes: list[int]) -> None:
        workers = {f.parent.parent for f in files}
        self.several = len(workers) > 1
        # the whole-log reader takes the files in natural order (worker, then block); here a
        # block's files are read together, in that order among themselves
        order = sorted(range(len(files)), key=lambda i: (_folder(files[i])[0], i))
        self.files = [files[i] for i in order]
        self.sizes = [sizes[i] for i in order]
        self.groups: list[list[int]] = []
        for k, file in enumerate(self.files):
            if self.several and self.groups and \
                    _folder(self.files[self.groups[-1][0]])[0] == _folder(file)[0]:
                self.groups[-1].append(k)
            else:
                self.groups.append([k])
        self.worker_of: dict[Path, str] = {}  # worker folder -> its worker_id
        self.last_exp: dict[str, int] = {}  # worker_id -> its last experience number
        self.next_exp = 0
        self.first_exp: int | None = None

    def _start(self, exp: np.ndarray) -> None:
        if self.first_exp is None:
            self.first_exp = int(exp[0])
            if self.first_exp == 1:
                self.next_exp = 1  # counted from 1: complete all the same (`STARTS_AT_ONE`)

    def single(self, block: tuple) -> tuple:
        """One worker's block file as a unit (the shape l2logger writes for one worker)."""
        this_worker, sub = block[4:]
        exp, values, task_codes, param_codes = _joined([block])
        if self.worker_of.setdefault(Path(), this_worker) != this_worker:
            raise Irregular("several workers")
        if not in_range(values):
            raise Irregular("a performance value is not finite or beyond the largest sylla takes")
        step = np.diff(exp)
        self._start(exp)
        if exp[0] != self.next_exp or bool((step < 0).any()) or bool((step > 1).any()):
            raise Irregular("experience numbers do not run on without gaps or repeats")
        self.next_exp = int(exp[-1]) + 1
        _one_stretch_per_task(exp, task_codes)
        # one row per experience (every step 1): no experience starts to find, the rows are
        # the episodes; spares two block-sized arrays at the peak of an STE run's reading
        starts = None if bool((step == 1).all()) else np.flatnonzero(np.r_[True, step != 0])
        del step
        means = values if starts is None else group_means(values, starts)
        return exp, values, task_codes, param_codes, sub, starts, means

    def merged(self, blocks: list[tuple], files: list[Path]) -> tuple:
        """The files of one block number, one per worker, as one unit (see the class); empties
        ``blocks`` (their columns are joined into the unit's in one copy)."""
        kinds = {_folder(f)[1] for f in files}
        subs = {b[5] for b in blocks}
        if len(kinds) != 1 or len(subs) != 1:
            raise Irregular("the workers of a block differ in its type or subtype")
        sub = subs.pop()
        workers = [b[4] for b in blocks]
        sizes = [sum(p.size for p in b[0]) for b in blocks]
        merged = _joined(blocks)
        blocks.clear()  # the caller's list
        exp, values, task_codes = merged[:3]
        if not in_range(values):
            raise Irregular("a performance value is not finite or beyond the largest sylla takes")
        a = 0
        for file, worker, size in zip(files, workers, sizes):
            z = a + size
            if self.worker_of.setdefault(file.parent.parent, worker) != worker or \
                    list(self.worker_of.values()).count(worker) != 1:
                raise Irregular("a worker_id other than its folder's worker's")
            if bool((exp[a + 1:z] < exp[a:z - 1]).any()) or \
                    exp[a] <= self.last_exp.get(worker, -1 << 62):
                raise Irregular("a worker's experience numbers do not rise")
            self.last_exp[worker] = int(exp[z - 1])
            _one_stretch_per_task(exp[a:z], task_codes[a:z])
            a = z
        del exp, values, task_codes
        names = list(self.worker_of.values())
        code = np.repeat(np.array([names.index(w) for w in workers], dtype=np.int16), sizes)
        exp = merged[0]
        if bool((exp[1:] < exp[:-1]).any()):
            order = np.argsort(exp, kind="stable")
            for j in range(4):  # one column permuted (and its unsorted copy freed) at a time
                merged[j] = merged[j][order]
            code = code[order]
            del order
        exp, values, task_codes, param_codes = merged
        del merged
        self._start(exp)
        step = np.diff(exp)
        if exp[0] != self.next_exp or bool((step > 1).any()):
            raise Irregular("experience numbers do not run on without gaps")
        self.next_exp = int(exp[-1]) + 1
        new = (step != 0) | (code[1:] != code[:-1])
        if bool(((step == 0) & new).any()):
            raise Irregular("two workers log one experience number")
        del step
        starts = None if bool(new.all()) else np.flatnonzero(np.r_[True, new])
        means = values if starts is None else group_means(values, starts)
        return exp, values, task_codes, param_codes, kinds.pop(), sub, starts, means, code


def _append_consecutive(values: "SpillArray | _Parts", first: int, count: int) -> None:
    """Append the numbers ``first .. first + count - 1`` a bounded stretch at a time (the
    row-level experience numbers of the episodes read before the first experience of several
    rows: one row each)."""
    for a in range(0, count, _STRETCH):
        values.append(np.arange(first + a, first + min(count, a + _STRETCH), dtype=np.float64))


_STRETCH = 1 << 20  # numbers appended at a time by `_append_consecutive`


def _one_stretch_per_task(exp: np.ndarray, task_codes: np.ndarray) -> None:
    """A block file's tasks each in one stretch, an experience's rows all of one task (else
    the whole-log reader reports it)."""
    segments = np.flatnonzero(np.r_[True, task_codes[1:] != task_codes[:-1]])
    if len(set(task_codes[segments].tolist())) != segments.size:
        raise Irregular("a task comes back within a block")
    if bool((exp[segments[1:]] == exp[segments[1:] - 1]).any()):
        raise Irregular("an experience's rows span two tasks")


def read_regular(path: Path, perf: str, subtype: bool, files: list[Path], sizes: list[int],
                 progress: bool | None) -> EpisodeLog:
    """One run from the block files of a regular l2logger log (see the module docstring)."""
    # a log after a large one spills too (`for_log_of`): the expert runs of a long run
    spilled = for_log_of(sum(sizes)) or sum(sizes) >= SPILL_FROM
    small = sum(sizes) <= SMALL

    def make(dtype: type = np.float64) -> "SpillArray | _Parts":
        return SpillArray(dtype) if spilled else _Parts(dtype)

    # the episodes' experience numbers run on without gaps (`_Units`): the first and the count
    # say them all (`Consecutive`), checked block by block
    episode_perf = make()
    # a log with one row per experience has rows that are its episodes: the per-row values
    # are kept only from the first experience with several rows on, starting from a copy of
    # the episodes so far (on a 10M-episode log that saves writing and holding 160 MB)
    row_perf: "SpillArray | _Parts | None" = None
    row_exp: "SpillArray | _Parts | None" = None
    tasks, params = Codes(fold=True, on_new=_new_task), Codes()
    keys: list[tuple[str, int, str, int]] = []  # type, task code, subtype, params code
    numbers: list[int] = []  # each regime's block number in the log
    bounds: list[tuple[int, int, int, int]] = []  # episode start/stop, row start/stop
    units = _Units(files, sizes)
    # several workers: each episode's worker and row count (`StreamedWorkers`)
    episode_worker = make(np.int16) if units.several else None
    episode_nrows = make(np.int32) if units.several else None
    read = 0
    with reading(), Progress(sum(sizes), f"reading {path.name}", progress) as bar, \
            _Ahead(units.files, perf, subtype, not small, large=spilled,
                   log_bytes=sum(sizes)) as ahead:
        for group in units.groups:
            read_now = []
            for index in group:
                read_now.append(_read_block(
                    units.files[index], perf, subtype, tasks, params, ahead.tables(index),
                    _advance(bar, read) if bar.enabled else None, small=small))
                read += units.sizes[index]
            if units.several:
                (exp, values, task_codes, param_codes, kind, sub, starts, means,
                 worker) = units.merged(read_now, [units.files[i] for i in group])
                assert episode_worker is not None and episode_nrows is not None
                if starts is None:
                    episode_worker.append(worker)
                    episode_nrows.append(np.ones(exp.size, np.int32))
                else:
                    episode_worker.append(worker[starts])
                    episode_nrows.append(np.diff(np.r_[starts, exp.size]))
                del worker
            else:
                exp, values, task_codes, param_codes, sub, starts, means = units.single(
                    read_now[0])
                kind = _folder(units.files[group[0]])[1]
            del read_now
            # a test block evaluates several tasks one after another: one regime each (with
            # several workers, a task change between two workers' experiences is one too)
            segments = np.flatnonzero(np.r_[True, task_codes[1:] != task_codes[:-1]])
            e0 = episode_perf.size
            first_exp = exp if starts is None else exp[starts]
            if first_exp[0] != (units.first_exp or 0) + e0 or \
                    first_exp[-1] != first_exp[0] + first_exp.size - 1:
                raise Irregular("experience numbers do not run on without gaps or repeats")
            if starts is not None and row_perf is None:
                row_perf, row_exp = episode_perf.copy(), make()
                _append_consecutive(row_exp, units.first_exp or 0, e0)
            r0 = row_perf.size if row_perf is not None else e0
            episode_perf.append(means)
            if row_perf is not None and row_exp is not None:
                row_perf.append(values)
                row_exp.append(exp)
            row_edges = np.r_[segments, exp.size]
            episode_edges = (row_edges if starts is None
                             else np.r_[np.searchsorted(starts, segments), starts.size])
            number = _folder(units.files[group[0]])[0]
            for k, first in enumerate(segments):
                keys.append((kind, int(task_codes[first]), sub, int(param_codes[first])))
                numbers.append(number)
                bounds.append((e0 + int(episode_edges[k]), e0 + int(episode_edges[k + 1]),
                               r0 + int(row_edges[k]), r0 + int(row_edges[k + 1])))
            rows_read = r0 + exp.size
            del exp, values, task_codes, param_codes, starts, means, first_exp
            bar.estimate(rows_read, read)
            bar.advance(read)
    if units.several and tasks.tasks is not None and tasks.tasks.spellings:
        # the spelling kept is the first met: the whole-log reader meets them worker by worker
        raise Irregular("a task written in several spellings by several workers")
    first_exp_num = units.first_exp
    kinds = np.array([k[0] for k in keys], dtype=object)
    task = np.array([tasks.names[k[1]] for k in keys], dtype=object)
    subs = np.array([k[2] for k in keys], dtype=object)
    params_of = np.array([params.names[k[3]] for k in keys], dtype=object)
    edges = np.array(bounds, dtype=np.int64)
    blocks = regime_columns(edges[:, 0], edges[:, 1], kinds, task, subs, params_of)
    blocks["block_num"] = np.array(numbers, dtype=np.int64)
    run = RunData(run=path.name, perf=_done(episode_perf),
                  exp=Consecutive(first_exp_num or 0, episode_perf.size), blocks=blocks)
    if row_perf is not None and row_exp is not None:
        rows = blocks.copy()
        rows["start"], rows["stop"] = edges[:, 2], edges[:, 3]
        rows["count"] = rows["stop"] - rows["start"]
        run.rows = RunData(run=path.name, perf=_done(row_perf), exp=_done(row_exp), blocks=rows)
    # the runs carry the data; the per-episode table stays empty (and pandas unloaded)
    names = ("run", "worker", "episode", "perf", "row", "task", "kind")
    empty = Columns({c: np.empty(0) for c in names}, names)
    return EpisodeLog(frame=empty, path=str(path), format="l2logger",
                      files=[str(f) for f in files], perf=perf, runs=[run],
                      workers=(StreamedWorkers(list(units.worker_of.values()),
                                               _done(episode_worker), _done(episode_nrows))
                               if episode_worker is not None and episode_nrows is not None
                               else None),
                      warnings=([STARTS_AT_ONE] if first_exp_num == 1 else [])
                      + (tasks.tasks.warnings() if tasks.tasks is not None else []))
