"""l2metrics 3.1.0's metrics, with its names, options and preprocessing.

The numbers follow JHU/APL l2metrics 3.1.0 (``l2metrics/*.py``) so that both tools agree within
rounding on the same log; the code is sylla's own and linear in the log (l2metrics numbers its
regimes and selects each block with a full-table mask, which is quadratic). Regime-level values
(saturation, terminal performance, recovery time) are computed once per run and option set and
shared by every plugin through the context cache.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from ..data import Columns, RunData, column
from ..errors import EXIT_USAGE, MetricsError
from ..needs import Need
from ..peak import l2m_peak
from ..preprocess import WINDOWS, Prepared, l2m_saturation, l2m_smooth, l2m_smooth_from, l2m_terminal, prepare_l2m
from ..registry import Context, Parameter, ParameterError, Row, positive_int, row
from ..spill import SpillArray, gather
from .common import AGGREGATION, aggregate

if TYPE_CHECKING:
    import pandas as pd

    from ..blockwise import Blocks

SMOOTHING = Parameter("smoothing", "flat", "l2metrics smoothing window shape (l2metrics -g): "
                      "flat moving average, a tapered numpy window, or none",
                      choices=(*WINDOWS, "none"), l2metrics="-g/--smoothing-method")
SMOOTH_EVAL = Parameter("smooth_eval", False, "smooth evaluation (test) blocks too (l2metrics -G)",
                        type=lambda v: _flag("smooth_eval", v), l2metrics="-G/--smooth-eval-data")
DATA_RANGE = Parameter("data_range", None, "JSON file of fixed ranges {task: {min, max}} for "
                       "clamping and normalisation (l2metrics -d)", type=str,
                       l2metrics="-d/--data-range-file")
VARIANT_MODE = Parameter("variant_mode", "aware", "agnostic: a task's variants (<task>_<variant>) "
                         "count as the task, for the log and the STE runs (l2metrics -r)",
                         choices=("aware", "agnostic"), l2metrics="-r/--variant-mode")
WINDOW = Parameter("window_length", None, "l2metrics smoothing window (default min(20% of "
                   "the block, 100))", type=positive_int, l2metrics="-w/--window-length")
def _flag(name: str, value: str) -> bool:
    text = str(value).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ParameterError("must be true or false")


CLAMP = Parameter("clamp_outliers", False, "clamp each task to its 10%/90% quantiles",
                  type=lambda v: _flag("clamp_outliers", v), l2metrics="-x/--clamp-outliers")
NORMALIZATION = Parameter("normalization", "task", "scale each task (or the run) onto [1, 101]",
                          choices=("task", "run", "none"), l2metrics="-n/--normalization-method")
STE_AVERAGING = Parameter("ste_averaging", "metrics", "average STE runs' metrics or their curves",
                          choices=("metrics", "time"), l2metrics="-v/--ste-averaging-method")
COMPAT = Parameter("l2metrics_compat", False, "match STE runs and data-range keys to a "
                   "variant-agnostic task by name prefix, as l2metrics 3.1.0 does (its "
                   "'<task>*' glob also gives task 'ab' the runs of 'abc_y'); default: exact "
                   "base names (sylla metrics --l2metrics-compat)",
                   type=lambda v: _flag("l2metrics_compat", v),
                   l2metrics="none: l2metrics always globs")
PREPROCESSING = (SMOOTHING, WINDOW, SMOOTH_EVAL, CLAMP, NORMALIZATION, DATA_RANGE, VARIANT_MODE,
                 COMPAT)


@dataclass
class Regimes:
    """Per-block l2metrics values of one run after preprocessing."""

    prepared: Prepared
    saturation: np.ndarray
    exp_to_sat: np.ndarray
    term_perf: np.ndarray
    exp_to_term: np.ndarray
    filtered: np.ndarray  # blocks l2metrics keeps for avg/maintenance/transfer (sleep rule)
    means: "BlockMeans"  # each block's experience means, computed once for every plugin


class BlockMeans:
    """Each block's `exp_means` of a prepared run, computed once per run and kept for every
    plugin that asks (the regime values, recovery, sample efficiency ask for the same train
    blocks): on a 10M-episode log of three rows per experience each computation read the
    block's rows back from their spill file and averaged them, a second of the metrics' time
    three times over (issue 24). For a run of one row per experience nothing is kept: the
    means are the rows."""

    def __init__(self, run: RunData, scope: tuple[str, ...], blocks: "Blocks | None" = None
                 ) -> None:
        self.run = run
        self.keep = scope[-1] == "rows"
        self.kept: dict[tuple[int, int], np.ndarray] = {}
        #: a block's position by its range, when a keeping memo holds each block's groups
        self._blocks = blocks if blocks is not None and blocks.memo.keeps else None
        self._at = ({(a, z): i for i, (a, z) in enumerate(zip(self._blocks.starts,
                                                               self._blocks.stops))}
                    if self._blocks is not None else {})

    def of(self, a: int, z: int, rows: np.ndarray | None = None) -> np.ndarray:
        """The experience means of rows ``[a, z)`` (a block's range; ``rows``: its values, when
        the caller has read them already); a kept array is shared: callers must not write to
        it."""
        got = self.kept.get((a, z))
        if got is None:
            exp = self.run.exp[a:z]
            i = self._at.get((a, z))
            groups = self.groups(i) if i is not None else None
            got = exp_means(self.run.perf[a:z] if rows is None else rows, exp, groups)
            if self.keep:
                got.flags.writeable = False
                self.kept[a, z] = got
        return got

    def groups(self, i: int) -> "Groups | None":
        """Block ``i``'s `exp_groups`, from a keeping memo (None without one: `exp_means`
        groups the rows itself). They depend on the block's experience numbers alone, so they
        are kept while its rows are, and asked for at every computation (`regimes`), not only
        when its values are scaled anew: a memo drops what a computation did not ask for, and
        a task's moved range then grouped each of its finished blocks' rows again (issue 40:
        a fifth of such an update of a log of several rows per experience)."""
        if self._blocks is None:
            return None
        a, z = self._blocks.starts[i], self._blocks.stops[i]
        return self._blocks.rows_value(i, ("exp groups",),
                                       functools.partial(exp_groups, self.run.exp[a:z]))


def regimes(ctx: Context) -> Regimes:
    """Preprocess once per run and option set, then the per-block values."""
    p = ctx.params
    p = {**{q.name: q.default for q in PREPROCESSING}, **p}
    key = ("l2m", p["smoothing"], p["window_length"], p["clamp_outliers"], p["normalization"],
           p["smooth_eval"], p["data_range"])
    if key in ctx.cache:
        return ctx.cache[key]
    ste = {t: [s.logged for s in runs] for t, runs in ctx.ste.items()}
    ranges = load_data_range(p["data_range"], ctx.run.tasks,
                             agnostic=p["variant_mode"] == "agnostic",
                             compat=p["l2metrics_compat"]) if p["data_range"] else None
    prepared = prepare_l2m(ctx.run.logged, ste, smoothing=p["smoothing"],
                           window_length=p["window_length"], clamp=p["clamp_outliers"],
                           normalization=p["normalization"], smooth_eval=p["smooth_eval"],
                           data_range=ranges, memo=ctx.memo, scope=(*_scope(ctx), *key))
    run, blocks = prepared.run, prepared.blocks
    b = run.blocks
    n = len(b)
    means = BlockMeans(run, _scope(ctx), blocks)
    sat, e2s, term, e2t, low, high = (np.full(n, np.nan) for _ in range(6))
    for i, (a, z, kind, partial) in enumerate(zip(column(b, "start"), column(b, "stop"),
                                                  column(b, "kind"), column(b, "partial"))):
        # the saturation smooths the experience means of a block still being written, which
        # grow with it (`Blocks.grown` carries the smoothing); a finished block never grows,
        # and its saturation is taken without smoothing every mean (`l2m_peak`)
        smooth = functools.partial(blocks.grown, i, ("saturation",), fn=l2m_smooth,
                                   extend=functools.partial(l2m_smooth_from, window_length=None,
                                                            window="flat")) if partial else None
        low[i], high[i], sat[i], e2s[i], term[i], e2t[i] = blocks.value(
            i, ("regime", str(kind)), functools.partial(_regime, means, int(a), int(z), kind,
                                                        smooth))
        means.groups(i)  # kept for the next computation that scales the block anew
    subtype = _text(b, "subtype")
    if (subtype == "sleep").any():
        filtered = ~((column(b, "kind") == "test") & (subtype == "wake"))
    else:
        filtered = np.ones(n, dtype=bool)
    result = Regimes(prepared, sat, e2s, term, e2t, filtered, means)
    ctx.cache[key] = result
    _record_summary(ctx, prepared, ranges, p["normalization"], low, high)
    return result


def _scope(ctx: Context) -> tuple[str, ...]:
    """The memo keys' prefix for the rows regimes are computed on (the run's own rows when the
    log had several per episode, else its episodes)."""
    return ("l2m", "rows" if ctx.run.rows is not None else "episodes")


def _regime(means: BlockMeans, a: int, z: int, kind: str,
            smooth: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple[float, ...]:
    """One block's range and l2metrics regime values: (min, max, saturation, experiences to
    saturation, terminal performance, experiences to terminal performance), from the rows of
    ``means``' run. ``smooth``: `l2m_smooth` of the experience means by another route
    (`Blocks.grown`), or None for `l2m_peak` (the same saturation)."""
    rows = means.run.perf[a:z]
    low = high = math.nan
    if z > a:  # the block's range for the summary: one reduction of a slice already read
        low, high = np.min(rows), np.max(rows)
    x = means.of(a, z, rows)
    sat, e2s = l2m_peak(x) if smooth is None else l2m_saturation(x, smooth=smooth)
    term = l2m_terminal(x, kind)
    e2t = int((1 - (0.1 if kind != "test" else 1) / 2) * x.size)
    return low, high, sat, e2s, term, e2t


def _record_summary(ctx: Context, prepared: Prepared,
                    ranges: dict[str, tuple[float, float]] | None, normalization: str,
                    low: np.ndarray, high: np.ndarray) -> None:
    """What l2metrics reports beside its metrics (``--format l2metrics``): the range of the
    preprocessed data per task and over the run (from each block's ``low``/``high``, so no
    task's rows are gathered again), the train and test row counts, and the ranges the data
    were normalised with (none when not normalised; the whole ``-d`` file, every key, when one
    was given). Run-level values go under the task ``""``."""
    b = prepared.run.blocks
    kinds, tasks = column(b, "kind"), _text(b, "task")
    counts = column(b, "stop") - column(b, "start")
    filled = counts > 0
    for task in dict.fromkeys(tasks):
        own = tasks == task
        seen = own & filled
        ctx.detail(task, "min", float(np.min(low[seen])) if seen.any() else math.nan)
        ctx.detail(task, "max", float(np.max(high[seen])) if seen.any() else math.nan)
        ctx.detail(task, "num_lx", int(counts[own & (kinds == "train")].sum()))
        ctx.detail(task, "num_ex", int(counts[own & (kinds == "test")].sum()))
    ctx.detail("", "min", float(np.min(low[filled])) if filled.any() else math.nan)
    ctx.detail("", "max", float(np.max(high[filled])) if filled.any() else math.nan)
    if normalization == "none":
        used = None
    elif ranges is not None:
        used = {k: {"min": lo, "max": hi} for k, (lo, hi) in ranges.items() if k == k.lower()}
    else:
        used = {t: {"min": float(lo), "max": float(hi)} for t, (lo, hi) in prepared.ranges.items()}
    ctx.detail("", "normalization_data_range", used)


def load_data_range(path: str, tasks: list[str], *, agnostic: bool = False,
                    compat: bool = False) -> dict[str, tuple[float, float]]:
    """l2metrics' data-range file: ``{"task": {"min": a, "max": b}, ...}`` covering every task
    of the run, with finite ``min < max``... or ``min == max`` (a constant task becomes 1).

    Keys match task names case-insensitively (l2metrics lower-cases both). In variant-agnostic
    mode a base task takes the widest range of its variants' keys (``alpha`` from ``alpha_v0``
    and ``alpha_v1``), as l2metrics merges them; l2metrics picks those keys by substring
    (``"ab" in "abc_y"``), which ``compat`` reproduces, while sylla's default takes the keys
    whose base name is the task's."""
    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except FileNotFoundError:
        raise MetricsError("no such data-range file", path, exit_code=EXIT_USAGE) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MetricsError(f"cannot read the data-range file: {exc}", path,
                           exit_code=EXIT_USAGE) from None
    if not isinstance(raw, dict):
        raise MetricsError("a data-range file maps task names to {\"min\": ..., \"max\": ...}",
                           path, exit_code=EXIT_USAGE)
    out: dict[str, tuple[float, float]] = {}
    for task, entry in raw.items():
        ok = (isinstance(entry, dict) and all(
            isinstance(entry.get(k), (int, float)) and not isinstance(entry.get(k), bool)
            and math.isfinite(entry[k]) for k in ("min", "max")) and entry["min"] <= entry["max"])
        if not ok:
            raise MetricsError(f"task {task!r}: the range must be {{\"min\": a, \"max\": b}} "
                               "with finite numbers a <= b", path, exit_code=EXIT_USAGE)
        out[str(task).lower()] = (float(entry["min"]), float(entry["max"]))
    if agnostic:
        merged: dict[str, tuple[float, float]] = {}
        for base in {k.split("_")[0] for k in out}:
            keys = [k for k in out if (base in k if compat else k.split("_")[0] == base)]
            merged[base] = (min(out[k][0] for k in keys), max(out[k][1] for k in keys))
        out = merged
    # every key stays: l2metrics' run normalisation spans all the file's ranges
    out.update({t: out[t.lower()] for t in tasks if t.lower() in out})
    missing = [t for t in tasks if t not in out]
    if missing:
        raise MetricsError(f"no range for task(s) {', '.join(missing)}", path,
                           exit_code=EXIT_USAGE)
    return out


