"""The seed text's metrics (metrics-overview.md v0.1), as their authors defined them.

Sources (docs/metrics.md cites each): the seed text; its authors' own implementation, l2metrics
commit 00df7cd (``_localutil.get_block_saturation_performance``, 2019-11-12); and the revised text
13 days later, commit dfe3c1e (docs/Metrics_Overview.md, 2019-11-25), which fills in metrics 3,
4 and 5. Where both are silent the definition is sylla's and docs/metrics.md says so.

- saturation value: max of the moving average (window ``round(s*n)``) of per-episode
  performance; time to saturation: the first episode (block-relative) *where the window starts*
  whose average reaches it (the original code's index into the ``valid`` convolution);
- normalised integral: reward integrated over the episodes, divided by their number (dfe3c1e);
- recovery time: in each later train block of a task, the first window start whose average
  regains the *saturation value* of the task's previous train block (00df7cd; dfe3c1e "regain
  the same performance" after "some training phase achieves a saturation value");
- test vs train: mean on test blocks *after the task's first training*, mean on train blocks,
  their difference (dfe3c1e: "computing the difference in performance") and, when both are
  positive, their ratio; tests before any training are reported as ``test_perf_baseline``;
- STE comparison: learner / expert ratios of saturation, time to saturation and integral, the
  integral over the first ``min(n_learner, n_expert)`` episodes of each (dfe3c1e: "normalizing
  metrics computed on the lifelong learner by the same metrics computed on the traditional
  learner");
- forward transfer: jump start (Taylor & Stone 2009): the learner's first window in a task's
  first train block minus the expert's first window;
- time to learn: training episodes on a task until its moving average first reaches the
  expert's saturation value (sylla's own).
"""

from __future__ import annotations

import functools
import math
from typing import Callable, Hashable, Iterable, TypeVar

import numpy as np

from ..data import RunData, column
from ..needs import Need
from ..preprocess import rolling, window_of
from ..registry import Context, Row, row
from .common import AGGREGATION, S, aggregate, ste_train_values, task_train_values

T = TypeVar("T")


def saturation(x: np.ndarray, s: float) -> tuple[float, float]:
    """(saturation value, time to saturation) of one curve; NaN for an empty one.

    The time is the first window start whose average equals the maximum: a constant block
    saturates at 0."""
    return _peak(_moving(x, s)) if x.size else (math.nan, math.nan)


def _moving(x: np.ndarray, s: float) -> np.ndarray:
    """The moving average of a non-empty curve over its window (`window_of`)."""
    return rolling(x, min(window_of(x.size, s), x.size))


def _peak(avg: np.ndarray) -> tuple[float, float]:
    """The largest moving average and the first window start that has it."""
    top = float(avg.max())
    return top, float(np.flatnonzero(avg >= top)[0])


def terminal(x: np.ndarray, s: float) -> float:
    """Mean of the last window of a block."""
    return float(np.mean(x[-window_of(x.size, s):])) if x.size else math.nan


def first_reach(x: np.ndarray, target: float, s: float) -> float:
    """The first window start at which the moving average of ``x`` reaches ``target``, or NaN."""
    return reach_and_saturation(x, target, s)[0]


def reach_and_saturation(x: np.ndarray, target: float,
                         s: float) -> tuple[float, tuple[float, float]]:
    """`first_reach` and `saturation` of ``x`` from one moving average. Where a metric asks
    for the first, the saturation plugin asks for the second of the same rows (a later train
    block's recovery, a task's time to learn): the moving average is the costly part of both
    (issue 40: 1.6M of the 3.7M values averaged on the 1M-episode bench were averaged twice)."""
    if not x.size:
        return math.nan, (math.nan, math.nan)
    avg = _moving(x, s)
    hits = np.flatnonzero(avg >= target)
    return float(hits[0]) if hits.size else math.nan, _peak(avg)


def _blocks(run: RunData) -> Iterable[tuple[int, str, str, str, int, int]]:
    """Each block's number, task, phase, kind and row range ``[a, z)``."""
    b = run.blocks
    for block, task, phase, kind, a, z in zip(*(column(b, c) for c in (
            "block", "task", "phase", "kind", "start", "stop"))):
        yield int(block), str(task), str(phase), str(kind), int(a), int(z)


