"""Smoothing, clamping and normalisation.

Two families live here. ``window_of``/``rolling`` serve the reference metrics (a moving average
over ``round(s * n)`` episodes, indexed by the window's first episode, as the seed text's code). ``l2m_smooth``, ``clamp`` and ``normalise``
reproduce l2metrics 3.1.0's preprocessing exactly, so the l2metrics-named metrics agree with it to
rounding: a flat window of ``min(int(0.2 * n), 100)`` episodes per block (none below 3), applied to
a signal padded with reflected copies of itself at both ends; optional clamping to the 10%/90%
quantiles of a task's data; per-task (or per-run) scaling onto ``[1, 101]``.
Every function costs O(n) per block (the flat window is at most 100 wide).
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

import numpy as np

from .convolve import convolve_valid
from .data import RunData, column
from .memo import NO_MEMO, Memo
from .spill import SpillArray, gather


def window_of(n: int, s: float) -> int:
    """The reference smoothing window: ``int(round(s * n))`` episodes, at least 1.

    The seed text's own code (l2metrics commit 00df7cd, ``_localutil.get_block_saturation_
    performance``) takes ``int(round(smoothing_param * len(data)))`` and skips smoothing when
    that is 0; Python's ``round`` rounds halves to even (``round(2.5) == 2``), kept here.
    """
    return max(1, int(round(s * n)))


def rolling(x: np.ndarray, w: int) -> np.ndarray:
    """Moving average over full windows: element ``i`` is the mean of ``x[i : i + w]`` (the
    window that *starts* at episode ``i``, as ``np.convolve(..., "valid")`` indexes it).

    The result has ``len(x) - w + 1`` values.
    """
    if w <= 1:
        return x.astype(np.float64, copy=True)
    if len(x) < w:
        return np.empty(0)
    c = np.empty(x.size + 1)  # the running sums from 0.0, as np.cumsum(np.r_[0.0, x]) but
    c[0] = 0.0  # without np.r_'s second copy of the block
    c[1:] = x
    np.cumsum(c, out=c)
    return (c[w:] - c[:-w]) / w


def l2m_window(n: int, window_length: int | None = None) -> int:
    """l2metrics' window: the requested length if the data is long enough, else
    ``min(int(0.2 * n), 100)``."""
    if window_length is None or n < window_length:
        return min(int(n * 0.2), 100)
    return int(window_length)


WINDOWS = ("flat", "hanning", "hamming", "bartlett", "blackman")


def window_weights(shape: str, w: int) -> np.ndarray:
    """The smoothing window, normalised to sum 1: flat (a moving average) or one of numpy's
    tapered windows (the SciPy cookbook ``smooth`` recipe l2metrics follows)."""
    if shape == "flat":
        weights = np.ones(w)
    elif shape in WINDOWS:
        weights = getattr(np, shape)(w)
    else:
        raise ValueError(f"unknown window {shape!r}")
    return weights / weights.sum()


def l2m_smooth(x: np.ndarray, window_length: int | None = None,
               window: str = "flat") -> np.ndarray:
    """Windowed moving average with reflected ends, same length as ``x`` (no-op below a window
    of 3)."""
    w = l2m_window(x.size, window_length)
    if w < 3:
        return x
    padded = np.r_[x[w - 1 : 0 : -1], x, x[-2 : -w - 1 : -1]]
    y = convolve_valid(window_weights(window, w), padded)
    return y[int(math.floor(w / 2 - 1)) : -int(math.ceil(w / 2))]


def l2m_smooth_kept(x: np.ndarray, window_length: int | None, window: str, memo: Memo,
                    key: Hashable) -> np.ndarray:
    """`l2m_smooth` of a block that grows at its end (the block a watched run is writing),
    bit for bit, recomputing only the outputs the appended values change.

    ``memo.carry`` under ``key`` keeps the last input and its smoothing. Output ``i`` is
    ``np.convolve`` over the padded values ``i + off .. i + off + w - 1``; the padding's head
    reflects ``x[1:w]``, its tail the last ``w - 1`` values. So while ``x[:w]`` and the window
    stay the same, an output whose padded window ends before the first value that differs from
    the last input (or before the last input's tail padding) is the same number, and the
    others are ``np.convolve`` with the same weights over the padded values from there on: each
    output of a ``valid`` convolution is one dot product of the weights with its own window
    (tests/metrics/test_preprocess_kept.py checks the bits at every offset). The comparison is
    one pass over the block; the convolution, ``w`` multiply-adds per output, is redone over
    the appended rows and ``w`` before them."""

    def step(last: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
        y = _smooth_from(x, window_length, window, last)
        x_kept = np.array(x, dtype=np.float64, copy=True)
        x_kept.flags.writeable = False
        y.flags.writeable = False
        return x_kept, y

    if not memo.keeps:
        return l2m_smooth(x, window_length, window)
    return memo.carry(key, step)[1]


def _smooth_from(x: np.ndarray, window_length: int | None, window: str,
                 last: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """`l2m_smooth` of ``x``, reusing the outputs of ``last`` (an input and its smoothing)
    that ``x`` leaves unchanged."""
    w = l2m_window(x.size, window_length)
    if last is None or w < 3 or x.dtype != np.float64:
        return np.array(l2m_smooth(x, window_length, window), dtype=np.float64, copy=True)
    x_old, y_old = last
    n_old = x_old.size
    if x.size < n_old or l2m_window(n_old, window_length) != w or n_old < w:
        return np.array(l2m_smooth(x, window_length, window), dtype=np.float64, copy=True)
    differ = np.flatnonzero(x_old.view(np.uint64) != x[:n_old].view(np.uint64))
    k = int(differ[0]) if differ.size else n_old  # values before k are as last time
    if k < w:  # the head padding changed
        return np.array(l2m_smooth(x, window_length, window), dtype=np.float64, copy=True)
    off = int(math.floor(w / 2 - 1))
    keep = min(k - off, n_old)  # outputs i < keep: their windows end before value k
    padded = np.r_[x[w - 1: 0: -1], x, x[-2: -w - 1: -1]]
    m = keep + off  # the first convolution output to redo
    tail = convolve_valid(window_weights(window, w), padded[m:])
    out = np.empty(x.size, dtype=np.float64)
    out[:keep] = y_old[:keep]
    out[keep:] = tail[: x.size - keep]
    return out


def l2m_saturation(x: np.ndarray, window_length: int | None = None,
                   smooth: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple[float, float]:
    """l2metrics' block saturation: max of the smoothed block and the first index reaching it.
    ``smooth``: `l2m_smooth` of the block with the window l2metrics takes for it (default),
    or the same numbers from `l2m_smooth_kept`."""
    y = smooth(x) if smooth is not None else l2m_smooth(x, window_length)
    y = y[~np.isnan(y)]
    if not y.size:
        return math.nan, math.nan
    top = float(np.max(y))
    return top, float(np.flatnonzero(y == top)[0])


def l2m_terminal(x: np.ndarray, kind: str, ratio: float = 0.1) -> float:
    """l2metrics' terminal performance: mean of the last 10% of a train block, all of a test."""
    x = x[~np.isnan(x)]
    if not x.size:
        return math.nan
    if kind == "test":
        ratio = 1
    return float(np.mean(x[int((1 - ratio) * x.size) :]))


@dataclass
class Prepared:
    """A run and its STE data after l2metrics preprocessing."""

    run: RunData
    ste: dict[str, list[RunData]]
    ranges: dict[str, tuple[float, float]]
    #: per block of ``run``, what its rows went through, as a memo key (`prepare_l2m`)
    keys: list[tuple[Hashable, ...]] = field(default_factory=list)


def prepare_l2m(run: RunData, ste: dict[str, list[RunData]], *, smoothing: str = "flat",
                window_length: int | None = None, smooth_eval: bool = False,
                clamp: bool = False, normalization: str = "task",
                data_range: dict[str, tuple[float, float]] | None = None,
                memo: Memo = NO_MEMO, scope: tuple[Hashable, ...] = ()) -> Prepared:
    """Apply l2metrics' preprocessing in its order: smooth, clamp, normalise.

    ``smoothing`` is ``none`` or a window shape (`WINDOWS`); ``data_range`` (task -> (min, max),
    l2metrics' ``--data-range`` file) replaces the ranges taken from the data for clamping and
    normalisation. ``memo`` keeps each block's smoothing and value range under keys that start
    with ``scope`` (`sylla.metrics.memo`); `Prepared.keys` names what was done to each block,
    for the per-block values computed from the result."""
    blocks = run.blocks
    starts, stops = column(blocks, "start"), column(blocks, "stop")
    kinds = column(blocks, "kind")
    tasks_of_block = column(blocks, "task")
    smoothed = [smoothing != "none" and (k == "train" or smooth_eval) for k in kinds]
    # what each block's rows went through, as a memo key: its range and its smoothing so far
    done: dict[tuple[int, int], tuple[Hashable, ...]] = {
        (int(a), int(b)): (*scope, int(a), int(b)) for a, b in zip(starts, stops)}
    for a, b, smooth in zip(starts, stops, smoothed):
        if smooth:
            done[int(a), int(b)] = (*done[int(a), int(b)], "smooth", smoothing, window_length)

    def smooth_block(a: int, b: int, x: np.ndarray) -> np.ndarray:
        """One block's smoothing, from the memo when it holds it (a finished block's rows, and
        so their smoothing, never change while a watched run grows)."""
        return memo.get(done[a, b], lambda: l2m_smooth_kept(
            x, window_length, smoothing, memo, (*scope, a, "smooth", smoothing, window_length)))

    n = int(run.perf.shape[0])
    # a watched run (a keeping memo) has its result written into the array the last
    # computation wrote, only where a block's values changed (`_Kept`); the batch path and
    # clamping (which rewrites every row of a task) copy the run
    kept = (memo.keeps and not clamp and isinstance(run.perf, np.ndarray) and len(starts) > 0
            and int(starts[0]) == 0 and int(stops[-1]) == n
            and bool(np.all(starts[1:] == stops[:-1])))
    perf: Any
    if kept and isinstance(run.perf, np.ndarray):
        perf = _Stage(run.perf, starts, stops, smoothed, smooth_block)
    else:
        perf = _smoothed_copy(run.perf, starts, stops, smoothed, smooth_block)
    final: dict[tuple[int, int], np.ndarray] = {}  # a kept block's values, by its range
    ste_perf = {t: [s.perf.copy() for s in runs] for t, runs in ste.items()}
    if smoothing != "none":
        for task, runs in ste.items():
            for i, s in enumerate(runs):
                for a, b in zip(column(s.blocks, "start"), column(s.blocks, "stop")):
                    ste_perf[task][i][a:b] = l2m_smooth(ste_perf[task][i][a:b], window_length,
                                                        smoothing)
    task_ranges = _task_ranges(starts, stops, tasks_of_block)
    if clamp:
        for task, where in task_ranges.items():
            x = gather(perf, where)
            ste_train = _ste_train(ste, ste_perf, task)
            combined = np.append(x, ste_train) if ste_train.size else x
            lo, hi = data_range[task] if data_range else np.quantile(combined, (0.1, 0.9))
            del combined, ste_train
            _put(perf, where, x.clip(lo, hi))
            for a, b in where:
                done[a, b] = (*done[a, b], "clamp", float(lo), float(hi))
            for i, s in enumerate(ste.get(task, [])):
                for a, b in _block_ranges(s, task):
                    ste_perf[task][i][a:b] = ste_perf[task][i][a:b].clip(lo, hi)
    ranges: dict[str, tuple[float, float]] = {}
    if normalization != "none":
        for task, where in task_ranges.items():
            if data_range:
                ranges[task] = data_range[task]
                continue
            lo, hi = _nan_extent(perf, where, memo, done)
            ste_train = _ste_train(ste, ste_perf, task)
            if ste_train.size:
                lo, hi = min(lo, float(np.nanmin(ste_train))), max(hi, float(np.nanmax(ste_train)))
            ranges[task] = (lo, hi)
        every = list(data_range.values()) if data_range else list(ranges.values())
        run_lo = min(r[0] for r in every)
        run_hi = max(r[1] for r in every)
        for task, where in task_ranges.items():
            lo, hi = ranges[task] if normalization == "task" else (run_lo, run_hi)
            for a, b in where:
                key = (*done[a, b], "scale", float(lo), float(hi))
                scaled = memo.get(key, functools.partial(_scale_range, perf, a, b, lo, hi))
                if kept:
                    final[a, b] = scaled
                else:
                    perf[a:b] = scaled
                done[a, b] = key
        for task, runs in ste.items():
            for i, s in enumerate(runs):
                for t in set(column(s.blocks, "task")):
                    if normalization == "task" and t not in ranges and not (
                            data_range and t in data_range):
                        continue  # STE blocks of tasks this run never saw cannot be scaled
                    if normalization == "task":
                        lo, hi = ranges[t] if t in ranges else (data_range or {})[t]
                    else:
                        lo, hi = run_lo, run_hi
                    for a, b in _block_ranges(s, t):
                        ste_perf[task][i][a:b] = _scale(ste_perf[task][i][a:b], lo, hi)
    keys = [done[int(a), int(b)] for a, b in zip(starts, stops)]
    if kept:
        out = memo.carry((*scope, "prepared", smoothing, window_length, smooth_eval,
                          normalization, bool(data_range)), lambda last: last or _Kept())
        perf = out.write(n, [(int(a), int(b), k, final.get((int(a), int(b))))
                             for a, b, k in zip(starts, stops, keys)], perf)
    new_run = RunData(run=run.run, perf=perf, exp=run.exp, blocks=blocks, partial=run.partial)
    new_ste = {t: [RunData(s.run, ste_perf[t][i], s.exp, s.blocks) for i, s in enumerate(runs)]
               for t, runs in ste.items()}
    return Prepared(run=new_run, ste=new_ste, ranges=ranges, keys=keys)


class _Stage:
    """A run's values after smoothing, block by block, without the copy of the run
    `_smoothed_copy` makes: ``stage[a:b]`` is block ``[a, b)``'s smoothing (from the memo)
    or its rows. Read by `_nan_extent` and `_scale_range` for the blocks the memo lacks."""

    def __init__(self, perf: np.ndarray, starts: np.ndarray, stops: np.ndarray,
                 smoothed: list[bool], smooth: Callable[[int, int, np.ndarray], np.ndarray]) -> None:
        self.blocks: dict[tuple[int, int], np.ndarray] = {}
        for a, b, on in zip(starts.tolist(), stops.tolist(), smoothed):
            self.blocks[a, b] = smooth(a, b, perf[a:b]) if on else perf[a:b]

    def __getitem__(self, where: slice) -> np.ndarray:
        return self.blocks[where.start, where.stop]


class _Kept:
    """The preprocessed values of a watched run, kept from one computation to the next in
    one array: a block is written only when what its rows went through (its memo key)
    differs from what the array holds there, so an update writes the block being written
    and the blocks a moved normalisation range rescaled, not the whole run (two copies of
    8 MB per update on the bench's million episodes)."""

    def __init__(self) -> None:
        self.values = np.empty(0, dtype=np.float64)
        self.holds: dict[tuple[int, int], Hashable] = {}  # range -> key of the values there

    def write(self, n: int, blocks: list[tuple[int, int, Hashable, "np.ndarray | None"]],
              stage: _Stage) -> np.ndarray:
        """The first ``n`` values, each block ``(a, b, key, values)`` (None: its stage
        values) written where the array holds other values. A view: valid until the next
        computation writes the array again."""
        if n > len(self.values):  # room for a quarter more: a watched run grows
            grown = np.empty(n * 5 // 4 + 1024, dtype=np.float64)
            grown[: len(self.values)] = self.values
            self.values = grown
        holds = {}
        for a, b, key, values in blocks:
            if self.holds.get((a, b)) != key:
                self.values[a:b] = stage[a:b] if values is None else values
            holds[a, b] = key
        self.holds = holds
        view = self.values[:n]
        view.flags.writeable = False  # the next computation's start: no plugin may change it
        return view


def _scale_range(values: "np.ndarray | SpillArray", a: int, b: int, lo: float,
                 hi: float) -> np.ndarray:
    return _scale(values[a:b], lo, hi)


def _smoothed_copy(perf: "np.ndarray | SpillArray", starts: np.ndarray, stops: np.ndarray,
                   smoothed: list[bool],
                   smooth: Callable[[int, int, np.ndarray], np.ndarray]) -> "np.ndarray | SpillArray":
    """A copy of a run's values with the ``smoothed`` blocks smoothed (``smooth(a, b, values)``,
    `l2m_smooth` through the memo). Values in a spill file whose blocks tile it in order are
    read once and written once, block by block, into a new one: copying the file and then
    reading and writing each block again was two more passes over a 10M-episode run (issue
    24). The values are the same either way."""
    n = int(perf.shape[0])
    tiled = (isinstance(perf, SpillArray) and len(starts) > 0 and int(starts[0]) == 0
             and int(stops[-1]) == n and bool(np.all(starts[1:] == stops[:-1])))
    if not isinstance(perf, SpillArray) or not tiled:
        out = perf.copy()
        for a, b, on in zip(starts, stops, smoothed):
            if on:
                out[a:b] = smooth(int(a), int(b), out[a:b])
        return out
    spilled = SpillArray(perf.dtype)
    for a, b, on in zip(starts, stops, smoothed):
        x = perf[a:b]
        spilled.append(smooth(int(a), int(b), x) if on else x)
    return spilled


def _scale(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    if lo == hi:
        return x * 0 + 1
    return (x - lo) / (hi - lo) * 100 + 1


def _task_ranges(starts: np.ndarray, stops: np.ndarray,
                 tasks: np.ndarray) -> dict[str, list[tuple[int, int]]]:
    """Each task's blocks as ``[start, stop)`` ranges, in block order."""
    out: dict[str, list[tuple[int, int]]] = {}
    for a, b, t in zip(starts, stops, tasks):
        out.setdefault(str(t), []).append((int(a), int(b)))
    return out


def _block_ranges(s: RunData, task: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b, t in zip(column(s.blocks, "start"), column(s.blocks, "stop"), column(s.blocks, "task"))
            if t == task]


def _put(values: "np.ndarray | SpillArray", ranges: list[tuple[int, int]],
         new: np.ndarray) -> None:
    """Write ``new`` back over the concatenated ranges (the inverse of `gather`)."""
    k = 0
    for a, b in ranges:
        values[a:b] = new[k : k + b - a]
        k += b - a


def _nan_extent(values: "np.ndarray | SpillArray", ranges: list[tuple[int, int]],
                memo: Memo = NO_MEMO,
                done: dict[tuple[int, int], tuple[Hashable, ...]] | None = None,
                ) -> tuple[float, float]:
    """``(nanmin, nanmax)`` over the ranges, one range in memory at a time: the extremes of
    the ranges' extremes are the extremes of their union, exactly. A range's pair comes from
    ``memo`` under its key in ``done`` (what its rows went through) when that holds it."""
    lows, highs = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN block; judged below
        for a, b in ranges:
            if done is not None and b > a:
                low, high = memo.get((*done[a, b], "extent"), functools.partial(_extent, values, a, b))
            else:
                low, high = _extent(values, a, b)
            lows.append(low)
            highs.append(high)
    return float(np.nanmin(lows)), float(np.nanmax(highs))


def _extent(values: "np.ndarray | SpillArray", a: int, b: int) -> tuple[Any, Any]:
    x = values[a:b]
    return np.nanmin(x), np.nanmax(x)


def _ste_train(ste: dict[str, list[RunData]], ste_perf: dict[str, list[np.ndarray | SpillArray]],
               task: str) -> np.ndarray:
    """All train-block values of a task's STE runs (as currently preprocessed)."""
    parts = []
    for i, s in enumerate(ste.get(task, [])):
        for a, b, k in zip(column(s.blocks, "start"), column(s.blocks, "stop"), column(s.blocks, "kind")):
            if k == "train":
                parts.append(ste_perf[task][i][a:b])
    return np.concatenate(parts) if parts else np.empty(0)
