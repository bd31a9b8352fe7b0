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
from typing import Any, Callable, Hashable, TypeVar

import numpy as np

from .blockwise import Blocks
from .convolve import convolve_valid
from .data import RunData, column
from .memo import NO_MEMO, Memo
from .spill import SpillArray

T = TypeVar("T")


def window_of(n: int, s: float) -> int:
    """The reference smoothing window: ``int(round(s * n))`` episodes, at least 1.

    The seed text's own code (l2metrics commit 00df7cd, ``_localutil.get_block_saturation_
    performance``) takes ``int(round(smoothing_param * len(data)))`` and skips smoothing when
    that is 0; Python's ``round`` rounds halves to even (``round(2.5) == 2``), kept here.
    """
    return max(1, int(round(s * n)))


#: values `rolling` differences at a time (1 MiB of float64)
ROLLING_PIECE = 1 << 17


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
    # ``(c[w:] - c[:-w]) / w``, a piece at a time, into the sums' own first values: a piece's
    # differences read sums at or after its start only, and the pieces go forwards (issue 40:
    # the differences and their quotient were two more arrays of a task's length at a
    # 10M-episode run's peak). The same subtraction and division of every value.
    m = x.size - w + 1
    tmp = np.empty(min(ROLLING_PIECE, m))
    for i in range(0, m, ROLLING_PIECE):
        k = min(ROLLING_PIECE, m - i)
        np.subtract(c[w + i: w + i + k], c[i: i + k], out=tmp[:k])
        np.true_divide(tmp[:k], w, out=c[i: i + k])
    return c[:m]


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
    weights = window_weights(window, w)
    n = x.size
    off = int(math.floor(w / 2 - 1))
    if n < w + 2:
        padded = np.r_[x[w - 1 : 0 : -1], x, x[-2 : -w - 1 : -1]]
        return convolve_valid(weights, padded)[off : -int(math.ceil(w / 2))]
    # Output i is the convolution of the padded signal (``x`` between its reflections) at
    # i + off. Those whose window lies within ``x`` are convolved over ``x`` itself, into the
    # result; the ``w - 1 - off`` first and ``off`` last, over the reflected ends and ``w + 1``
    # values of ``x``: the same dot products (`convolve_valid`), without a padded copy of the
    # block beside the result.
    out = np.empty(n, dtype=np.result_type(weights, x))
    convolve_valid(weights, x, out=out[w - 1 - off : n - off])
    head, tail = reflected_ends(x, weights)
    out[: head.size] = head
    out[n - tail.size :] = tail
    return out