def _kept(ctx: Context, what: str, a: int, z: int, fn: Callable[[np.ndarray], T],
          *extra: Hashable) -> T:
    """``fn`` of the rows ``[a, z)`` of ``ctx.run.perf``, from the run's memo when it holds
    it: the key names the block's rows (`_named`), ``what`` and ``extra`` (every other input of
    ``fn``)."""
    return ctx.memo.get(("reference", what, _named(ctx, ((a, z),)), *extra),
                        lambda: fn(ctx.run.perf[a:z]))


def _reach_kept(ctx: Context, names: tuple[Hashable, ...], values: Callable[[], np.ndarray],
                what: str, target: float, s: float) -> float:
    """`first_reach` of the rows ``names`` names (``values()``: their values) under the memo
    key ``what``, and their saturation under the key the saturation plugin asks for
    (`reach_and_saturation`: one moving average for both)."""
    saturation_key = ("reference", "saturation", names, s)

    def both() -> float:
        reach, sat = reach_and_saturation(values(), target, s)
        ctx.memo.get(saturation_key, lambda: sat)
        return reach

    return ctx.memo.get(("reference", what, names, target, s), both)


def _task_kept(ctx: Context, what: str, task: str, fn: Callable[[np.ndarray], T],
               *extra: Hashable) -> T:
    """``fn`` of a task's training episodes (`task_train_values`), from the run's memo when it
    holds it: the key names the task's training blocks' rows (`_named`: a task that grew since
    has another), ``what`` and ``extra``."""
    return ctx.memo.get(("reference", what, _task_names(ctx, task), *extra),
                        lambda: fn(task_train_values(ctx.run, task)))


def _rows(run: RunData, a: int, z: int) -> np.ndarray:
    """The values of the rows ``[a, z)`` of ``run``."""
    return run.perf[a:z]


def _task_names(ctx: Context, task: str) -> tuple[Hashable, ...]:
    """The memo's names of a task's training blocks (`_named`: a task that grew since has
    others)."""
    b = ctx.run.blocks
    sel = (column(b, "task") == task) & (column(b, "kind") == "train")
    return _named(ctx, tuple(zip(column(b, "start")[sel].tolist(),
                                 column(b, "stop")[sel].tolist())))


def _named(ctx: Context, ranges: tuple[tuple[int, int], ...]) -> tuple[Hashable, ...]:
    """The memo's names of the blocks whose rows are ``ranges`` (`Memo.block_keys`: a keeping
    memo names a block's rows, not where they lie, so a block whose rows did not change keeps
    its values when others grow); a range that is no block's gets a name no key repeats."""
    names = ctx.cache.get("reference block keys")
    if names is None:
        b = ctx.run.blocks
        names = dict(zip(zip(column(b, "start").tolist(), column(b, "stop").tolist()),
                         ctx.memo.block_keys(ctx.run)))
        ctx.cache["reference block keys"] = names
    return tuple(names.get(r, object()) for r in ranges)


def _integral_ratios(ste: list[RunData], x: np.ndarray) -> tuple[tuple[float, ...], int]:
    """The learner's mean over each STE run's mean on their common first episodes (for STE
    runs whose mean there is not 0), and the learner's training length."""
    ratios = []
    for r in ste:
        v = ste_train_values(r)
        k = min(x.size, v.size)
        if k and float(np.mean(v[:k])):
            ratios.append(float(np.mean(x[:k])) / float(np.mean(v[:k])))
    return tuple(ratios), int(x.size)


def _train_size(run: RunData) -> int:
    """How many training episodes an STE run has: `ste_train_values`' length, counted
    without gathering them."""
    b = run.blocks
    sel = column(b, "kind") == "train"
    return int((column(b, "stop")[sel] - column(b, "start")[sel]).sum())


def _mean(x: np.ndarray) -> float:
    return float(np.mean(x))


def _mean_or_nan(x: np.ndarray) -> float:
    return float(np.mean(x)) if x.size else math.nan


