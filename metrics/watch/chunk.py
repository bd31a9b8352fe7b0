"""The rows appended to a plain CSV/TSV log, parsed for an incremental update without the
batch reader's pandas passes, or None when only that reader may judge them.

Why a second parser: `sylla.metrics.readers.plain.read_plain` checks things that cannot occur
in the rows the incremental path accepts (repeats to average, booleans, text in number columns,
a cut last line) and pays ~40 ms of pandas work for 10,000 rows doing so, a third of an update's
budget on the bench. This parses the same bytes with the same parser (pyarrow's CSV reader,
which read_plain uses), and accepts them only when every column has a type whose values
read_plain would pass through unchanged: the performance as finite int64/float64 numbers, the
episode as non-negative int64, the labels as UTF-8 text. Anything else returns None and the
caller hands the rows to read_plain (which then words the problem, or accepts them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from .labels import from_arrow

#: the columns this parser takes; any other column (``step``, ``block``, ``exp``...) means the
#: batch reader's own handling
TEXT = ("task", "block_type", "phase", "run", "worker")


def parse_rows(data: bytes, header: bytes, sep: str, perf: str) -> dict[str, Any] | None:
    """``header + data`` (whole lines) as columns: ``perf`` (float64), ``episode`` (int64) and
    the label columns present (`labels.Labels`; ``block_type`` named
    ``kind`` as the reader names it); None when the rows need the batch reader."""
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: as above

    if not data.endswith(b"\n"):
        return None
    try:
        table = pacsv.read_csv(pa.py_buffer(header + data),
                               parse_options=pacsv.ParseOptions(delimiter=sep))
    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError):
        return None
    names = table.column_names
    if (perf not in names or "episode" not in names or len(set(names)) != len(names)
            or any(n not in (perf, "episode", *TEXT) for n in names) or not table.num_rows):
        return None
    out: dict[str, Any] = {}
    for name in names:
        col = table.column(name)
        if col.null_count:
            return None
        kind = col.type
        if name == perf:
            if not (pa.types.is_int64(kind) or pa.types.is_float64(kind)):
                return None
            values = col.to_numpy().astype(np.float64)
            if not np.isfinite(values).all():
                return None
            out["perf"] = values
        elif name == "episode":
            if not pa.types.is_int64(kind):
                return None
            episode = col.to_numpy()
            if (episode < 0).any():
                return None
            out["episode"] = episode.astype(np.int64)
        else:
            if not pa.types.is_string(kind):  # numbers or bytes that are no UTF-8: the reader's
                return None
            out["kind" if name == "block_type" else name] = from_arrow(col)
    return out
