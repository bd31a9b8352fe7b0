"""Checks every reader shares: the performance column must exist and hold finite numbers."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import EXIT_USAGE, MetricsError

if TYPE_CHECKING:
    import pandas as pd


class TaskNames:
    """Codes for task names that compare case-insensitively, as l2logger reads them.

    l2logger lower-cases every ``task_name`` when it reads a log (``l2logger.util
    .read_log_data``), so ``Alpha_V0`` and ``alpha_v0`` are one task for l2metrics. sylla
    matches them the same way and keeps the spelling first written; `spellings` keeps every
    other spelling so that the reader can say that one task was written two ways."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.spellings: dict[int, list[str]] = {}

    def code(self, name: str) -> int:
        key = name.lower()
        code = self.index.get(key)
        if code is None:
            code = self.index[key] = len(self.names)
            self.names.append(name)
        elif name != self.names[code]:
            seen = self.spellings.setdefault(code, [])
            if name not in seen:
                seen.append(name)
        return code

    def warnings(self) -> list[str]:
        return [f"task {self.names[c]!r} is also written as "
                f"{', '.join(repr(s) for s in others)}; task names are compared "
                "case-insensitively (as l2logger and l2metrics read them), so they are one task"
                for c, others in self.spellings.items()]


def read_failure(path: Path, exc: Exception) -> MetricsError:
    """Turn a parser or OS exception into a message that names the file."""
    if isinstance(exc, FileNotFoundError):
        return MetricsError("no such file", str(path), exit_code=EXIT_USAGE)
    if isinstance(exc, (IsADirectoryError, PermissionError)):
        return MetricsError(f"cannot read: {exc.strerror}", str(path), exit_code=EXIT_USAGE)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return MetricsError(f"cannot parse: {text}", str(path))


def check_perf(raw: pd.DataFrame, perf: str, file: str, rows: np.ndarray) -> np.ndarray:
    """The performance column as float64, or an error naming the first bad row.

    NaN, inf, empty cells and text are all refused: silently dropping an episode would shift
    every later episode onto the wrong block.
    """
    if perf not in raw.columns:
        have = ", ".join(map(str, raw.columns)) or "none"
        raise MetricsError(
            f"no performance column {perf!r} (columns: {have}); choose one with --perf", file)
    values, problem = perf_values(raw[perf])
    if problem is not None:
        i, what = problem
        raise MetricsError(f"{perf} {what}", file, int(rows[i]))
    return values


#: the largest magnitude a performance value may have: the metrics sum, square and divide
#: them, and one reward of 1e308 overflowed a running sum to inf, which then came out as a
#: plausible small average (issue 38). 1e100 squared and summed over 10^9 episodes stays finite.
LARGEST = 1e100


def too_large(value: str) -> str:
    """What is wrong with a finite value beyond ±``LARGEST`` (as ``{perf} {what}``)."""
    return f"is {value}, beyond ±{LARGEST:g}: sums and squares of such values overflow 64-bit floats; rescale the column"


def in_range(values: np.ndarray) -> bool:
    """Whether every value is finite and within ±``LARGEST`` (NaN fails: it compares false)."""
    return values.size == 0 or bool(values.min() >= -LARGEST and values.max() <= LARGEST)


def perf_values(column: pd.Series) -> tuple[np.ndarray, tuple[int, str] | None]:
    """Float64 values and, if any is bad, the position of the first and what is wrong with it."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24): the l2logger block reader needs none

    if column.dtype.kind == "b":
        return column.to_numpy(dtype=np.float64), (0, f"is a boolean ({show(column.iloc[0])}), "
                                                      "not a number")
    if column.dtype.kind in "fiu":
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64,
                                                                  na_value=np.nan)
    if in_range(values):
        return values, None
    bad = ~(np.abs(values) <= LARGEST)
    i = int(np.argmax(bad))
    original = column.iloc[i]
    if np.isfinite(values[i]):
        what = too_large(original.strip() if isinstance(original, str) else show(original))
    elif original is None or (isinstance(original, float) and np.isnan(original)) or (
            isinstance(original, str) and original.strip().lower() in ("", "nan", "na", "null")):
        what = "is missing or NaN"
    elif isinstance(original, str) and pd.isna(pd.to_numeric(original, errors="coerce")):
        what = f"is not a number: {original!r}"
    else:
        what = f"is not finite: {original}"
    return values, (i, what)


def show(value: object) -> str:
    """A value as a person would write it (``10.5``, ``1e+20``, ``'abc'``), never a repr such
    as ``np.float64(10.5)``."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return str(int(number)) if number.is_integer() and abs(number) < 1e16 else f"{number:g}"
    return repr(value)


def check_types(raw: pd.DataFrame, columns: list[str], file: str, rows: np.ndarray, *,
                strict_text: bool, perf: str) -> None:
    """Refuse booleans where numbers are expected (``true`` is not a reward of 1), and, in typed
    formats (JSON Lines, Parquet), numbers written as text (``"0.457"``)."""
    import pandas as pd  # noqa: PLC0415 - lazy: start-up (issue 24)

    for col in dict.fromkeys(c for c in columns if c in raw.columns and c not in ("worker", "run")):
        series = raw[col]
        if series.dtype.kind == "b":
            raise MetricsError(f"{col} is a boolean ({show(series.iloc[0])}), not a number",
                               file, int(rows[0]))
        if series.dtype == object or pd.api.types.is_string_dtype(series.dtype):
            is_bool = series.map(lambda v: isinstance(v, (bool, np.bool_))).to_numpy()
            if is_bool.any():
                i = int(np.argmax(is_bool))
                raise MetricsError(f"{col} is a boolean ({show(series.iloc[i])}), not a number",
                                   file, int(rows[i]))
            if strict_text:
                is_text = series.map(lambda v: isinstance(v, str)).to_numpy()
                if is_text.any():
                    i = int(np.argmax(is_text))
                    raise MetricsError(f"{col} is text ({show(series.iloc[i])}), not a number",
                                       file, int(rows[i]))


def final_line(path: Path) -> int | None:
    """The 1-based number of the last line if it lacks its newline (a cut file), else None."""
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        if size == 0:
            return None
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return None
        handle.seek(0)
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b"")) + 1


def locate_non_utf8(path: Path) -> None:
    """Raise a located error if the file is not UTF-8 (a parser's UnicodeDecodeError names a
    byte offset, not a row)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    offset = 0
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                bad = chunk[exc.start]
                line += chunk[: exc.start].count(b"\n")
                raise MetricsError(f"not UTF-8 text: byte 0x{bad:02x} at byte "
                                   f"{offset + exc.start}", str(path), line) from None
            line += chunk.count(b"\n")
            offset += len(chunk)
