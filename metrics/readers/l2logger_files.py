"""The l2logger data files' shape, shared by the whole-log reader (``l2logger``) and the
streaming one (``l2logger_stream``): the standard columns, the folder names, the pyarrow.csv
options. Below both readers, so that neither imports the other for it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ..errors import MetricsError
from .arrow_pool import pool
from .sniff import L2LOGGER_COLUMNS

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
        memory_pool=pool(), read_options=pacsv.ReadOptions(use_threads=THREADS),
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
