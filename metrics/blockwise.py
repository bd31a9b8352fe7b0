"""A run's values block by block, as a computation transforms them, and which of the per-block
values it asks for are computed: the bookkeeping of ``sylla watch``'s incremental updates,
kept beside the math instead of inside it.

Why a layer of its own: the reference math (`sylla.metrics.preprocess.prepare_l2m`, the
regime values of `sylla.metrics.plugins.l2m`) reads as l2metrics' definition: smooth each
block, clamp, scale each task onto its range, then each block's saturation and terminal
performance. It says *what* is done to a block (`Blocks.map`, a step of the block's values;
`Blocks.value`, a number computed from them) and this layer decides what is computed anew.
Each block carries its lineage: the key its memo gives its rows (`Memo.block_keys`: the same
while the block's rows are unchanged) followed by every step its values went through. A value
whose lineage the memo holds is not computed again, so an update of a followed run computes
the blocks whose rows changed and the blocks of a task whose range moved.

The batch path (`RunMemo`, `NO_MEMO`: no arrays kept) writes the steps into one copy of the
run, block by block, as before; a keeping memo (`BlockMemo`) holds each block's values apart
and writes a block into the array the last computation returned only where its lineage
differs from what that array holds (`_Kept`): an update writes the blocks it changed, not the
whole run.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Hashable, TypeVar

import numpy as np

from .data import RunData, column
from .memo import NO_MEMO, Memo
from .spill import SpillArray, gather

T = TypeVar("T")

#: ``fn(x)`` given the last input of the same block and what ``fn`` returned for it (or None)
Extend = Callable[[np.ndarray, "tuple[np.ndarray, np.ndarray] | None"], np.ndarray]


class Blocks:
    """The values of ``run``'s blocks (``run``: a run or its row-level view) through the steps
    of one computation; ``scope`` starts every memo key (the computation and its options)."""

    def __init__(self, run: RunData, memo: Memo = NO_MEMO, scope: tuple[Hashable, ...] = ()) -> None:
        b = run.blocks
        self.run, self.memo, self.scope = run, memo, scope
        self.starts: list[int] = column(b, "start").tolist()
        self.stops: list[int] = column(b, "stop").tolist()
        self.ordinals: list[Any] = column(b, "block").tolist()
        #: per block, what its values went through so far, as a memo key
        self.lineage: list[tuple[Hashable, ...]] = [
            (*scope, key) for key in memo.block_keys(run)]
        self._rows_keys = list(self.lineage)  # each block's rows, before any step
        n = int(run.perf.shape[0])
        tiled = (bool(self.starts) and self.starts[0] == 0 and self.stops[-1] == n
                 and all(a == z for a, z in zip(self.starts[1:], self.stops[:-1])))
        #: a keeping memo: each block's values apart (`_kept`); else one copy of the run
        self.keeps = memo.keeps and isinstance(run.perf, np.ndarray) and tiled
        self._kept: list[np.ndarray] = []
        self._values: "np.ndarray | SpillArray | None" = None

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> np.ndarray:
        """Block ``i``'s values as they stand (after `first`)."""
        if self.keeps:
            return self._kept[i]
        assert self._values is not None  # `first` made the copy
        return self._values[self.starts[i]:self.stops[i]]

    def first(self, which: list[bool], step: tuple[Hashable, ...],
              fn: Callable[[np.ndarray], np.ndarray], extend: Extend | None = None) -> None:
        """The first step: ``fn`` of each block's rows where ``which`` says, the others as
        they are. ``extend`` (``fn`` given the block's last rows and their result) lets a
        keeping memo redo only what a growing block's new rows change."""
        if not self.keeps:
            self._values = _copy_mapped(self.run.perf, self.starts, self.stops, which, fn)
        for i, on in enumerate(which):
            x = self.run.perf[self.starts[i]:self.stops[i]]
            if self.keeps:
                self._kept.append(self._memoised(i, step, functools.partial(
                    self.grown, i, step, x, fn, extend)) if on else x)
            if on:
                self.lineage[i] = (*self.lineage[i], *step)

    def map(self, i: int, step: tuple[Hashable, ...],
            fn: Callable[[np.ndarray], np.ndarray]) -> None:
        """Block ``i``'s values become ``fn`` of them."""
        if self.keeps:
            x = self._kept[i]
            self._kept[i] = self._memoised(i, step, lambda: fn(x))
        else:
            assert self._values is not None  # `first` made the copy
            a, z = self.starts[i], self.stops[i]
            self._values[a:z] = fn(self._values[a:z])
        self.lineage[i] = (*self.lineage[i], *step)

    def value(self, i: int, what: tuple[Hashable, ...], fn: Callable[[], T]) -> T:
        """``fn()``, a value of block ``i``'s values as they stand (``what`` names it and
        every other input ``fn`` has): from the memo when it holds it."""
        return self.memo.get((*self.lineage[i], *what), fn)

    def rows_value(self, i: int, what: tuple[Hashable, ...], fn: Callable[[], T]) -> T:
        """``fn()``, a value of block ``i``'s rows as read (not of its values as they stand:
        the experience numbers' grouping), from the memo when it holds it: a block whose
        values are scaled anew keeps it."""
        return self.memo.get((*self._rows_keys[i], *what), fn)

    def rows_value_of(self, which: list[int], what: tuple[Hashable, ...],
                      fn: Callable[[], T]) -> T:
        """``fn()``, a value of the rows as read of the blocks ``which`` together, from the
        memo when it holds it (as `rows_value`)."""
        return self.memo.get((tuple(self._rows_keys[i] for i in which), *what), fn)

    def value_of(self, which: list[int], what: tuple[Hashable, ...], fn: Callable[[], T]) -> T:
        """``fn()``, a value of the blocks ``which`` together (a task's training), from the
        memo when it holds it for their values as they stand."""
        return self.memo.get((tuple(self.lineage[i] for i in which), *what), fn)

    def grown(self, i: int, step: tuple[Hashable, ...], x: np.ndarray,
              fn: Callable[[np.ndarray], np.ndarray], extend: Extend | None) -> np.ndarray:
        """``fn(x)`` for an ``x`` of block ``i`` that grows with it (its rows, their means):
        a keeping memo carries, under the block's ordinal, the last ``x`` and ``fn(x)``, and
        hands them to ``extend`` (which must check that they still apply, and return an
        array of its own)."""
        if not self.memo.keeps or extend is None:
            return fn(x)

        def step_(last: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
            y = extend(x, last)
            x_kept = np.array(x, dtype=np.float64, copy=True)
            x_kept.flags.writeable = False
            y.flags.writeable = False
            return x_kept, y

        return self.memo.carry((*self.scope, "grown", self.ordinals[i], *step), step_)[1]

    def gather(self, indices: list[int]) -> np.ndarray:
        """The values of the blocks ``indices``, one after the other."""
        if self.keeps:
            return np.concatenate([self._kept[i] for i in indices]) if indices else np.empty(0)
        assert self._values is not None
        return gather(self._values, [(self.starts[i], self.stops[i]) for i in indices])

    def result(self) -> "np.ndarray | SpillArray":
        """Every block's values, in the run's order (a keeping memo's array is read-only and
        valid until the next computation of the same scope)."""
        if not self.keeps:
            assert self._values is not None
            return self._values
        kept = self.memo.carry((*self.scope, "values"), lambda last: last or _Kept())
        return kept.write(int(self.run.perf.shape[0]), [
            (a, z, key, values) for a, z, key, values in zip(
                self.starts, self.stops, self.lineage, self._kept)])

    def _memoised(self, i: int, step: tuple[Hashable, ...],
                  fn: Callable[[], np.ndarray]) -> np.ndarray:
        return self.memo.get((*self.lineage[i], *step), fn)


class _Kept:
    """The values of a followed run, kept from one computation to the next in one array: a
    block is written only when its lineage differs from what the array holds there, so an
    update writes the block being written and the blocks a moved normalisation range
    rescaled, not the whole run (two copies of 8 MB per update on the bench's million
    episodes)."""

    def __init__(self) -> None:
        self.values = np.empty(0, dtype=np.float64)
        self.holds: dict[tuple[int, int], Hashable] = {}  # range -> lineage of the values there

    def write(self, n: int, blocks: list[tuple[int, int, Hashable, np.ndarray]]) -> np.ndarray:
        """The first ``n`` values, each block ``(a, z, lineage, values)`` written where the
        array holds other values. A view: valid until the next write."""
        if n > len(self.values):  # room for a quarter more: a followed run grows
            grown = np.empty(n * 5 // 4 + 1024, dtype=np.float64)
            grown[: len(self.values)] = self.values
            self.values = grown
        holds = {}
        for a, z, key, values in blocks:
            if self.holds.get((a, z)) != key:
                self.values[a:z] = values
            holds[a, z] = key
        self.holds = holds
        view = self.values[:n]
        view.flags.writeable = False  # the next computation's start: no plugin may change it
        return view


def _copy_mapped(perf: "np.ndarray | SpillArray", starts: list[int], stops: list[int],
                 which: list[bool],
                 fn: Callable[[np.ndarray], np.ndarray]) -> "np.ndarray | SpillArray":
    """A copy of a run's values with ``fn`` applied to the ``which`` blocks. Values in a spill
    file whose blocks tile it in order are read once and written once, block by block, into a
    new one: copying the file and then reading and writing each block again was two more
    passes over a 10M-episode run (issue 24). The values are the same either way."""
    n = int(perf.shape[0])
    tiled = (isinstance(perf, SpillArray) and bool(starts) and starts[0] == 0
             and stops[-1] == n and all(a == z for a, z in zip(starts[1:], stops[:-1])))
    if not isinstance(perf, SpillArray) or not tiled:
        out = perf.copy()
        for a, z, on in zip(starts, stops, which):
            if on:
                out[a:z] = fn(out[a:z])
        return out
    spilled = SpillArray(perf.dtype)
    for a, z, on in zip(starts, stops, which):
        x = perf[a:z]
        spilled.append(fn(x) if on else x)
    return spilled