def _lifetime(rows: list[Row], metric: str, values: list[float], how: str) -> None:
    if any(v is not None and not math.isnan(v) for v in values):
        rows.append(row(metric, aggregate(values, how)))


class BlockPerf:
    name = "l2m_block"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "l2metrics regime values: saturation, experiences to saturation, terminal performance"
    emits = ("saturation", "exp_to_sat", "term_perf", "exp_to_term_perf")
    inputs = ("log",)
    needs = {m: Need("blocks") for m in emits}
    parameters = PREPROCESSING

    def compute(self, ctx: Context) -> list[Row]:
        r = regimes(ctx)
        b = r.prepared.run.blocks
        out = []
        for i, (block, task, phase) in enumerate(zip(column(b, "block"), column(b, "task"), column(b, "phase"))):
            for name, arr in (("saturation", r.saturation), ("exp_to_sat", r.exp_to_sat),
                              ("term_perf", r.term_perf), ("exp_to_term_perf", r.exp_to_term)):
                out.append(row(name, arr[i], str(task), int(block), str(phase)))
        return out


def recovery_times(ctx: Context, r: Regimes) -> dict[int, float]:
    """Block index -> experiences until a later train (wake) block reaches the previous one's
    terminal performance (block length + 1 if never)."""
    b = r.prepared.run.blocks
    out: dict[int, float] = {}
    kinds, subtypes, tasks = column(b, "kind"), _text(b, "subtype"), column(b, "task")
    for task in dict.fromkeys(tasks):
        idx = np.flatnonzero((kinds == "train") & (subtypes == "wake") & (tasks == task))
        for prev, cur in zip(idx[:-1], idx[1:]):
            a, z = column(b, "start")[cur], column(b, "stop")[cur]
            target = float(r.term_perf[prev])
            out[int(cur)] = r.prepared.blocks.value(
                int(cur), ("recovery", target),
                functools.partial(_recovery, r.means, int(a), int(z), target))
    return out


