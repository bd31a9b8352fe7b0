"""Text columns of appended rows (task, kind, phase, parameters, run, worker) as `Labels`: an
integer code per row and the few distinct values once.

Why: an update of 10,000 rows checked and binned through object arrays of str pays a hash of
every string per check (``!=``, ``str.lower``, `pandas.factorize`), and pandas 3 converts each
such array to Arrow strings when a DataFrame is built from it: ~20 ms of a 45 ms l2logger
update on the 1M-episode bench. The parsers already have the values dictionary-encoded
(pyarrow's ``dictionary`` columns), and a task or kind has one value per block, so the checks
compare small integer codes and the curve groups codes, not text. Not pandas' Categorical:
building its dtype costs ~0.6 ms under pandas 3 (an Arrow string index per call), more than
the comparisons it would save.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class Labels:
    """Row ``i`` holds ``values[codes[i]]``; ``values`` may hold texts no row uses."""

    codes: np.ndarray  # int64, each in range(len(values))
    values: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, row: int) -> str:
        return self.values[int(self.codes[row])]

    def tolist(self) -> list[str]:
        return [self.values[c] for c in self.codes.tolist()]


def constant(value: str, n: int) -> Labels:
    """``n`` rows that all hold ``value`` (a run's or worker's name)."""
    return Labels(np.zeros(n, dtype=np.int64), (value,))


def from_arrow(column: "pa.ChunkedArray") -> Labels:
    """A pyarrow text column (plain or dictionary-encoded, any number of chunks)."""

    if not pa.types.is_dictionary(column.type):
        column = column.dictionary_encode()
    if not column.num_chunks:
        return Labels(np.empty(0, dtype=np.int64), ())
    column = column.unify_dictionaries()
    codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in column.chunks])
    return Labels(codes.astype(np.int64, copy=False),
                  tuple(column.chunk(0).dictionary.to_pylist()))


def labels(values: Any) -> Labels:
    """``values`` (`Labels`, a Series, an array or a list) as the str each value gives
    (what ``astype(str)`` names it)."""
    if isinstance(values, Labels):
        return values
    if isinstance(values, list):
        values = np.asarray(values, dtype=object)
    codes, found = pd.factorize(values, use_na_sentinel=False)
    return Labels(np.asarray(codes, dtype=np.int64), tuple(str(v) for v in found))


def concat(parts: list[Labels]) -> Labels:
    """The rows of ``parts`` one after the other."""
    values: dict[str, int] = {}
    codes = []
    for part in parts:
        remap = np.array([values.setdefault(v, len(values)) for v in part.values], dtype=np.int64)
        codes.append(remap[part.codes] if len(remap) else part.codes)
    return Labels(np.concatenate(codes) if codes else np.empty(0, dtype=np.int64),
                  tuple(values))


def equals(values: Labels, wanted: str) -> bool:
    """Whether every row holds ``wanted``."""
    same = np.array([v == wanted for v in values.values], dtype=bool)
    return bool(same[values.codes].all()) if len(same) else True


def matches(values: Labels, per_block: list[str], ordinals: np.ndarray,
            lower: bool = False) -> bool:
    """Whether row ``i`` holds ``per_block[ordinals[i]]`` for every row (``lower``: compared
    lower-case): codes are compared, each distinct text once."""
    texts = [v.lower() if lower else v for v in values.values]
    index: dict[str, int] = {}
    canon = np.array([index.setdefault(t, len(index)) for t in texts], dtype=np.int64)
    codes = canon[values.codes] if len(canon) else values.codes
    # -1: a block's value no row holds
    want = np.array([index.get(v, -1) for v in per_block], dtype=np.int64)
    return bool(np.array_equal(codes, want[ordinals]))
