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

The batch path uses `NO_MEMO`, which keeps nothing: ``sylla metrics`` computes and frees as
before, and both paths run the same code, so the incremental numbers are the batch numbers.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")


class Memo:
    """Keeps nothing: every `get` computes (the batch path)."""

    keeps = False

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``; a keeping memo returns the value stored under ``key`` instead."""
        return compute()


class RangeMemo(Memo):
    """Keeps every value asked for during one computation, and drops at `sweep` the ones the
    last computation did not ask for (a growing block's range of the update before, a block
    whose task's normalisation bounds moved): memory stays one computation's worth.

    Only for the rows of one run that grows by appended rows: a key's ``[start, stop)`` must
    mean the same rows from one computation to the next. The caller starts a new memo when
    the log is rewritten."""

    keeps = True

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}
        self._used: set[Hashable] = set()
        self.hits = 0
        self.misses = 0

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

    def sweep(self) -> None:
        """Forget what the last computation did not use; start counting uses anew."""
        self._values = {k: v for k, v in self._values.items() if k in self._used}
        self._used = set()

    def __len__(self) -> int:
        return len(self._values)


NO_MEMO = Memo()