def _recovery(means: BlockMeans, a: int, z: int, target: float) -> float:
    """Experiences of the block ``[a, z)`` until it reaches ``target`` (its length + 1 if
    never)."""
    x = means.of(a, z)
    x = x[~np.isnan(x)]
    hits = np.flatnonzero(x >= target)
    return float(hits[0]) if hits.size else float(z - a + 1)


def exp_means(x: np.ndarray, exp: np.ndarray | None,
              groups: "Groups | None" = None) -> np.ndarray:
    """One value per experience, in experience order: l2metrics computes saturation, terminal
    performance and recovery on ``groupby("exp_num").mean()`` of the (smoothed) rows, and
    everything else on the rows themselves. ``groups``: `exp_groups` of ``exp`` when the
    caller has it (a followed run keeps each block's)."""
    if exp is None or x.size < 2:
        return x
    kind, index, counts = exp_groups(exp) if groups is None else groups
    if kind == "each":
        return x
    if kind == "runs":  # sorted: each experience's rows are one run
        sums = np.add.reduceat(x, index)
        sums /= counts
        return sums
    return np.bincount(index, weights=x) / counts


#: how `exp_means` groups a block's rows: ``("each", ...)`` for rising experience numbers (a
#: row each), ``("runs", starts, counts)`` for sorted ones, ``("ranks", each row's rank,
#: counts)`` for others
Groups = tuple[str, np.ndarray, np.ndarray]


