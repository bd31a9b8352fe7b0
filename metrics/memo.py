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

    def block_keys(self, view: Any) -> list[Hashable]:
        """A key per block of ``view`` (a run or its row-level view) that names the block's
        rows, for the keys of values computed from them. Here each block's row range: within
        one computation a range names the same rows (a keeping memo names them across
        computations, `BlockMemo.admit`)."""
        from .data import column  # noqa: PLC0415 - lazy: the registry imports this module at start-up

        b = view.blocks
        return [("range", a, z) for a, z in zip(column(b, "start").tolist(),
                                                column(b, "stop").tolist())]

    def data_key(self, data: Any) -> Hashable:
        """A key naming ``data``, an object no one writes to (an STE run's values), for the
        keys of values computed from it. Here its identity: within one computation ``data``
        lives, so no other object has it (a keeping memo names it across computations)."""
        return ("data", id(data))

    def carry(self, key: Hashable, step: Callable[[Any], T]) -> T:
        """``step(None)``; a keeping memo passes the value ``step`` returned under ``key``
        last time (or None) and keeps the new one in its place.

        Why beside `get`: a block still being written has another ``[start, stop)`` at each
        update, so `get` never finds it; a carried value (a smoothing and the rows it was
        computed from) lets the next update redo only what the appended rows change. ``step``
        must check that what it is handed still applies (compare the rows) and must return
        what ``step(None)`` would: the batch path only ever calls ``step(None)``."""
        return step(None)


