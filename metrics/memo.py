"""Values a metric computes from a range of a run's rows, kept from one computation to the next
while the run only grows (``sylla watch``'s incremental updates).

Why: a followed run is recomputed after every few appended rows, but a finished block's rows
never change, so its smoothing and its per-block reductions come out the same every time.
A plugin asks for such a value through `Memo.get` with a key that names *every* input of the
computation: the rows' ``[start, stop)`` range (whose content the caller vouches is fixed) and
each other number the result depends on (window, smoothing shape, the clamp and scale bounds of
its task). A key that leaves out an input would hand back a stale value; the watch equality
tests (tests/metrics/watch/test_equality.py) compare every update with a fresh ``sylla
metrics`` to catch exactly that.

The batch path uses `RunMemo`, which keeps only the small values (numbers, tuples of numbers)
asked for during one run's computation: several metrics ask for the same block's saturation,
and it is computed once. It keeps no arrays, so ``sylla metrics`` computes and frees as before,
and both paths run the same code, so the incremental numbers are the batch numbers.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")


class Memo:
    """Keeps nothing: every `get` computes (the batch path)."""

    keeps = False

    def admit(self, run: Any) -> bool:
        """Whether this memo may be used for ``run`` (always: it keeps nothing)."""
        return True

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``; a keeping memo returns the value stored under ``key`` instead."""
        return compute()

    def carry(self, key: Hashable, step: Callable[[Any], T]) -> T:
        """``step(None)``; a keeping memo passes the value ``step`` returned under ``key``
        last time (or None) and keeps the new one in its place.

        Why beside `get`: a block still being written has another ``[start, stop)`` at each
        update, so `get` never finds it; a carried value (a smoothing and the rows it was
        computed from) lets the next update redo only what the appended rows change. ``step``
        must check that what it is handed still applies (compare the rows) and must return
        what ``step(None)`` would: the batch path only ever calls ``step(None)``."""
        return step(None)


class RangeMemo(Memo):
    """Keeps every value asked for during one computation, and drops at `sweep` the ones the
    last computation did not ask for (a growing block's range of the update before, a block
    whose task's normalisation bounds moved): memory stays one computation's worth.

    Only for the rows of one run that grows by appended rows: a key's ``[start, stop)`` must
    mean the same rows from one computation to the next, which `admit` checks before each
    computation (`compute_metrics` calls it)."""

    keeps = True

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}
        self._used: set[Hashable] = set()
        self._rows: tuple[Any, ...] | None = None  # the arrays of the run last admitted
        self.hits = 0
        self.misses = 0
        self.cleared = 0  # how often `admit` found the rows changed

    def admit(self, run: Any) -> bool:
        """Check a run's rows before computing on them: the memo is kept only when the rows
        the last run had are, unchanged, the first rows of this one (a run that only grew),
        else it is cleared. Returns whether values were kept.

        Why check and not trust the caller: a follower that re-reads a whole log (an
        l2logger folder, a learnkit folder) gets appended rows, but a row written into an
        earlier block file lands in the middle; comparing the arrays costs a millisecond per
        million rows, a stale value costs a wrong number. A run spilled to disk
        (`sylla.metrics.spill.SpillArray`) is not compared and the memo is not to be used
        for it (returns False): its smoothed blocks would hold in memory what it spilled."""
        import numpy as np  # noqa: PLC0415 - lazy: as in `get`

        rows = (run.perf, run.exp, *((run.rows.perf, run.rows.exp) if run.rows is not None
                                     else ()))
        previous, self._rows = self._rows, None
        if not all(isinstance(a, np.ndarray) for a in rows):
            self._clear()
            return False
        self._rows = rows
        if previous is None or len(previous) != len(rows) or not all(
                _prefix(old, new) for old, new in zip(previous, rows)):
            self._clear()
        return True

    def _clear(self) -> None:
        if self._values:
            self.cleared += 1
        self._values = {}
        self._used = set()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        self._used.add(key)
        if key in self._values:
            self.hits += 1
            return self._values[key]
        self.misses += 1
        value = compute()
        import numpy as np  # noqa: PLC0415 - lazy: the registry imports this module at start-up, numpy loads only when a memo keeps values

        kept: Any = value
        if isinstance(value, np.ndarray):
            # a copy that owns its memory and cannot be written: a view would keep (and see
            # later writes to) the array it was cut from, such as a run's preprocessed copy
            kept = np.array(value, copy=True)
            kept.flags.writeable = False
        self._values[key] = kept
        return kept  # the value compute() gave, or its frozen ndarray copy

    def carry(self, key: Hashable, step: Callable[[Any], T]) -> T:
        self._used.add(key)
        value = step(self._values.get(key))
        self._values[key] = value
        return value

    def sweep(self) -> None:
        """Forget what the last computation did not use; start counting uses anew."""
        self._values = {k: v for k, v in self._values.items() if k in self._used}
        self._used = set()

    def __len__(self) -> int:
        return len(self._values)


NO_MEMO = Memo()


class RunMemo(Memo):
    """Keeps the values that are not arrays, for one run's computation in the batch path (see
    the module docstring): on a 10M-episode log the reference plugins asked for 9 block and
    task saturations twice, 0.1 s of moving averages. An array is computed anew at each ask
    (`keeps` is False, so nothing carries a growing block's smoothing either): keeping them
    would hold in memory what a spilled run keeps on disk."""

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        if key in self._values:
            return self._values[key]
        value = compute()
        if _small(value):
            self._values[key] = value
        return value


def _small(value: Any) -> bool:
    """A number, None, a string, or a tuple of them (what is cheap to keep and cannot be
    changed in place by whoever receives it)."""
    if isinstance(value, tuple):
        return all(_small(v) for v in value)
    return value is None or isinstance(value, (int, float, str, complex)) or (
        type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0)


def _prefix(old: Any, new: Any) -> bool:
    """Whether ``old`` is bit for bit the start of ``new`` (``-0.0`` is no ``0.0``, a NaN is
    itself): what a value computed from those rows could tell apart."""
    import numpy as np  # noqa: PLC0415 - lazy: as in `RangeMemo.get`

    if old.dtype != new.dtype or old.ndim != 1 or new.ndim != 1 or len(old) > len(new):
        return False
    head = new[: len(old)]
    if (old.base is not None and old.base is head.base
            and old.__array_interface__ == head.__array_interface__):
        return True  # the same memory (a run grown in place): nothing to compare
    if old.dtype.itemsize == 8 and old.flags.c_contiguous and head.flags.c_contiguous:
        return bool(np.array_equal(old.view(np.uint64), head.view(np.uint64)))
    return old.tobytes() == head.tobytes()