def exp_groups(exp: np.ndarray) -> Groups:
    """Each experience's rows, for `exp_means`. They depend on the experience numbers alone,
    so a block whose values are rescaled (a followed run whose task's range moved) keeps
    them."""
    if exp.size < 2:
        return "each", _NONE, _NONE
    # comparisons, not np.diff: a bool per row instead of a float (rows of a long task run to
    # tens of megabytes); experience numbers are finite, so the two agree
    if bool(np.all(exp[1:] > exp[:-1])):
        return "each", _NONE, _NONE
    if bool(np.all(exp[1:] >= exp[:-1])):
        change = np.empty(exp.size, dtype=bool)
        change[0] = True
        np.not_equal(exp[1:], exp[:-1], out=change[1:])
        starts = np.flatnonzero(change)
        del change
        return "runs", starts, np.diff(starts, append=exp.size)
    inverse = _dense_ranks(exp)
    if inverse is None:
        keys, inverse = np.unique(exp, return_inverse=True)
    return "ranks", inverse, np.bincount(inverse)


_NONE = np.empty(0, dtype=np.int64)


def _dense_ranks(exp: np.ndarray) -> np.ndarray | None:
    """``np.unique(exp, return_inverse=True)[1]`` (each row's rank among the distinct
    experience numbers) without sorting, for whole experience numbers spanning at most about
    twice as many values as there are rows (what l2logger writes: one shared counter), else
    None. Why: several workers' rows are laid out worker by worker, so a block's numbers are
    not sorted, and sorting them was most of the means' cost (50 ms for 800k rows, 15 this
    way; tests/metrics/test_l2m_hand.py compares the two). The ranks are the same integers,
    so `np.bincount` adds the same rows in the same order: the means are the same bits."""
    lo, hi = float(exp.min()), float(exp.max())
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo > 2 * exp.size + 1024:
        return None
    offset = exp - lo
    index = offset.astype(np.int64)
    if not bool(np.all(index == offset)):
        return None  # not whole numbers
    present = np.zeros(int(hi - lo) + 1, dtype=np.int64)
    present[index] = 1
    np.cumsum(present, out=present)
    present -= 1
    return present[index]


def theil_sen_slope(y: np.ndarray) -> float:
    """Median of pairwise slopes against 0..n-1: scipy.stats.theilslopes' slope, bit for bit
    (tests/metrics/test_l2m_hand.py compares them). Not a call to scipy: importing scipy.stats
    costs 0.6-1 s, more than the whole computation of a million-episode log (issue 24)."""
    x = np.arange(y.size, dtype=float)
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    return _median(dy[dx > 0] / dx[dx > 0])


def _median(values: np.ndarray) -> float:
    """``np.median`` of a 1-D float array, value for value (the middle value, or the mean of
    the two middle ones; NaN if any value is NaN). ``np.median`` imports numpy.ma to check for
    masked arrays, a few hundredths of a second of every run (issue 24)."""
    n = values.size
    if n == 0 or np.isnan(values).any():
        return float(np.median(values))
    k = n // 2
    if n % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return float(np.mean(part[k - 1 : k + 1]))