def _head_mean(values: np.ndarray, w: int) -> float:
    """The mean of the first ``w`` values, NaN for none."""
    return float(np.mean(values[:w])) if values.size else math.nan


def _ste_mean(ctx: Context, task: str, fn: Callable[[np.ndarray], float], what: str,
              *extra: Hashable) -> float:
    """The mean of ``fn`` over the task's STE runs' training values (NaNs left out), from the
    run's memo when it holds it: the key names the STE runs' values (`Memo.data_key`: they
    are read once and never written), ``what`` and ``extra`` (every other input of ``fn``)."""
    return _ste_means(ctx, task, lambda v: (fn(v),), 1, what, *extra)[0]


def _ste_saturation(ctx: Context, task: str, s: float) -> tuple[float, float]:
    """The mean saturation value and the mean time to saturation of the task's STE runs
    (`_ste_means`): one moving average of each run for both."""
    sat, time = _ste_means(ctx, task, functools.partial(saturation, s=s), 2, "saturation", s)
    return sat, time


def _ste_means(ctx: Context, task: str, fn: Callable[[np.ndarray], tuple[float, ...]],
               width: int, what: str, *extra: Hashable) -> tuple[float, ...]:
    """`_ste_mean` of each of the ``width`` values ``fn`` gives (a tuple of them), each mean
    leaving out its own NaNs (all NaN for a task without STE runs)."""
    runs = ctx.ste.get(task, [])
    key = ("reference", "ste", what, tuple(ctx.memo.data_key(r.perf) for r in runs), *extra)

    def means() -> tuple[float, ...]:
        per_run = [fn(ste_train_values(r)) for r in runs]
        out = []
        for k in range(width):
            vals = [v[k] for v in per_run if not math.isnan(v[k])]
            out.append(float(np.mean(vals)) if vals else math.nan)
        return tuple(out)

    return ctx.memo.get(key, means)


class Saturation:
    name = "saturation"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "saturation value (max moving average) and time to saturation, per block and task"
    emits = ("saturation_value", "time_to_saturation")
    inputs = ("log",)
    needs = {m: Need("train") for m in emits}
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        out: list[Row] = []
        sat = functools.partial(saturation, s=s)
        for block, task, phase, _kind, a, z in _blocks(ctx.run):
            value, time = _kept(ctx, "saturation", a, z, sat, s)
            out += [row("saturation_value", value, task, block, phase),
                    row("time_to_saturation", time, task, block, phase)]
        per_task = {t: _task_kept(ctx, "saturation", t, sat, s) for t in ctx.run.tasks}
        for t, (value, time) in per_task.items():
            out += [row("saturation_value", value, t), row("time_to_saturation", time, t)]
        out += [row("saturation_value", aggregate((v for v, _ in per_task.values()), how)),
                row("time_to_saturation", aggregate((t for _, t in per_task.values()), how))]
        return out


