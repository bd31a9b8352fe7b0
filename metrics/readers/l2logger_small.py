"""Block files of a small l2logger log read with the standard library.

A 10-episode log is read in a millisecond, while importing pyarrow takes a tenth of a second or
more: most of ``sylla metrics``' time on it (issue 24). This reader parses the tab-separated
text itself, for files that hold nothing its plain split could read differently from pyarrow's
CSV parser: no quotes, carriage returns, byte-order mark or blank lines, every row as wide as
the header, integers as digits and performance values in plain decimal or exponent notation
(both parsers round those to the nearest double, so the values are bit for bit the same).
Any other file raises `Unusual`, and the caller parses it with pyarrow as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

#: total bytes of block files up to which a log is parsed here (about 10,000 rows: a few
#: tens of milliseconds of Python, against the pyarrow import it saves)
SMALL = 1 << 20

_INT = re.compile(r"[0-9]{1,18}\Z")
_FLOAT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


class Unusual(Exception):
    """The file holds something only pyarrow's parser reads as pyarrow does."""


def read_columns(file: Path, wanted: list[str]) -> dict[str, list[str]]:
    """The ``wanted`` columns of a data file as lists of their texts (see the module
    docstring for what raises `Unusual`)."""
    data = file.read_bytes()
    if b'"' in data or b"\r" in data or data.startswith(b"\xef\xbb\xbf"):
        raise Unusual("quotes, carriage returns or a byte-order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unusual("not UTF-8") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    header = lines[0].split("\t")
    if len(set(header)) != len(header):
        raise Unusual("a column name twice")
    where = [header.index(c) for c in wanted]
    width = len(header)
    out: list[list[str]] = [[] for _ in wanted]
    for line in lines[1:]:
        fields = line.split("\t")
        if len(fields) != width:
            raise Unusual("a row of another width (or a blank line)")
        for values, k in zip(out, where):
            values.append(fields[k])
    if not out[0]:
        raise Unusual("no rows")
    return dict(zip(wanted, out))


def integers(texts: list[str]) -> np.ndarray:
    """Digits as int64 (anything else is `Unusual`)."""
    if not all(map(_INT.match, texts)):
        raise Unusual("an integer that is not plain digits")
    return np.array([int(t) for t in texts], dtype=np.int64)


def floats(texts: list[str]) -> np.ndarray:
    """Plain decimal numbers as float64 (anything else, NaN and empty cells too, is
    `Unusual`)."""
    if not all(map(_FLOAT.match, texts)):
        raise Unusual("a value that is not a plain number")
    return np.array([float(t) for t in texts], dtype=np.float64)