class PerfRecovery:
    name = "perf_recovery"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "l2metrics performance recovery: minus the Theil-Sen slope of recovery times"
    emits = ("perf_recovery", "l2m_recovery_time")
    inputs = ("log",)
    needs = {"perf_recovery": Need("retrain", count=3), "l2m_recovery_time": Need("retrain", count=2)}
    parameters = PREPROCESSING + (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        r = regimes(ctx)
        b = r.prepared.run.blocks
        rec = recovery_times(ctx, r)
        out = [row("l2m_recovery_time", v, str(column(b, "task")[i]), int(column(b, "block")[i]),
                   str(column(b, "phase")[i])) for i, v in rec.items()]
        if len(rec) <= 1:  # l2metrics then records no recovery times either
            ctx.warn("perf_recovery: not enough recovery times (needs two later train blocks "
                     "of one task)")
            return out
        values = []
        for task in ctx.run.tasks:
            y = np.array([v for i, v in sorted(rec.items()) if column(b, "task")[i] == task])
            ctx.detail(task, "recovery_times", y.tolist())
            if y.size > 1:
                value = -theil_sen_slope(y)
                out.append(row("perf_recovery", value, task))
                values.append(value)
        _lifetime(out, "perf_recovery", values, ctx.params["aggregation"])
        return out


class AvgPerf:
    name = "avg_perf"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "l2metrics average train and evaluation performance"
    emits = ("avg_train_perf", "avg_eval_perf")
    inputs = ("log",)
    needs = {"avg_train_perf": Need("train"), "avg_eval_perf": Need("test")}
    parameters = PREPROCESSING + (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        r = regimes(ctx)
        b = r.prepared.run.blocks
        perf = r.prepared.run.perf
        out: list[Row] = []
        per_task: dict[str, dict[str, list[float]]] = {}
        for i in np.flatnonzero(r.filtered):
            kind = column(b, "kind")[i]
            name = {"train": "avg_train_perf", "test": "avg_eval_perf"}.get(kind)
            if name is None:
                continue
            a, z = column(b, "start")[i], column(b, "stop")[i]
            value = r.prepared.blocks.value(int(i), ("nanmean",),
                                            functools.partial(_nanmean, perf, a, z))
            task = str(column(b, "task")[i])
            out.append(row(name, value, task, int(column(b, "block")[i]), str(column(b, "phase")[i])))
            per_task.setdefault(task, {}).setdefault(name, []).append(value)
        how = ctx.params["aggregation"]
        for name in self.emits:
            values = []
            for task in ctx.run.tasks:
                vals = per_task.get(task, {}).get(name, [])
                ctx.detail(task, f"{name}_vals", list(vals))
                v = float(np.mean(vals)) if vals else math.nan
                out.append(row(name, v, task))
                values.append(v)
            _lifetime(out, name, values, how)
        return out


def _nanmean(perf: "np.ndarray | SpillArray", a: int, z: int) -> float:
    """``np.nanmean`` of a block. Without NaN in it that is ``np.mean``: numpy's nanmean sums
    a copy of the same values (NaN set to 0) and divides by their count, the same pairwise
    sum and division, without the copy and the masks (a block a moved range rescales is
    averaged again at each such update)."""
    x = perf[a:z]
    if isinstance(x, np.ndarray) and x.dtype == np.float64 and x.ndim == 1 and x.size and \
            not np.isnan(x).any():
        return float(np.mean(x))
    return float(np.nanmean(x))


def _methods(chosen: str, both: tuple[str, str]) -> list[str]:
    """The formulas a ``*_method`` option selects ("both" means each of them)."""
    return list(both) if chosen == "both" else [chosen]


def _text(b: Any, name: str) -> np.ndarray:
    """A block column as Python strings (``Series.astype(str)``, for either table type)."""
    return column(b, name).astype(str).astype(object)


def _kept_blocks(r: Regimes, b: "pd.DataFrame | Columns") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Indices of the blocks l2metrics keeps, with every block's kind and task as arrays."""
    return np.flatnonzero(r.filtered), column(b, "kind"), column(b, "task")


class PerfMaintenance:
    name = "perf_maintenance"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("l2metrics performance maintenance: later evaluation minus the most recent "
                   "learning evaluation (mrlep) or terminal learning performance (mrtlp)")
    emits = ("perf_maintenance_mrlep", "perf_maintenance_mrtlp", "maintenance_val_mrlep",
             "maintenance_val_mrtlp")
    inputs = ("log",)
    needs = {m: Need("reevaluation", when=("maintenance_method", (m[-5:], "both"))) for m in emits}
    parameters = PREPROCESSING + (AGGREGATION, Parameter(
        "maintenance_method", "mrlep", "which maintenance metric(s)", choices=("mrlep", "mrtlp", "both"),
        l2metrics="-m/--maintenance-method"))

    def compute(self, ctx: Context) -> list[Row]:
        r = regimes(ctx)
        b = r.prepared.run.blocks
        methods = _methods(ctx.params["maintenance_method"], ("mrlep", "mrtlp"))
        keep, kinds, tasks = _kept_blocks(r, b)
        values: dict[str, dict[int, float]] = {m: {} for m in methods}
        for task in dict.fromkeys(tasks[keep]):
            train = keep[(tasks[keep] == task) & (kinds[keep] == "train")]
            test = keep[(tasks[keep] == task) & (kinds[keep] == "test")]
            ref_tests = np.array([test[np.argmax(test > t)] for t in train if np.any(test > t)])
            for t in test:
                if not (ref_tests.size and np.any(t > ref_tests)) or t in ref_tests:
                    continue
                if "mrtlp" in methods:
                    values["mrtlp"][int(t)] = r.term_perf[t] - r.term_perf[train[train < t][-1]]
                if "mrlep" in methods:
                    values["mrlep"][int(t)] = r.term_perf[t] - r.term_perf[ref_tests[ref_tests < t][-1]]
        out: list[Row] = []
        for m in methods:
            if not values[m]:
                continue
            per_task: dict[str, list[float]] = {}
            for i, v in sorted(values[m].items()):
                out.append(row(f"maintenance_val_{m}", v, str(tasks[i]), int(column(b, "block")[i]),
                               str(column(b, "phase")[i])))
                per_task.setdefault(str(tasks[i]), []).append(v)
            lifetime = []
            for task in ctx.run.tasks:
                ctx.detail(task, f"maintenance_val_{m}", _clumps(values[m], tasks == task))
                if task in per_task:
                    v = float(np.mean(per_task[task]))
                    out.append(row(f"perf_maintenance_{m}", v, task))
                    lifetime.append(v)
            _lifetime(out, f"perf_maintenance_{m}", lifetime, ctx.params["aggregation"])
        if not out:
            ctx.warn("perf_maintenance: no task is evaluated again after its first "
                     "post-training evaluation")
        return out


def _clumps(values: dict[int, float], own: np.ndarray) -> list[list[float]]:
    """A task's maintenance values grouped as l2metrics lists them: one list per stretch of
    the task's blocks that all have a value (a training or a reference test ends a stretch)."""
    out: list[list[float]] = []
    current: list[float] = []
    for i in np.flatnonzero(own):
        if int(i) in values:
            current.append(float(values[int(i)]))
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


class Transfer:
    name = "transfer"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("l2metrics forward/backward transfer between task pairs, as a ratio or "
                   "contrast of the evaluations around the other task's training")
    emits = ("forward_transfer_ratio", "backward_transfer_ratio", "forward_transfer_contrast",
             "backward_transfer_contrast")
    inputs = ("log",)
    needs = {m: Need(f"{m.split('_')[0]}_pairs", when=("transfer_method", (m.split("_")[-1], "both")))
             for m in emits}
    parameters = PREPROCESSING + (AGGREGATION, Parameter(
        "transfer_method", "ratio", "transfer formula(s)", choices=("ratio", "contrast", "both"),
        l2metrics="-t/--transfer-method"))

    def compute(self, ctx: Context) -> list[Row]:
        r = regimes(ctx)
        b = r.prepared.run.blocks
        methods = _methods(ctx.params["transfer_method"], ("ratio", "contrast"))
        keep, kinds, tasks = _kept_blocks(r, b)
        # keyed by the later evaluation block, as l2metrics does (a later pair overwrites)
        found: dict[tuple[str, str], dict[int, tuple[str, float]]] = {}
        for task, other in permutations(list(dict.fromkeys(tasks[keep])), 2):
            train = keep[(tasks[keep] == task) & (kinds[keep] == "train")]
            other_test = keep[(tasks[keep] == other) & (kinds[keep] == "test")]
            other_train = keep[(tasks[keep] == other) & (kinds[keep] == "train")]
            if not train.size:
                continue
            first_other = other_train.min() if other_train.size else None
            fwd = train[train < first_other] if first_other is not None else train
            bwd = train[train > first_other] if first_other is not None else train[:0]
            for direction, regs in (("forward", fwd), ("backward", bwd)):
                for tr in regs:
                    for t1, t2 in zip(other_test[:-1], other_test[1:]):
                        if t1 < tr < t2:
                            tp1, tp2 = r.term_perf[t1], r.term_perf[t2]
                            if "ratio" in methods and tp1 != 0:
                                found.setdefault((direction, "ratio"), {})[int(t2)] = (task, tp2 / tp1)
                            if "contrast" in methods and (tp1 + tp2) != 0:
                                found.setdefault((direction, "contrast"), {})[int(t2)] = (
                                    task, (tp2 - tp1) / (tp1 + tp2))
        out: list[Row] = []
        for direction in ("forward", "backward"):
            if not any(found.get((direction, m)) for m in methods):
                ctx.warn(f"transfer: no valid task pairs for {direction} transfer")
            for m in methods:
                name = f"{direction}_transfer_{m}"
                pairs: dict[str, dict[str, list[float]]] = {}
                for t2, (source, value) in sorted(found.get((direction, m), {}).items()):
                    pairs.setdefault(source, {}).setdefault(str(tasks[t2]), []).append(value)
                    out.append(row(name, value, f"{source}->{tasks[t2]}", int(column(b, "block")[t2]),
                                   str(column(b, "phase")[t2])))
                firsts = []
                for source in ctx.run.tasks:
                    for target, vals in pairs.get(source, {}).items():
                        out.append(row(name, vals[0], f"{source}->{target}"))
                        firsts.append(vals[0])
                _lifetime(out, name, firsts, ctx.params["aggregation"])
        return out


def _task_train(run: RunData, task: str, with_exp: bool = True
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """A task's (wake) training values in order, and their experience numbers if asked for
    (a long run's task is tens of megabytes; callers that need no numbers don't get them)."""
    ranges = _train_ranges(run, task)
    if not ranges:
        return np.empty(0), np.empty(0)
    return gather(run.perf, ranges), gather(run.exp, ranges) if with_exp else None


def _train_ranges(run: RunData, task: str) -> list[tuple[int, int]]:
    """``[start, stop)`` of each (wake) training block of a task, in order."""
    starts, stops = column(run.blocks, "start"), column(run.blocks, "stop")
    return [(int(starts[i]), int(stops[i])) for i in _train_blocks(run, task)]


def _train_blocks(run: RunData, task: str) -> list[int]:
    """The positions of a task's (wake) training blocks with rows, in order."""
    b = run.blocks  # numpy columns: a DataFrame selection costs more than the ranges here
    sel = ((column(b, "task") == task) & (column(b, "kind") == "train")
           & (column(b, "subtype").astype(str) == "wake")
           & (column(b, "stop") > column(b, "start")))
    return np.flatnonzero(sel).tolist()


def _task_exp_means(r: Regimes, task: str) -> np.ndarray:
    """`exp_means` of a task's training rows, computed one block at a time (`BlockMeans`):
    the same values when no experience spans two blocks and the blocks come in experience order
    (the concatenation is sorted then, and its runs of equal numbers are the blocks' runs);
    otherwise on the whole task at once."""
    run = r.prepared.run
    ranges = _train_ranges(run, task)
    # each block's means written into one array as they come (at most a value a row), not
    # kept side by side and concatenated: twice a task's values at a 10M-episode run's peak
    out = np.empty(sum(z - a for a, z in ranges))
    k = 0
    last = -np.inf
    for a, z in ranges:
        exp = run.exp[a:z]
        if exp[0] <= last or not bool(np.all(exp[1:] >= exp[:-1])):
            del out
            x, exp = _task_train(run, task)
            return exp_means(x, exp)
        part = r.means.of(a, z)
        out[k: k + part.size] = part
        k += part.size
        last = exp[-1]
    return out if k == out.size else out[:k].copy()


def _ste_curves(r: Regimes, task: str, averaging: str = "metrics"
                ) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
    """The training curve of each STE run of ``task`` with its experience numbers, one run at
    a time; with ``averaging="time"``, l2metrics' time-averaging: one curve of rows, the runs'
    mean over the length of the shortest (l2metrics averages rows there, so no experience
    numbers)."""
    runs = r.prepared.ste.get(task, [])
    if averaging == "time" and runs:
        curves = [_ste_curve(s)[0] for s in runs]
        m = min(len(c) for c in curves)
        yield np.array([c[:m] for c in curves]).mean(0), None
        return
    for s in runs:
        yield _ste_curve(s)


def _ste_train_ranges(s: RunData) -> list[tuple[int, int]]:
    """``[start, stop)`` of each training block of an STE run, in order."""
    sel = column(s.blocks, "kind") == "train"
    return list(zip(column(s.blocks, "start")[sel].tolist(), column(s.blocks, "stop")[sel].tolist()))


def _ste_curve(s: RunData, length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """An STE run's training values and their experience numbers, in order (the first
    ``length`` of them if given)."""
    ranges = _ste_train_ranges(s)
    if length is not None:
        ranges = _prefix(ranges, length)
    return gather(s.perf, ranges), gather(s.exp, ranges)


def _prefix(ranges: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    """The ranges that hold the first ``length`` rows of ``ranges`` taken one after the other:
    `gather` of them is the first ``length`` values of `gather` of ``ranges``."""
    out = []
    for a, z in ranges:
        if length <= 0:
            break
        out.append((a, min(z, a + length)))
        length -= out[-1][1] - a
    return out


def _ste_saturations(r: Regimes, task: str, averaging: str = "metrics"
                     ) -> Iterator[tuple[float, float]]:
    """`l2m_saturation` of the experience means of each STE curve of ``task`` (`_ste_curves`).
    A run's own curve (``averaging="metrics"``) is kept by a keeping memo while its values as
    preprocessed are (`Prepared.ste_value`): a followed log's update gathers, averages and
    smooths an STE run again only when its task's range moved."""
    if averaging == "time":
        for c, c_exp in _ste_curves(r, task, averaging):
            yield l2m_peak(exp_means(c, c_exp))
        return
    for k, s in enumerate(r.prepared.ste.get(task, [])):
        yield r.prepared.ste_value(task, k, ("saturation",),
                                   functools.partial(_curve_saturation, s))


def _curve_saturation(s: RunData) -> tuple[float, float]:
    return l2m_peak(exp_means(*_ste_curve(s)))


def _no_ste(ctx: Context, name: str) -> bool:
    if not ctx.ste:
        ctx.warn(f"{name}: no single-task-expert data (give --ste)")
        return True
    missing = [t for t in ctx.run.tasks if t not in ctx.ste]
    if missing:
        ctx.warn(f"{name}: no single-task-expert data for task(s) {', '.join(missing)}")
    return False


class SteRelPerf:
    name = "ste_rel_perf"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "l2metrics performance relative to the single-task expert (ratio of sums)"
    emits = ("ste_rel_perf",)
    inputs = ("log", "ste")
    needs = {"ste_rel_perf": Need("train", ste=True)}
    parameters = PREPROCESSING + (AGGREGATION, STE_AVERAGING)

    def compute(self, ctx: Context) -> list[Row]:
        if _no_ste(ctx, self.name):
            return []
        r = regimes(ctx)
        out: list[Row] = []
        values = []
        run = r.prepared.run
        for task in ctx.run.tasks:
            ranges = _train_ranges(run, task)
            runs = r.prepared.ste.get(task, [])
            if not ranges or not runs:
                continue
            n = sum(z - a for a, z in ranges)
            train = _train_blocks(run, task)
            rel = []
            if ctx.params["ste_averaging"] == "time":
                for c, _ in _ste_curves(r, task, "time"):
                    k = min(n, c.size)
                    rel.append(_train_sum(r, train, ranges, k) / np.nansum(c[:k]))
            else:
                for i, s in enumerate(runs):
                    ste_ranges = _ste_train_ranges(s)
                    k = min(n, sum(z - a for a, z in ste_ranges))
                    rel.append(_train_sum(r, train, ranges, k) / r.prepared.ste_value(
                        task, i, ("train nansum", k),
                        functools.partial(_nansum_prefix, s.perf, ste_ranges, k)))
            v = float(np.nanmean(rel))
            ctx.detail(task, "ste_rel_perf_vals", [float(x) for x in rel])
            out.append(row("ste_rel_perf", v, task))
            values.append(v)
        _lifetime(out, "ste_rel_perf", values, ctx.params["aggregation"])
        return out


def _train_sum(r: Regimes, train: list[int], ranges: list[tuple[int, int]], k: int) -> Any:
    """``np.nansum`` of the first ``k`` of a task's training values (the blocks ``train`` at
    ``ranges``), kept by a keeping memo while those blocks' values are (`Blocks.value_of`)."""
    return r.prepared.blocks.value_of(train, ("train nansum", k), functools.partial(
        _nansum_prefix, r.prepared.run.perf, ranges, k))


def _nansum_prefix(values: Any, ranges: list[tuple[int, int]], k: int) -> Any:
    """``np.nansum`` of the first ``k`` values of ``values`` at ``ranges``: the same number as
    ``np.nansum(gather(values, ranges)[:k])`` (the same values in a new array of their own),
    gathering ``k`` values instead of all."""
    return np.nansum(gather(values, _prefix(ranges, k)))


class SampleEfficiency:
    name = "sample_efficiency"
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("l2metrics sample efficiency: saturation ratio times experiences-to-saturation "
                   "ratio against the single-task expert")
    emits = ("sample_efficiency",)
    inputs = ("log", "ste")
    needs = {"sample_efficiency": Need("train", ste=True, unless="every task saturates at its first experience")}
    parameters = PREPROCESSING + (AGGREGATION, STE_AVERAGING)

    def compute(self, ctx: Context) -> list[Row]:
        if _no_ste(ctx, self.name):
            return []
        unfit = unfittable_task(ctx.run)
        if unfit is not None:
            ctx.warn(f"sample_efficiency: task {unfit} trains on experience 0 alone, where "
                     "l2metrics' least-squares slope fails, and l2metrics then computes sample "
                     "efficiency for no task; neither does sylla")
            return []
        r = regimes(ctx)
        out: list[Row] = []
        values = []
        for task in ctx.run.tasks:
            if not _train_ranges(r.prepared.run, task) or not r.prepared.ste.get(task):
                continue
            saturations = _ste_saturations(r, task, ctx.params["ste_averaging"])
            train = _train_blocks(r.prepared.run, task)
            sat, e2s, slope = r.prepared.blocks.value_of(
                train, ("sample efficiency", task), functools.partial(_learning, r, task, train))
            if e2s == 0:
                ctx.warn(f"sample_efficiency: task {task} saturates at its first experience")
                continue
            se: list[float | int] = []  # l2metrics counts a violating run as the integer 0
            vals: dict[str, list[float]] = {k: [] for k in SE_DETAILS}
            for ste_sat, ste_e2s in saturations:
                if ste_e2s == 0:
                    continue
                for key, value in zip(SE_DETAILS, (ste_sat, int(ste_e2s), sat / ste_sat,
                                                   ste_e2s / e2s)):
                    vals[key].append(value if isinstance(value, int) else float(value))
                if sat < ste_sat * 0.2 or slope < 0:
                    ctx.warn(f"sample_efficiency: task {task} violates its assumptions "
                             "(too low or falling); counted as 0")
                    se.append(0)
                else:
                    se.append((sat / ste_sat) * (ste_e2s / e2s))
            # l2metrics keeps a task's intermediates when it averages metrics even if no STE
            # run saturates, but not when it averages curves and the one curve does not
            if se or ctx.params["ste_averaging"] == "metrics":
                ctx.detail(task, "se_task_saturation", float(sat))
                ctx.detail(task, "se_task_exp_to_sat", float(e2s))
                for key, values_ in vals.items():
                    ctx.detail(task, key, values_)
                ctx.detail(task, "sample_efficiency_vals",
                           [x if isinstance(x, int) else float(x) for x in se])
            if not se:
                continue
            v = float(np.nanmean(se))
            out.append(row("sample_efficiency", v, task))
            values.append(v)
        _lifetime(out, "sample_efficiency", values, ctx.params["aggregation"])
        return out


def _learning(r: Regimes, task: str, train: list[int]) -> tuple[float, float, float]:
    """A task's saturation and experiences to it (of its training's experience means) and
    the least-squares slope of its training rows, as sample efficiency takes them. A task
    trained in one block has that block's experience means, whose saturation the regime
    values hold already (the same numbers: the same smoothing of the same means). The
    centred experience numbers depend on the rows as read alone: a followed run keeps them
    while the task's values are scaled anew (`Blocks.rows_value_of`)."""
    if len(train) == 1:
        sat, e2s = float(r.saturation[train[0]]), float(r.exp_to_sat[train[0]])
    else:
        sat, e2s = l2m_peak(_task_exp_means(r, task))
    run = r.prepared.run
    ranges = _train_ranges(run, task)
    exp, denom = r.prepared.blocks.rows_value_of(
        train, ("centred exp",), lambda: _centred(gather(run.exp, ranges)))
    return sat, e2s, _slope_of(exp, denom, gather(run.perf, ranges))


def unfittable_task(run: RunData) -> str | None:
    """A task whose (wake) training is all at experience 0, if any. l2metrics fits
    ``np.polyfit(exp_num, perf, 1)`` to every trained task before it looks for STE data; with
    every ``exp_num`` 0 the fit's column scaling divides 0 by 0 and the least squares raise
    ``LinAlgError`` (a ``ValueError``), which ends its sample efficiency for the whole run:
    no task gets a value, and its task entries get no ``se_task_*`` keys."""
    for task in run.tasks:
        ranges = _train_ranges(run, task)
        if ranges and all(run.exp[a] == 0 and run.exp[z - 1] == 0 for a, z in ranges) and \
                not bool(np.any(gather(run.exp, ranges))):
            return str(task)
    return None


#: sample efficiency's intermediates per STE run, named as in l2metrics' task metrics
SE_DETAILS = ("ste_saturation_vals", "ste_exp_to_sat_vals", "se_saturation_vals",
              "se_exp_to_sat_vals")


def _centred(x: np.ndarray) -> tuple[np.ndarray, float]:
    """``x`` centred in place (read-only after), and its sum of squares: the first half of
    the least-squares slope (`_slope_of`)."""
    if x.size < 2:
        return x, 0.0
    x -= x.mean()
    x.flags.writeable = False
    return x, float(np.dot(x, x))


def _slope_of(x: np.ndarray, denom: float, y: np.ndarray) -> float:
    """Least-squares slope (what l2metrics takes from ``np.polyfit(x, y, 1)``) of ``y`` on
    the centred ``x`` (whose sum of squares is ``denom``, `_centred`), centring ``y`` in
    place: no further arrays of a task's length. The caller must not use ``y`` afterwards."""
    if x.size < 2 or not denom:
        return 0.0
    y -= y.mean()
    return float(np.dot(x, y) / denom)


__all__ = ["BlockPerf", "PerfRecovery", "AvgPerf", "PerfMaintenance", "Transfer", "SteRelPerf",
           "SampleEfficiency"]