def reflected_ends(x: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`l2m_smooth`'s outputs whose windows reach into the reflected ends of ``x`` (at least
    ``w + 2`` values): its ``w - 1 - off`` first and ``off`` last, each convolved over its
    reflection and ``w + 1`` values of ``x``: the same dot products as over the padded block."""
    w = weights.size
    off = int(math.floor(w / 2 - 1))
    head = np.convolve(weights, np.r_[x[w - 1 : 0 : -1], x[: w + 1]], mode="valid")[off : w - 1]
    if not off:
        return head, head[:0]
    tail = np.convolve(weights, np.r_[x[-w - 1 :], x[-2 : -w - 1 : -1]], mode="valid")
    return head, tail[2 : 2 + off]


def l2m_smooth_from(x: np.ndarray, last: tuple[np.ndarray, np.ndarray] | None,
                    window_length: int | None = None, window: str = "flat") -> np.ndarray:
    """`l2m_smooth` of ``x`` (a new array), reusing the outputs of ``last`` (an earlier input
    and its smoothing, or None) that ``x`` leaves unchanged: the smoothing of a block that
    grows at its end (the block a followed run is writing), bit for bit, recomputed only where
    the appended values reach.

    Output ``i`` is ``np.convolve`` over the padded values ``i + off .. i + off + w - 1``;
    the padding's head reflects ``x[1:w]``, its tail the last ``w - 1`` values. So while
    ``x[:w]`` and the window stay the same, an output whose padded window ends before the
    first value that differs from the last input (or before the last input's tail padding)
    is the same number, and the others are ``np.convolve`` with the same weights over the
    padded values from there on: each output of a ``valid`` convolution is one dot product of
    the weights with its own window (tests/metrics/test_preprocess_kept.py checks the bits at
    every offset). The comparison is one pass over the block; the convolution, ``w``
    multiply-adds per output, is redone over the appended rows and ``w`` before them."""
    w = l2m_window(x.size, window_length)
    if last is None or w < 3 or x.dtype != np.float64:
        return np.array(l2m_smooth(x, window_length, window), dtype=np.float64, copy=True)
    x_old, y_old = last
    n_old = x_old.size
    if x.size < n_old or l2m_window(n_old, window_length) != w or n_old < w:
        return np.array(l2m_smooth(x, window_length, window), dtype=np.float64, copy=True)
    if not np.array_equal(x_old[:w].view(np.uint64), x[:w].view(np.uint64)):
        # the head padding changed (a block scaled anew): no need to find where
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
    or the same numbers by another route (`l2m_smooth_from`)."""
    y = smooth(x) if smooth is not None else l2m_smooth(x, window_length)
    if not y.size:
        return math.nan, math.nan
    top = np.max(y)
    if not np.isnan(top):  # no NaN: the first value equal to the max is argmax's
        return float(top), float(np.argmax(y))
    y = y[~np.isnan(y)]
    if not y.size:
        return math.nan, math.nan
    top = float(np.max(y))
    return top, float(np.flatnonzero(y == top)[0])


def l2m_terminal(x: np.ndarray, kind: str, ratio: float = 0.1) -> float:
    """l2metrics' terminal performance: mean of the last 10% of a train block, all of a test."""
    missing = np.isnan(x)
    if missing.any() or not x.flags.c_contiguous:
        # a contiguous x without NaN is summed as its copy would be: the same values, laid
        # out alike (a strided one numpy sums through buffers, another order)
        x = x[~missing]
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
    #: ``run``'s blocks, for the values computed from each (`Blocks.value`)
    blocks: Blocks
    #: per task, a memo key per STE run of ``ste`` naming its values as preprocessed: the run
    #: as read (`Memo.data_key`) and every step its values went through (smoothing, clamp and
    #: scale bounds), so a value computed from them is kept while they are (`ste_value`);
    #: None where the memo keeps nothing
    ste_keys: dict[str, list[tuple[Hashable, ...] | None]] = field(default_factory=dict)

    def ste_value(self, task: str, k: int, what: tuple[Hashable, ...], fn: Callable[[], T]) -> T:
        """``fn()``, a value of STE run ``k`` of ``task`` as preprocessed (``what`` names it
        and every other input ``fn`` has), from the memo when it holds it. Why: the STE runs
        do not change while a followed log grows, and their values move only with their
        task's range, so an update need not gather, average and smooth them again."""
        keys = self.ste_keys.get(task)
        key = keys[k] if keys is not None and k < len(keys) else None
        if key is None:
            return fn()
        return self.blocks.memo.get((*key, *what), fn)


def prepare_l2m(run: RunData, ste: dict[str, list[RunData]], *, smoothing: str = "flat",
                window_length: int | None = None, smooth_eval: bool = False,
                clamp: bool = False, normalization: str = "task",
                data_range: dict[str, tuple[float, float]] | None = None,
                memo: Memo = NO_MEMO, scope: tuple[Hashable, ...] = ()) -> Prepared:
    """Apply l2metrics' preprocessing in its order: smooth, clamp, normalise.

    ``smoothing`` is ``none`` or a window shape (`WINDOWS`); ``data_range`` (task -> (min, max),
    l2metrics' ``--data-range`` file) replaces the ranges taken from the data for clamping and
    normalisation. ``memo`` and ``scope`` (the start of its keys) go to the block layer
    (`sylla.metrics.blockwise`), which decides what of each block is computed anew: the
    numbers are the same with any memo."""
    blocks = Blocks(run, memo, scope)
    smoothed = [smoothing != "none" and (k == "train" or smooth_eval)
                for k in column(run.blocks, "kind")]
    blocks.first(smoothed, ("smooth", smoothing, window_length),
                 functools.partial(l2m_smooth, window_length=window_length, window=smoothing),
                 functools.partial(l2m_smooth_from, window_length=window_length,
                                   window=smoothing))
    ste_perf = _smoothed_ste(ste, smoothing, window_length, memo)
    ste_keys: dict[str, list[tuple[Hashable, ...] | None]] = {
        t: [_ste_key(s, smoothing, window_length, memo) for s in runs] for t, runs in ste.items()}
    of_task = _task_blocks(column(run.blocks, "task"))
    if clamp:
        for task, which in of_task.items():
            if data_range:
                lo, hi = data_range[task]
            else:
                x = blocks.gather(which)
                ste_train = _ste_train(ste, ste_perf, task)
                lo, hi = np.quantile(np.append(x, ste_train) if ste_train.size else x, (0.1, 0.9))
                del x, ste_train
            for i in which:
                blocks.map(i, ("clamp", float(lo), float(hi)), functools.partial(_clip, lo=lo, hi=hi))
            for k, s in enumerate(ste.get(task, [])):
                for a, b in _block_ranges(s, task):
                    ste_perf[task][k][a:b] = ste_perf[task][k][a:b].clip(lo, hi)
                ste_keys[task][k] = _then(ste_keys[task][k], ("clamp", task, float(lo), float(hi)))
    ranges: dict[str, tuple[float, float]] = {}
    if normalization != "none":
        for task, which in of_task.items():
            if data_range:
                ranges[task] = data_range[task]
                continue
            lo, hi = _nan_extent(blocks, which)
            ste_train = _ste_train(ste, ste_perf, task)
            if ste_train.size:
                lo, hi = min(lo, float(np.nanmin(ste_train))), max(hi, float(np.nanmax(ste_train)))
            ranges[task] = (lo, hi)
        every = list(data_range.values()) if data_range else list(ranges.values())
        run_lo = min(r[0] for r in every)
        run_hi = max(r[1] for r in every)
        for task, which in of_task.items():
            lo, hi = ranges[task] if normalization == "task" else (run_lo, run_hi)
            for i in which:
                blocks.map(i, ("scale", float(lo), float(hi)), functools.partial(_scale, lo=lo, hi=hi))
        _scale_ste(ste, ste_perf, ranges, data_range, normalization, (run_lo, run_hi), ste_keys)
    new_run = RunData(run=run.run, perf=blocks.result(), exp=run.exp, blocks=run.blocks,
                      partial=run.partial)
    new_ste = {t: [RunData(s.run, ste_perf[t][i], s.exp, s.blocks) for i, s in enumerate(runs)]
               for t, runs in ste.items()}
    return Prepared(run=new_run, ste=new_ste, ranges=ranges, blocks=blocks, ste_keys=ste_keys)


def _ste_key(s: RunData, smoothing: str, window_length: int | None,
             memo: Memo) -> tuple[Hashable, ...] | None:
    """The start of an STE run's lineage (`Prepared.ste_keys`): the run as read (its values
    and experience numbers, the objects the memo names, and its blocks: each computation
    gets the blocks anew, with the log's spelling of their tasks) and its smoothing."""
    if not memo.keeps or not isinstance(s.perf, np.ndarray):
        return None
    b = s.blocks
    blocks = tuple(zip(column(b, "start").tolist(), column(b, "stop").tolist(),
                       column(b, "kind").astype(str).tolist(),
                       column(b, "task").astype(str).tolist()))
    return (memo.data_key(s.perf), memo.data_key(s.exp), blocks, "ste", smoothing, window_length)


def _then(key: tuple[Hashable, ...] | None,
          step: tuple[Hashable, ...]) -> tuple[Hashable, ...] | None:
    """``key`` followed by ``step`` (None stays None)."""
    return None if key is None else (*key, *step)


def _smoothed_ste(ste: dict[str, list[RunData]], smoothing: str, window_length: int | None,
                  memo: Memo = NO_MEMO) -> "dict[str, list[np.ndarray | SpillArray]]":
    """A copy of each STE run's values, each block smoothed as the run's. A keeping memo
    (a followed run's) keeps each STE run's smoothing: the runs do not change while the log
    grows (`Memo.data_key` names them), and the copy is what clamping and scaling write to."""
    return {t: [_smoothed_run(s, smoothing, window_length, memo) for s in runs]
            for t, runs in ste.items()}


def _smoothed_run(s: RunData, smoothing: str, window_length: int | None,
                  memo: Memo) -> "np.ndarray | SpillArray":
    def smoothed() -> "np.ndarray | SpillArray":
        perf = s.perf.copy()
        if smoothing != "none":
            for a, b in zip(column(s.blocks, "start"), column(s.blocks, "stop")):
                perf[a:b] = l2m_smooth(perf[a:b], window_length, smoothing)
        return perf

    if not memo.keeps or not isinstance(s.perf, np.ndarray):
        return smoothed()
    ranges = tuple(zip(column(s.blocks, "start").tolist(), column(s.blocks, "stop").tolist()))
    key = (memo.data_key(s.perf), ranges, "ste smoothed", smoothing, window_length)
    return np.array(memo.get(key, smoothed), copy=True)


def _scale_ste(ste: dict[str, list[RunData]], ste_perf: "dict[str, list[np.ndarray | SpillArray]]",
               ranges: dict[str, tuple[float, float]],
               data_range: dict[str, tuple[float, float]] | None, normalization: str,
               run_range: tuple[float, float],
               keys: "dict[str, list[tuple[Hashable, ...] | None]] | None" = None) -> None:
    """Scale each STE run's blocks with the range of their task (or the run's); ``keys``
    (`Prepared.ste_keys`) get each scaling as a step."""
    for task, runs in ste.items():
        for i, s in enumerate(runs):
            for t in sorted(set(column(s.blocks, "task")), key=str):
                if normalization == "task" and t not in ranges and not (
                        data_range and t in data_range):
                    continue  # STE blocks of tasks this run never saw cannot be scaled
                if normalization == "task":
                    lo, hi = ranges[t] if t in ranges else (data_range or {})[t]
                else:
                    lo, hi = run_range
                for a, b in _block_ranges(s, t):
                    ste_perf[task][i][a:b] = _scale(ste_perf[task][i][a:b], lo, hi)
                if keys is not None:
                    keys[task][i] = _then(keys[task][i], ("scale", str(t), float(lo), float(hi)))


def _clip(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return x.clip(lo, hi)


def _scale(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """``(x - lo) / (hi - lo) * 100 + 1``, each step written into the first one's result: the
    same operations on the same values, without three more arrays of the block's length (a
    followed run whose task range moved scales all the task's blocks at each such update)."""
    if lo == hi:
        return x * 0 + 1
    out = np.subtract(x, lo)
    out /= hi - lo
    out *= 100
    out += 1
    return out


def _task_blocks(tasks: np.ndarray) -> dict[str, list[int]]:
    """Each task's blocks (their positions), in block order."""
    out: dict[str, list[int]] = {}
    for i, t in enumerate(tasks):
        out.setdefault(str(t), []).append(i)
    return out


def _block_ranges(s: RunData, task: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b, t in zip(column(s.blocks, "start"), column(s.blocks, "stop"), column(s.blocks, "task"))
            if t == task]


def _nan_extent(blocks: Blocks, which: list[int]) -> tuple[float, float]:
    """``(nanmin, nanmax)`` over the blocks ``which``, one block at a time: the extremes of the
    blocks' extremes are the extremes of their union, exactly."""
    lows, highs = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN block; judged below
        for i in which:
            extent = functools.partial(_extent, blocks, i)
            low, high = blocks.value(i, ("extent",), extent) if len(blocks[i]) else extent()
            lows.append(low)
            highs.append(high)
    return float(np.nanmin(lows)), float(np.nanmax(highs))


def _extent(blocks: Blocks, i: int) -> tuple[Any, Any]:
    x = blocks[i]
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