class Integral:
    name = "normalized_integral"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "area under the per-episode performance curve divided by its length"
    emits = ("normalized_integral",)
    inputs = ("log",)
    needs = {"normalized_integral": Need("train")}
    parameters = (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        out = [row("normalized_integral", _kept(ctx, "mean", a, z, _mean), task, block, phase)
               for block, task, phase, _k, a, z in _blocks(ctx.run)]
        per_task = {}
        for t in ctx.run.tasks:
            per_task[t] = _task_kept(ctx, "mean", t, _mean_or_nan)
            out.append(row("normalized_integral", per_task[t], t))
        out.append(row("normalized_integral", aggregate(per_task.values(),
                                                        ctx.params["aggregation"])))
        return out


class Recovery:
    name = "recovery_time"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("episodes in a later train block until the previous train block's saturation "
                   "value returns")
    emits = ("recovery_time",)
    inputs = ("log",)
    needs = {"recovery_time": Need("retrain", count=2,
                                   unless="no later train block regains the previous one's saturation value")}
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s = ctx.params["s"]
        out: list[Row] = []
        per_task: dict[str, list[float]] = {}
        never: dict[str, list[int]] = {}
        previous: dict[str, float] = {}
        for block, task, phase, kind, a, z in _blocks(ctx.run):
            if kind != "train":
                continue
            if task in previous:
                value = _reach_kept(ctx, _named(ctx, ((a, z),)),
                                    functools.partial(_rows, ctx.run, a, z), "first_reach",
                                    previous[task], s)
                if math.isnan(value):
                    never.setdefault(task, []).append(block)
                out.append(row("recovery_time", value, task, block, phase))
                per_task.setdefault(task, []).append(value)
            previous[task] = _kept(ctx, "saturation", a, z, functools.partial(saturation, s=s),
                                   s)[0]
        for task, blocks in never.items():
            n = len(per_task[task])
            ctx.warn(f"recovery_time: task {task}: {len(blocks)} of {n} later train blocks "
                     f"(block(s) {', '.join(map(str, blocks))}) never regained the previous "
                     "train block's saturation value; "
                     + (f"the task's value averages the {n - len(blocks)} that did"
                        if len(blocks) < n else "the task has no value"))
        task_values = {t: aggregate(v, "mean") for t, v in per_task.items()}
        out += [row("recovery_time", v, t) for t, v in task_values.items()]
        if task_values:
            out.append(row("recovery_time", aggregate(task_values.values(),
                                                      ctx.params["aggregation"])))
        return out


class TestVsTrain:
    name = "test_vs_train"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("mean test performance after a task's first training against its mean train "
                   "performance: difference and (positive values only) ratio; earlier tests as "
                   "a baseline")
    emits = ("test_perf", "train_perf", "test_train_diff", "test_train_ratio",
             "test_perf_baseline")
    inputs = ("log",)
    needs = {"test_perf": Need("test_after_train"), "train_perf": Need("train"),
             "test_train_diff": Need("test_after_train"), "test_train_ratio": Need(
                 "test_after_train", unless="a task's mean test or train performance is not positive"),
             "test_perf_baseline": Need("test_before_train")}
    parameters = (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        run, how = ctx.run, ctx.params["aggregation"]
        b = run.blocks
        task, kind = column(b, "task"), column(b, "kind")
        starts, stops = column(b, "start"), column(b, "stop")
        out: list[Row] = []
        diffs, ratios = {}, {}
        for t in run.tasks:
            mine = np.flatnonzero(task == t)  # block positions (block tables have 0..n-1)
            test = kind[mine] == "test"
            trained = mine[kind[mine] == "train"]
            first = int(trained[0]) if trained.size else None
            groups = {
                "train": trained,
                "test": mine[test & (mine > first)] if first is not None else mine[:0],
                "baseline": mine[test & (mine < first)] if first is not None else mine[test],
            }
            means = {}
            for key, sel in groups.items():
                ranges = tuple(zip(starts[sel].tolist(), stops[sel].tolist()))
                means[key] = ctx.memo.get(("reference", "mean_of", _named(ctx, ranges)),
                                          functools.partial(_mean_of, run.perf, ranges))
            diff = means["test"] - means["train"]
            if means["test"] > 0 and means["train"] > 0:
                ratio = means["test"] / means["train"]
            else:
                ratio = math.nan
                if not math.isnan(diff):
                    ctx.warn(f"test_vs_train: task {t} has a non-positive mean performance; "
                             "its ratio is left out (the difference is given)")
            diffs[t], ratios[t] = diff, ratio
            out += [row("test_perf", means["test"], t), row("train_perf", means["train"], t),
                    row("test_train_diff", diff, t), row("test_train_ratio", ratio, t)]
            if not math.isnan(means["baseline"]):
                out.append(row("test_perf_baseline", means["baseline"], t))
        out.append(row("test_train_diff", aggregate(diffs.values(), how)))
        out.append(row("test_train_ratio", aggregate(ratios.values(), how)))
        return out


def _mean_of(perf: np.ndarray, ranges: tuple[tuple[int, int], ...]) -> float:
    """The mean of the rows of ``ranges`` taken together (NaN for none)."""
    parts = [perf[a:z] for a, z in ranges]
    return float(np.mean(np.concatenate(parts))) if parts else math.nan


class SteComparison:
    name = "ste_comparison"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = "learner / single-task-expert ratios of saturation, time to saturation, integral"
    emits = ("ste_saturation_ratio", "ste_time_ratio", "ste_integral_ratio")
    inputs = ("log", "ste")
    needs = {m: Need("train", ste=True, unless="the expert's value is 0" if m != "ste_integral_ratio" else "")
             for m in emits}
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        out: list[Row] = []
        collected: dict[str, list[float]] = {m: [] for m in self.emits}
        b = ctx.run.blocks
        trained = column(b, "task")[(column(b, "kind") == "train")
                                    & (column(b, "stop") > column(b, "start"))]
        for t in ctx.run.tasks:
            if t not in trained:  # no training episodes (no need to gather them to know)
                continue
            if not ctx.ste.get(t):
                ctx.warn(f"ste_comparison: no single-task-expert data for task {t}")
                continue
            sat, time = _task_kept(ctx, "saturation", t, functools.partial(saturation, s=s), s)
            ste_sat, ste_time = _ste_saturation(ctx, t, s)
            ratios, size = _task_kept(ctx, "integral ratios", t, functools.partial(
                _integral_ratios, ctx.ste.get(t, [])), tuple(
                    ctx.memo.data_key(r.perf) for r in ctx.ste.get(t, [])))
            if any(_train_size(r) != size for r in ctx.ste.get(t, [])):
                ctx.warn(f"ste_comparison: task {t}: learner and expert curves differ in length; "
                         "the integral ratio compares their first min(n) episodes")
            values = {
                "ste_saturation_ratio": sat / ste_sat if ste_sat else math.nan,
                "ste_time_ratio": time / ste_time if ste_time else math.nan,
                "ste_integral_ratio": float(np.mean(ratios)) if ratios else math.nan,
            }
            for m, value in values.items():
                out.append(row(m, value, t))
                collected[m].append(value)
        for m, vals in collected.items():
            if vals:
                out.append(row(m, aggregate(vals, how)))
        return out


class ForwardTransfer:
    name = "forward_transfer"
    side_by_side = True  # from the run, its STE runs and parameters alone (`sylla.metrics.lanes`)
    reads_columns = True  # blocks through `column` only (`sylla.metrics.data.Columns`)
    description = ("jump start (Taylor & Stone 2009): first window of a task's first train block, "
                   "learner minus expert; and time to learn: training episodes until the "
                   "expert's saturation")
    emits = ("forward_transfer", "time_to_learn")
    inputs = ("log", "ste")
    needs = {"forward_transfer": Need("later_task_trained", ste=True), "time_to_learn": Need(
        "train", ste=True, unless="the learner never reaches the expert's saturation value")}
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        run = ctx.run
        out: list[Row] = []
        ft: list[float] = []
        ttl: list[float] = []
        b = run.blocks
        task = column(b, "task")
        trained = np.flatnonzero(column(b, "kind") == "train")
        first_task = str(task[trained[0]]) if trained.size else None
        for t in run.tasks:
            sel = trained[task[trained] == t]
            if not sel.size or not ctx.ste.get(t):
                continue
            first = run.perf[int(column(b, "start")[sel[0]]) : int(column(b, "stop")[sel[0]])]
            w = window_of(first.size, s)
            expert = _ste_mean(ctx, t, functools.partial(_head_mean, w=w), "head mean", w)
            if t != first_task:
                value = float(np.mean(first[:w])) - expert
                out.append(row("forward_transfer", value, t))
                ft.append(value)
            target = _ste_saturation(ctx, t, s)[0]
            time = _reach_kept(ctx, _task_names(ctx, t), functools.partial(
                task_train_values, run, t), "first reach", target, s)
            if math.isnan(time):
                ctx.warn(f"time_to_learn: task {t} never reached the expert's saturation value")
            out.append(row("time_to_learn", time, t))
            ttl.append(time)
        if ft:
            out.append(row("forward_transfer", aggregate(ft, how)))
        if ttl:
            out.append(row("time_to_learn", aggregate(ttl, how)))
        return out
