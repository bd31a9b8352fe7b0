"""Runs of equal values in an Arrow string column, found with numpy on its buffers.

The streaming l2logger reader needs, per block file, whether ``worker_id``, ``block_type``,
``block_subtype`` and ``exp_status`` take one value, and a code per row for ``task_name`` and
``task_params``. Parsing those six columns dictionary-encoded (one hash lookup per cell) was a
third of the parse's CPU time on a 10M-episode log, more than all its numbers (issue 24). In
an l2logger file they change a few times per block at most, so this module reads them as plain
strings and finds where a value differs from the one before it: rows of one length are compared
byte for byte, all rows at once, without hashing and without pyarrow.compute (a tenth of a
second of start-up). Only the first row of each run is decoded to a Python string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

#: lengths of value compared by shifting the whole data buffer (`_shifted`); a column with more
#: distinct lengths than this compares its rows pairwise instead (`_differ`)
_SHIFTS = 8
#: byte comparisons per step when rows are compared pairwise (bounds the index arrays)
_CHUNK_BYTES = 1 << 22


def string_buffers(array: "pa.Array") -> tuple[np.ndarray, np.ndarray]:
    """The ``len(array) + 1`` value offsets and the data bytes of a string array without nulls,
    as numpy views of its buffers."""
    n = len(array)
    buffers = array.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int32, count=n + 1,
                            offset=array.offset * 4)
    data = (np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None
            else np.empty(0, np.uint8))
    return offsets, data


def run_starts(array: "pa.Array") -> tuple[np.ndarray, list[str]]:
    """The rows where a value differs from the row before (row 0 always), and those rows'
    values. ``array``: a ``pa.string()`` array without nulls."""
    n = len(array)
    if n == 0:
        return np.empty(0, np.int64), []
    offsets, data = string_buffers(array)
    lengths = np.diff(offsets)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.not_equal(lengths[1:], lengths[:-1], out=change[1:])
    widths = (np.unique(lengths).tolist() if change[1:].any() else [int(lengths[0])])
    if len(widths) <= _SHIFTS:
        for width in widths:
            _shifted(offsets, data, lengths, width, change)
    else:
        same = np.flatnonzero(~change[1:]) + 1  # rows as long as the row before them
        change[same] = _differ(offsets, data, lengths, same)
    starts = np.flatnonzero(change)
    values = [bytes(data[offsets[i] : offsets[i + 1]]).decode("utf-8") for i in starts.tolist()]
    return starts, values


def _shifted(offsets: np.ndarray, data: np.ndarray, lengths: np.ndarray, width: int,
             change: np.ndarray) -> None:
    """Mark in ``change`` the rows of ``width`` bytes that differ from a row before them of the
    same length. Such a row's bytes sit right after that row's, so comparing the data with
    itself shifted by ``width`` compares each of its bytes with the other row's: one
    vectorised pass over the column's bytes, and only the (few) differing bytes are mapped back
    to rows. A numpy comparison of an ``(n, width)`` matrix reduced along its short rows took
    longer than parsing the column."""
    body = data[int(offsets[0]) : int(offsets[-1])]
    if width == 0 or width >= body.size:
        return  # empty strings are equal; one row has nothing before it
    where = np.flatnonzero(body[width:] != body[:-width]) + (width + int(offsets[0]))
    if not where.size:
        return
    rows = np.searchsorted(offsets, where, side="right") - 1
    rows = rows[(rows > 0) & (lengths[rows] == width)]
    change[rows[lengths[rows - 1] == width]] = True


def _differ(offsets: np.ndarray, data: np.ndarray, lengths: np.ndarray,
            rows: np.ndarray) -> np.ndarray:
    """For each row in ``rows`` (each as long as the row before it), whether its bytes differ
    from that row's: one length at a time, a bounded number of rows at a time."""
    out = np.zeros(rows.size, dtype=bool)
    for width in np.unique(lengths[rows]).tolist():
        if width == 0:
            continue  # two empty strings are equal
        where = np.flatnonzero(lengths[rows] == width)
        span = np.arange(width)
        step = max(1, _CHUNK_BYTES // width)
        for k in range(0, where.size, step):
            pick = where[k : k + step]
            at = offsets[rows[pick]]
            mine = data[at[:, None] + span]
            before = data[(at - width)[:, None] + span]  # the row before ends where this starts
            out[pick] = np.any(mine != before, axis=1)
    return out