class BlockMemo(Memo):
    """Keeps every value asked for during one computation, and drops at `sweep` the ones the
    last computation did not ask for (a growing block's values of the update before, a block
    whose task's normalisation bounds moved): memory stays one computation's worth.

    Keys name blocks, not row ranges: `admit` gives each block of the run (and of its
    row-level view) a key, `block_keys`, that stays the same from one computation to the next
    while that block's rows are unchanged, whatever happened to the other blocks' rows. So
    rows inserted into one block (several workers append inside the last blocks of align's
    order), a new block, or a block that shifted keep every other block's values."""

    keeps = True

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}
        self._used: set[Hashable] = set()
        #: per view ("episodes", "rows") of the run last admitted: its arrays and, per block
        #: ordinal, its [start, stop) and the generation its rows have
        self._views: dict[str, tuple[tuple[Any, ...], dict[Any, tuple[int, int, int]]]] = {}
        self._keys: dict[int, list[Hashable]] = {}  # id(view) -> its blocks' keys
        self._admitted: tuple[Any, ...] = ()  # the admitted views, so their ids stay theirs
        self._generation = 0
        #: id -> (the object, its key), for `data_key`; objects not named by the last
        #: computation are let go at `sweep`
        self._data: dict[int, tuple[Any, Hashable]] = {}
        self._data_used: set[int] = set()
        #: the run the next `admit` is told about (`vouch`) and the ordinals of its blocks
        #: whose rows changed
        self._vouched: tuple[Any, frozenset[Any], bool] | None = None
        self.hits = 0
        self.misses = 0
        self.changed = 0  # blocks `admit` found new or changed, over all computations

    def admit(self, run: Any) -> bool:
        """Name each block of ``run`` by its rows before computing on them (`block_keys`):
        a block whose rows (values and experience numbers, bit for bit) are those of the
        block with the same ordinal last time keeps its key, any other gets a new one.
        Returns whether the memo may be used for the run.

        Why check and not trust the caller: a follower that re-reads a whole log (an
        l2logger folder, a learnkit folder) may find a row written into an earlier block; a
        comparison costs a millisecond per million rows, a stale value costs a wrong number.
        Rows in the same memory as last time (a run grown in place) need no comparison. A
        run spilled to disk (`sylla.metrics.spill.SpillArray`) is not compared and the memo
        is not to be used for it (returns False): its smoothed blocks would hold in memory
        what it spilled."""
        import numpy as np  # noqa: PLC0415 - lazy: as in `get`

        vouched, self._vouched = self._vouched, None
        changed = vouched[1] if vouched is not None and vouched[0] is run else None
        in_place = vouched is not None and vouched[0] is run and vouched[2]
        from .numbering import Consecutive  # noqa: PLC0415 - lazy: as numpy

        views = [("episodes", run)] + ([("rows", run.rows)] if run.rows is not None else [])
        if not all(isinstance(a, (np.ndarray, Consecutive)) for _, v in views
                   for a in (v.perf, v.exp)):
            self._views, self._keys, self._admitted = {}, {}, ()
            self._clear()
            return False
        from .data import column  # noqa: PLC0415 - lazy: the registry imports this module at start-up

        keys: dict[int, list[Hashable]] = {}
        kept: dict[str, tuple[tuple[Any, ...], dict[Any, tuple[int, int, int]]]] = {}
        for name, view in views:
            arrays = (view.perf, np.asarray(view.exp))  # numbers counted on: made to compare
            old_arrays, old_blocks = self._views.get(name, ((), {}))
            blocks: dict[Any, tuple[int, int, int]] = {}
            own: list[Hashable] = []
            b = view.blocks
            for ordinal, a, z in zip(column(b, "block").tolist(), column(b, "start").tolist(),
                                     column(b, "stop").tolist()):
                was = old_blocks.get(ordinal)
                if was is not None and was[1] - was[0] == z - a and (
                        ordinal not in changed if changed is not None else
                        len(old_arrays) == 2 and all(_same(old[was[0]:was[1]], new[a:z])
                                                     for old, new in zip(old_arrays, arrays))):
                    generation = was[2]
                else:
                    self._generation += 1
                    self.changed += 1
                    generation = self._generation
                blocks[ordinal] = (int(a), int(z), generation)
                own.append((name, ordinal, generation))
            # arrays the next run may overwrite are never compared
            kept[name] = ((), blocks) if in_place else (arrays, blocks)
            keys[id(view)] = own
        self._views, self._keys, self._admitted = kept, keys, tuple(v for _, v in views)
        return True

    def vouch(self, run: Any, changed: "set[Any]", in_place: bool) -> None:
        """Tell the next `admit` of ``run`` (this very object) that its blocks are those of
        the run admitted last, with the same rows bit for bit, except the blocks whose
        ordinals are in ``changed`` (new ones or rows appended): it keeps the other blocks'
        keys without comparing their rows.

        Why: a follower that knows which rows it appended (the incremental path, which
        refuses anything but appended rows) lays the next run out over the arrays of the last
        one (`sylla.metrics.watch.shares.Layout`); comparing would cost a pass over the run
        and could not tell rows overwritten in place. ``in_place``: the next run may be
        written over ``run``'s arrays; its blocks are then not compared later either, and an
        `admit` without `vouch` after it takes every block as changed."""
        self._vouched = (run, frozenset(changed), in_place)

    def block_keys(self, view: Any) -> list[Hashable]:
        keys = self._keys.get(id(view))
        if keys is None or not any(v is view for v in self._admitted):
            return super().block_keys(view)
        return keys

    def data_key(self, data: Any) -> Hashable:
        """A key that names ``data`` while the memo holds it (so its id is no other
        object's): the same object gets the same key from one computation to the next."""
        entry = self._data.get(id(data))
        if entry is None or entry[0] is not data:
            self._generation += 1
            entry = (data, ("data", self._generation))
            self._data[id(data)] = entry
        self._data_used.add(id(data))
        return entry[1]

    def _clear(self) -> None:
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
            # an array that owns its memory and cannot be written: a view would keep (and see
            # later writes to) the array it was cut from, such as a run's preprocessed copy,
            # so it is copied; an array of its own (a fresh result) is frozen as it is
            if value.base is not None or not value.flags.owndata:
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
        self._data = {k: v for k, v in self._data.items() if k in self._data_used}
        self._data_used = set()

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


def _same(old: Any, new: Any) -> bool:
    """Whether ``old`` and ``new`` hold the same values bit for bit (``-0.0`` is no ``0.0``, a
    NaN is itself): what a value computed from those rows could tell apart."""
    import numpy as np  # noqa: PLC0415 - lazy: as in `BlockMemo.get`

    if old.dtype != new.dtype or old.shape != new.shape:
        return False
    if (old.base is not None and old.base is new.base
            and old.__array_interface__ == new.__array_interface__):
        return True  # the same memory (a run grown in place): nothing to compare
    if old.dtype.itemsize == 8 and old.flags.c_contiguous and new.flags.c_contiguous:
        return bool(np.array_equal(old.view(np.uint64), new.view(np.uint64)))
    return old.tobytes() == new.tobytes()
