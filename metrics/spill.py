"""One-dimensional arrays kept in a temporary file and read one slice at a time.

A 10M-episode l2logger log holds about 20M logged rows; kept in memory as float64 values,
experience numbers and their smoothed and scaled copies they are most of a run's peak memory,
while every metric looks at one block (or one task's blocks) at a time. A `SpillArray` keeps
the values in an unlinked temporary file: ``a[i:j]`` reads that stretch into a fresh ndarray,
``a[i:j] = v`` writes it back, and ``a.copy()`` copies the file. The operating system's page
cache keeps a hot file in memory when it has memory to spare, and can drop it when it has not,
which process memory cannot.

Anything else numpy asks of it (``np.asarray(a)``, fancy indexing) materialises the whole array,
so code that is not slice-aware stays correct; it only loses the memory saving.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import EXIT_USAGE, MetricsError

if TYPE_CHECKING:
    from .numbering import Consecutive

_COPY_CHUNK = 1 << 24  # bytes per read when copying a spill file
_APPEND_CHUNK = 1 << 18  # values converted and written at a time


class SpillArray:
    """A 1-D array of one dtype in an unlinked temporary file (see the module docstring)."""

    ndim = 1

    def __init__(self, dtype: Any = np.float64) -> None:
        import tempfile  # noqa: PLC0415 - lazy: start-up, tempfile (and random, hashlib) load only for a log large enough to spill

        self.dtype = np.dtype(dtype)
        try:
            self._file = tempfile.TemporaryFile(prefix="sylla-spill-")
        except OSError as exc:
            raise _no_room(exc) from None
        self._fd = self._file.fileno()
        self.size = 0

    @classmethod
    def of(cls, values: np.ndarray) -> "SpillArray":
        out = cls(values.dtype)
        out.append(values)
        return out

    def append(self, values: np.ndarray) -> None:
        """Add ``values`` at the end, converted to this dtype a chunk at a time (so converting
        a block's integers to floats never holds a second copy of the block)."""
        for i in range(0, max(values.size, 1), _APPEND_CHUNK):
            data = np.ascontiguousarray(values[i : i + _APPEND_CHUNK], dtype=self.dtype)
            if data.size:
                _write(self._fd, data.data, self.size * self.dtype.itemsize)
                self.size += data.size

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def __len__(self) -> int:
        return self.size

    def _read(self, start: int, stop: int) -> np.ndarray:
        out = np.empty(max(0, stop - start), dtype=self.dtype)
        self.read_into(start, out)
        return out

    def read_into(self, start: int, out: np.ndarray) -> None:
        """Fill ``out`` (contiguous, this dtype) with the values from ``start`` on."""
        n = out.size
        if n == 0:
            return
        if start + n > self.size:
            raise IndexError(f"values {start}-{start + n} of {self.size}")
        item = self.dtype.itemsize
        view = out.data.cast("B")
        done = 0
        while done < n * item:  # pread may return fewer bytes than asked
            got = os.preadv(self._fd, [view[done:]], start * item + done)
            if got <= 0:
                raise OSError(f"short read from a spill file at byte {start * item + done}")
            done += got

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            if step == 1:
                return self._read(start, stop)
            return self._read(0, self.size)[key]
        if isinstance(key, (int, np.integer)):
            i = int(key) + (self.size if key < 0 else 0)
            if not 0 <= i < self.size:
                raise IndexError(f"index {int(key)} out of range for size {self.size}")
            return self._read(i, i + 1)[0]
        return np.asarray(self)[key]

    def __setitem__(self, key: Any, values: Any) -> None:
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            if step == 1:
                data = np.broadcast_to(np.asarray(values, dtype=self.dtype), (max(0, stop - start),))
                data = np.ascontiguousarray(data)
                _write(self._fd, data.data, start * self.dtype.itemsize)
                return
        whole = np.asarray(self).copy()
        whole[key] = values
        _write(self._fd, whole.data, 0)

    def copy(self) -> "SpillArray":
        out = SpillArray(self.dtype)
        total = self.size * self.dtype.itemsize
        offset = 0
        while offset < total:
            chunk = os.pread(self._fd, min(_COPY_CHUNK, total - offset), offset)
            if not chunk:
                raise OSError(f"short read from a spill file at byte {offset}")
            _write(out._fd, chunk, offset)
            offset += len(chunk)
        out.size = self.size
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        whole = self._read(0, self.size)
        return whole if dtype is None else whole.astype(dtype, copy=False)

    def __repr__(self) -> str:
        return f"SpillArray(size={self.size}, dtype={self.dtype})"


def _write(fd: int, data: Any, offset: int) -> None:
    """Write all of ``data`` at ``offset``; a full disk is the user's to fix, not a traceback."""
    view = memoryview(data).cast("B")
    done = 0
    try:
        while done < len(view):
            done += os.pwrite(fd, view[done:], offset + done)
    except OSError as exc:
        raise _no_room(exc) from None


def _no_room(exc: OSError) -> Exception:
    import tempfile  # noqa: PLC0415 - lazy: see SpillArray.__init__

    return MetricsError(f"cannot write temporary data: {exc.strerror or exc} (a long log is "
                        "reduced through temporary files; point TMPDIR at a folder with room)",
                        tempfile.gettempdir(), exit_code=EXIT_USAGE)


def gather(values: "np.ndarray | SpillArray | Consecutive", ranges: list[tuple[int, int]]) -> np.ndarray:
    """A new array of ``values`` at the concatenated ``[a, b)`` ranges, in order (what indexing
    with the concatenated ``np.arange(a, b)`` gives), read straight into place."""
    spans = [(int(a), int(b)) for a, b in ranges]
    out = np.empty(sum(b - a for a, b in spans), dtype=getattr(values, "dtype", np.float64))
    k = 0
    for a, b in spans:
        if isinstance(values, SpillArray):
            values.read_into(a, out[k : k + b - a])
        else:
            out[k : k + b - a] = values[a:b]
        k += b - a
    return out
