"""A numeric array that grows at its end in amortised O(appended) time.

Why: an incremental update appends 1 % to a run of a million episodes; ``np.concatenate``
copies the whole run each time (two 8 MB copies per update, a tenth of its budget). This keeps
a quarter more capacity than it holds (memory stays within 1.25 times the run's) and hands
out a view of the filled part. Views handed out earlier stay valid
and unchanged: appending writes only beyond them, and a reallocation leaves them on the old
buffer.
"""

from __future__ import annotations

import numpy as np


class Growing:
    """``values`` is a view of the filled part; `extend` appends and returns the new view."""

    def __init__(self, initial: np.ndarray, dtype: type = np.float64) -> None:
        self._size = len(initial)
        # room for the first appends already (the copy is made anyway)
        self._buffer: np.ndarray = np.empty(self._size * 5 // 4 + 1024, dtype=dtype)
        self._buffer[: self._size] = initial

    @property
    def values(self) -> np.ndarray:
        return self._buffer[: self._size]

    def extend(self, more: np.ndarray) -> np.ndarray:
        need = self._size + len(more)
        if need > len(self._buffer):
            grown = np.empty(max(need, len(self._buffer) * 5 // 4, 1024),
                             dtype=self._buffer.dtype)
            grown[: self._size] = self._buffer[: self._size]
            self._buffer = grown
        self._buffer[self._size: need] = more
        self._size = need
        return self.values
