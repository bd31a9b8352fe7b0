"""Global codes for a string column read in pieces (files, batches, small files' texts).

Why one: each l2logger data file (each Arrow batch, each small file parsed without pyarrow)
numbers its own distinct values; the log's columns need one numbering across all of them,
in the order the values first appear, with task names compared case-insensitively as
l2logger compares them (`TaskNames`). The whole-log reader, the streaming reader and its
small-file path all map "each piece's distinct values, and an index per row" through this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from .common import TaskNames

if TYPE_CHECKING:
    import pyarrow as pa


class Codes:
    """The log-wide code of each value of one string column (task names case-insensitive
    with ``fold``). ``on_new``: called with each value that gets a new code, and self, to
    refuse a value the caller cannot place (it raises)."""

    def __init__(self, fold: bool = False,
                 on_new: "Callable[[str, Codes], None] | None" = None) -> None:
        self.index: dict[str, int] = {}
        self.tasks = TaskNames() if fold else None
        self.on_new = on_new

    def code(self, value: str) -> int:
        if self.tasks is not None:
            known = len(self.tasks.names)
            code = self.tasks.code(value)
        else:
            known = len(self.index)
            code = self.index.setdefault(value, known)
        if code == known and self.on_new is not None:
            self.on_new(value, self)
        return code

    def local(self, distinct: Iterable[str], dtype: type = np.int32) -> np.ndarray:
        """The codes of a piece's distinct values, in their order."""
        return np.array([self.code(v) for v in distinct], dtype=dtype)

    def of_dictionary(self, column: "pa.ChunkedArray | pa.DictionaryArray") -> np.ndarray:
        """Each row's code of a dictionary-encoded Arrow column (int16 while the codes fit)."""
        import pyarrow as pa  # noqa: PLC0415 - lazy: start-up, pyarrow loads only when used

        chunk = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        local = np.array([self.code(v) for v in chunk.dictionary.to_pylist()])
        local = local.astype(np.int16 if len(self.names) < 32_000 else np.int32)
        return local[chunk.indices.to_numpy(zero_copy_only=False)]

    def of_runs(self, starts: np.ndarray, values: list[str], n: int) -> np.ndarray:
        """Each of ``n`` rows' code, the rows being runs of equal values that start at
        ``starts`` with ``values``."""
        return np.repeat(self.local(values), np.diff(np.r_[starts, n]))

    def of_texts(self, texts: list[str]) -> np.ndarray:
        """Each text's code, `code` called once per distinct text in order of first appearance
        (the order of an Arrow dictionary, so the codes come out as the other pieces')."""
        first: dict[str, int] = {}
        index = [first.setdefault(t, len(first)) for t in texts]
        return self.local(first)[np.array(index, dtype=np.int32)]

    @property
    def names(self) -> list[str]:
        """The values, by code (a task's first spelling)."""
        return list(self.tasks.names) if self.tasks is not None else list(self.index)

    def warnings(self) -> list[str]:
        return self.tasks.warnings() if self.tasks is not None else []
