"""A run's experience numbers held as the two numbers that define them.

The stream reader (`sylla.metrics.readers.l2logger_stream`) reads only logs whose experience
numbers run on without gaps or repeats, so a run's per-episode numbers are ``first, first + 1,
...``: on a million-episode log, an 8 MB float64 array that says nothing the first number and
the count do not (issue 40: with the parts it was joined from, 8-16 MB of the reading's peak,
and 8 MB of the metrics' peak beside the run's values). A `Consecutive` gives the same values
as that array, of the same dtype, to every use the metrics make of ``RunData.exp``: a slice
(``a[i:j]``, a fresh ndarray), one number (``a[i]``), `sylla.metrics.spill.gather`, and
anything else numpy asks of it (``np.asarray(a)``, ``np.repeat(a, n)``, fancy indexing) through
the whole array, made when asked for, as `sylla.metrics.spill.SpillArray` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Consecutive:
    """``size`` numbers from ``first`` on, each one more than the last, as a read-only 1-D
    array of ``dtype`` (float64 as the readers keep experience numbers)."""

    ndim = 1

    def __init__(self, first: int, size: int, dtype: Any = np.float64) -> None:
        self.first, self.size, self.dtype = int(first), int(size), np.dtype(dtype)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def __len__(self) -> int:
        return self.size

    def _range(self, start: int, stop: int) -> np.ndarray:
        return np.arange(self.first + start, self.first + max(start, stop), dtype=self.dtype)

    def read_into(self, start: int, out: np.ndarray) -> None:
        """Fill ``out`` with the numbers from position ``start`` on (`spill.gather`)."""
        if start + out.size > self.size:
            raise IndexError(f"values {start}-{start + out.size} of {self.size}")
        out[:] = self._range(start, start + out.size)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            return self._range(start, stop) if step == 1 else self._range(0, self.size)[key]
        if isinstance(key, (int, np.integer)):
            i = int(key) + (self.size if key < 0 else 0)
            if not 0 <= i < self.size:
                raise IndexError(f"index {int(key)} out of range for size {self.size}")
            return self.dtype.type(self.first + i)
        return np.asarray(self)[key]

    def copy(self) -> "Consecutive":
        return Consecutive(self.first, self.size, self.dtype)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        whole = self._range(0, self.size)
        return whole if dtype is None else whole.astype(dtype, copy=False)

    def __repr__(self) -> str:
        return f"Consecutive(first={self.first}, size={self.size}, dtype={self.dtype})"
