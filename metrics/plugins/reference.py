"""The reference text's metrics (metrics-overview.md, v0.1), per block and per task.

The reference names the quantities and describes saturation and time to saturation; the other
definitions were left blank there and are fixed here (docs/metrics.md states each):

- saturation value: max of the trailing moving average (window ``ceil(s*n)``) of per-episode
  performance; time to saturation: the episode (block-relative) at which that average first
  reaches it;
- normalised integral: the area under the per-episode curve divided by its length (the mean);
- recovery time: in each later train block of a task, episodes until the moving average regains
  the previous train block's terminal performance (mean of its last ``ceil(s*n)`` episodes);
- test vs train: mean performance on test blocks, on train blocks, and their ratio;
- STE comparison: learner / expert ratios of saturation, time to saturation and integral;
- forward transfer: the learner's first window in a task's first train block over the expert's
  first window (a jump-start ratio; > 1 means earlier tasks helped);
- time to learn: training episodes on a task until its moving average first reaches the
  expert's saturation value.
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from ..data import RunData
from ..preprocess import rolling, window_of
from ..registry import Context, Parameter, Row, row
from .common import AGGREGATION, S, aggregate, ste_train_values, task_train_values


def saturation(x: np.ndarray, s: float) -> tuple[float, float]:
    """(saturation value, time to saturation) of one curve; NaN for an empty one."""
    if not x.size:
        return math.nan, math.nan
    w = window_of(x.size, s)
    avg = rolling(x, w)
    top = float(avg.max())
    return top, float(np.flatnonzero(avg >= top)[0] + w - 1)


def terminal(x: np.ndarray, s: float) -> float:
    return float(np.mean(x[-window_of(x.size, s):])) if x.size else math.nan


def first_reach(x: np.ndarray, target: float, s: float) -> float:
    """The episode at which the moving average of ``x`` first reaches ``target``, or NaN."""
    if not x.size:
        return math.nan
    w = window_of(x.size, s)
    hits = np.flatnonzero(rolling(x, w) >= target)
    return float(hits[0] + w - 1) if hits.size else math.nan


def _blocks(run: RunData) -> Iterable[tuple[int, str, str, str, np.ndarray]]:
    b = run.blocks
    for block, task, phase, kind, a, z in zip(b.block, b.task, b.phase, b.kind, b.start, b.stop):
        yield int(block), str(task), str(phase), str(kind), run.perf[a:z]


def _ste_mean(ctx: Context, task: str, fn) -> float:
    vals = [fn(ste_train_values(r)) for r in ctx.ste.get(task, [])]
    vals = [v for v in vals if not math.isnan(v)]
    return float(np.mean(vals)) if vals else math.nan


class Saturation:
    name = "saturation"
    description = "saturation value (max moving average) and time to saturation, per block and task"
    emits = ("saturation_value", "time_to_saturation")
    inputs = ("log",)
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        out: list[Row] = []
        for block, task, phase, _kind, x in _blocks(ctx.run):
            value, time = saturation(x, s)
            out += [row("saturation_value", value, task, block, phase),
                    row("time_to_saturation", time, task, block, phase)]
        per_task = {t: saturation(task_train_values(ctx.run, t), s) for t in ctx.run.tasks}
        for t, (value, time) in per_task.items():
            out += [row("saturation_value", value, t), row("time_to_saturation", time, t)]
        out += [row("saturation_value", aggregate((v for v, _ in per_task.values()), how)),
                row("time_to_saturation", aggregate((t for _, t in per_task.values()), how))]
        return out


class Integral:
    name = "normalized_integral"
    description = "area under the per-episode performance curve divided by its length"
    emits = ("normalized_integral",)
    inputs = ("log",)
    parameters = (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        out = [row("normalized_integral", float(np.mean(x)), task, block, phase)
               for block, task, phase, _k, x in _blocks(ctx.run)]
        per_task = {}
        for t in ctx.run.tasks:
            x = task_train_values(ctx.run, t)
            per_task[t] = float(np.mean(x)) if x.size else math.nan
            out.append(row("normalized_integral", per_task[t], t))
        out.append(row("normalized_integral", aggregate(per_task.values(),
                                                        ctx.params["aggregation"])))
        return out


class Recovery:
    name = "recovery_time"
    description = "episodes in a later train block until the previous block's terminal level returns"
    emits = ("recovery_time",)
    inputs = ("log",)
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s = ctx.params["s"]
        out: list[Row] = []
        per_task: dict[str, list[float]] = {}
        previous: dict[str, np.ndarray] = {}
        for block, task, phase, kind, x in _blocks(ctx.run):
            if kind != "train":
                continue
            if task in previous:
                value = first_reach(x, terminal(previous[task], s), s)
                if math.isnan(value):
                    ctx.warn(f"recovery_time: block {block} ({task}) never regained the "
                             "previous block's terminal performance")
                out.append(row("recovery_time", value, task, block, phase))
                per_task.setdefault(task, []).append(value)
            previous[task] = x
        task_values = {t: aggregate(v, "mean") for t, v in per_task.items()}
        out += [row("recovery_time", v, t) for t, v in task_values.items()]
        if task_values:
            out.append(row("recovery_time", aggregate(task_values.values(),
                                                      ctx.params["aggregation"])))
        return out


class TestVsTrain:
    name = "test_vs_train"
    description = "mean performance on test blocks and train blocks of each task, and their ratio"
    emits = ("test_perf", "train_perf", "test_train_ratio")
    inputs = ("log",)
    parameters = (AGGREGATION,)

    def compute(self, ctx: Context) -> list[Row]:
        run, how = ctx.run, ctx.params["aggregation"]
        out: list[Row] = []
        ratios = {}
        for t in run.tasks:
            means = {}
            for kind in ("test", "train"):
                sel = run.blocks[(run.blocks.task == t) & (run.blocks.kind == kind)]
                parts = [run.perf[a:z] for a, z in zip(sel.start, sel.stop)]
                means[kind] = float(np.mean(np.concatenate(parts))) if parts else math.nan
            ratio = (means["test"] / means["train"]) if means["train"] not in (0.0,) else math.nan
            ratios[t] = ratio
            out += [row("test_perf", means["test"], t), row("train_perf", means["train"], t),
                    row("test_train_ratio", ratio, t)]
        out.append(row("test_train_ratio", aggregate(ratios.values(), how)))
        return out


class SteComparison:
    name = "ste_comparison"
    description = "learner / single-task-expert ratios of saturation, time to saturation, integral"
    emits = ("ste_saturation_ratio", "ste_time_ratio", "ste_integral_ratio")
    inputs = ("log", "ste")
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        out: list[Row] = []
        collected: dict[str, list[float]] = {m: [] for m in self.emits}
        for t in ctx.run.tasks:
            x = task_train_values(ctx.run, t)
            if not x.size:
                continue
            if not ctx.ste.get(t):
                ctx.warn(f"ste_comparison: no single-task-expert data for task {t}")
                continue
            sat, time = saturation(x, s)
            ste_sat = _ste_mean(ctx, t, lambda v: saturation(v, s)[0])
            ste_time = _ste_mean(ctx, t, lambda v: saturation(v, s)[1])
            ste_int = _ste_mean(ctx, t, lambda v: float(np.mean(v)) if v.size else math.nan)
            values = {
                "ste_saturation_ratio": sat / ste_sat if ste_sat else math.nan,
                "ste_time_ratio": time / ste_time if ste_time else math.nan,
                "ste_integral_ratio": float(np.mean(x)) / ste_int if ste_int else math.nan,
            }
            for m, v in values.items():
                out.append(row(m, v, t))
                collected[m].append(v)
        for m, vals in collected.items():
            if vals:
                out.append(row(m, aggregate(vals, how)))
        return out


class ForwardTransfer:
    name = "forward_transfer"
    description = ("jump start: first window of a task's first train block, learner over expert; "
                   "and time to learn: training episodes until the expert's saturation")
    emits = ("forward_transfer", "time_to_learn")
    inputs = ("log", "ste")
    parameters = (S, AGGREGATION)

    def compute(self, ctx: Context) -> list[Row]:
        s, how = ctx.params["s"], ctx.params["aggregation"]
        run = ctx.run
        out: list[Row] = []
        ft: list[float] = []
        ttl: list[float] = []
        trained = run.blocks[run.blocks.kind == "train"]
        first_task = str(trained.task.iloc[0]) if len(trained) else None
        for t in run.tasks:
            sel = trained[trained.task == t]
            if sel.empty or not ctx.ste.get(t):
                continue
            first = run.perf[int(sel.start.iloc[0]) : int(sel.stop.iloc[0])]
            w = window_of(first.size, s)
            expert = _ste_mean(ctx, t, lambda v: float(np.mean(v[:w])) if v.size else math.nan)
            if t != first_task:
                value = float(np.mean(first[:w])) / expert if expert else math.nan
                out.append(row("forward_transfer", value, t))
                ft.append(value)
            target = _ste_mean(ctx, t, lambda v: saturation(v, s)[0])
            time = first_reach(task_train_values(run, t), target, s)
            if math.isnan(time):
                ctx.warn(f"time_to_learn: task {t} never reached the expert's saturation value")
            out.append(row("time_to_learn", time, t))
            ttl.append(time)
        if ft:
            out.append(row("forward_transfer", aggregate(ft, how)))
        if ttl:
            out.append(row("time_to_learn", aggregate(ttl, how)))
        return out
