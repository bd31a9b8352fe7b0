"""Score sets: the per-run rows of a sweep as groups x runs x tasks, one metric at a time.

rliable's estimators take one ``runs x tasks`` matrix per agent. A sweep does not promise a
full matrix: a metric can be infeasible for one run on one task (NaN or no row), and groups
may hold different numbers of runs. So a group's scores are kept task by task (`TaskScores`:
one array per task, each with its own run count), and every cell a full matrix would have but
the rows lack is listed in `ScoreSet.missing` by group, run and task, so that a report can
say which values were left out instead of dropping them silently (issue 26).

Lifetime rows (no task) are one task, ``(lifetime)``, for metrics that have no per-task rows;
a metric with per-task rows is compared over its tasks (its lifetime row aggregates them).
A task that some group has no value for at all cannot be compared across groups; it is
removed from every group and named in `ScoreSet.dropped_tasks`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import EXIT_USAGE, MetricsError

#: the columns of a sweep's rows that are not group keys
FIXED = ("run", "task", "block", "phase", "metric", "value", "partial")
#: the task label of lifetime rows (rows without a task): the one-task case
LIFETIME = "(lifetime)"


@dataclass(frozen=True)
class Missing:
    """One cell of the full groups x runs x tasks grid that has no finite value."""

    group: str
    run: str
    task: str
    reason: str  # "no row" or "not finite"


@dataclass
class TaskScores:
    """One group's scores: ``values[i]`` holds the runs' scores on ``tasks[i]``, in run order."""

    tasks: list[str]
    values: list[np.ndarray]
    runs: list[list[str]]

    def counts(self) -> np.ndarray:
        """Runs per task: the strata sizes of the stratified bootstrap."""
        return np.array([len(v) for v in self.values], dtype=np.int64)

    def flat(self) -> np.ndarray:
        """All scores, task after task (the layout `bootstrap` resamples)."""
        return np.concatenate(self.values) if self.values else np.empty(0)

    def matrix(self) -> np.ndarray | None:
        """``runs x tasks`` when every task has the same runs (rliable's input shape)."""
        counts = self.counts()
        if counts.size == 0 or (counts != counts[0]).any():
            return None
        return np.stack(self.values, axis=1)


@dataclass
class ScoreSet:
    """The scores of one metric for every group, over the tasks all groups have."""

    metric: str
    groups: dict[str, TaskScores]
    missing: list[Missing] = field(default_factory=list)
    dropped_tasks: list[str] = field(default_factory=list)

    @property
    def tasks(self) -> list[str]:
        first = next(iter(self.groups.values()), None)
        return list(first.tasks) if first is not None else []


def group_keys(rows: pd.DataFrame, replicate: str) -> list[str]:
    """The columns that name a group: every key column but the replicate (seed) key."""
    return [c for c in rows.columns if c not in FIXED and c != replicate]


def _task_label(task: object, phase: object) -> str:
    name = LIFETIME if task is None or pd.isna(task) else str(task)
    if phase is not None and not pd.isna(phase):
        name = f"{name} [{phase}]"
    return name


def _group_label(rec: pd.Series, keys: list[str]) -> str:
    if not keys:
        return "all"
    return "/".join("—" if pd.isna(rec[k]) else str(rec[k]) for k in keys)


def score_sets(rows: pd.DataFrame, metrics: list[str] | None = None,
               replicate: str = "seed") -> list[ScoreSet]:
    """One `ScoreSet` per metric (``metrics``, else every metric with run-level rows, sorted).

    Only run-level rows count (no block, not partial), as in the sweep's own summaries.
    """
    for col in ("run", "metric", "value", "task"):
        if col not in rows.columns:
            raise MetricsError(f"the rows have no {col!r} column: not a sweep's rows",
                               exit_code=EXIT_USAGE)
    sel = rows["block"].isna() if "block" in rows.columns else pd.Series(True, index=rows.index)
    if "partial" in rows.columns:
        sel &= ~rows["partial"].fillna(False).astype(bool)
    level = rows[sel]
    available = sorted(level["metric"].dropna().unique().tolist())
    if metrics:
        unknown = [m for m in metrics if m not in available]
        if unknown:
            raise MetricsError(f"--metric {', '.join(unknown)}: no run-level rows of this metric "
                               f"(the sweep has: {', '.join(available) or 'none'})",
                               exit_code=EXIT_USAGE)
        chosen = list(dict.fromkeys(metrics))
    else:
        chosen = available
    if not chosen:
        raise MetricsError("the sweep has no run-level metric rows to compare", exit_code=EXIT_USAGE)
    keys = group_keys(rows, replicate)
    runs = level[["run", *keys]].drop_duplicates("run")
    group_of = {r["run"]: _group_label(r, keys) for _, r in runs.iterrows()}
    group_runs: dict[str, list[str]] = {}
    for run, group in group_of.items():
        group_runs.setdefault(group, []).append(str(run))
    return [_one(level[level["metric"] == m], m, group_of, group_runs) for m in chosen]


def _one(frame: pd.DataFrame, metric: str, group_of: dict[str, str],
         group_runs: dict[str, list[str]]) -> ScoreSet:
    # A metric with per-task rows also has a lifetime row that aggregates them: counting it as
    # one more task would count the tasks twice, so the lifetime row is the one-task case only
    # for metrics that have nothing per task.
    if frame["task"].notna().any():
        frame = frame[frame["task"].notna()]
    labels = [_task_label(t, p) for t, p in zip(frame["task"], frame.get("phase", [None] * len(frame)))]
    cells: dict[tuple[str, str], float] = {}
    for run, task, value in zip(frame["run"].astype(str), labels, frame["value"]):
        v = float(value) if value is not None and not pd.isna(value) else float("nan")
        cells[(run, task)] = v
    tasks = sorted(set(labels), key=lambda t: (t == LIFETIME, t))
    missing: list[Missing] = []
    groups: dict[str, TaskScores] = {}
    empty: set[str] = set()
    for group in sorted(group_runs):
        scores = TaskScores(tasks=[], values=[], runs=[])
        for task in tasks:
            vals: list[float] = []
            names: list[str] = []
            for run in group_runs[group]:
                got = cells.get((run, task))
                if got is None or not np.isfinite(got):
                    missing.append(Missing(group, run, task, "no row" if got is None else "not finite"))
                    continue
                vals.append(got)
                names.append(run)
            if not vals:
                empty.add(task)
            scores.tasks.append(task)
            scores.values.append(np.asarray(vals, dtype=np.float64))
            scores.runs.append(names)
        groups[group] = scores
    dropped = [t for t in tasks if t in empty]
    if dropped:
        for scores in groups.values():
            keep = [i for i, t in enumerate(scores.tasks) if t not in empty]
            scores.tasks = [scores.tasks[i] for i in keep]
            scores.values = [scores.values[i] for i in keep]
            scores.runs = [scores.runs[i] for i in keep]
    return ScoreSet(metric=metric, groups=groups, missing=missing, dropped_tasks=dropped)


def from_matrices(metric: str, matrices: dict[str, np.ndarray],
                  tasks: list[str] | None = None) -> ScoreSet:
    """A score set from rliable-shaped ``runs x tasks`` matrices (for the API, the oracle test
    and the benchmark, which feed the same matrices to rliable)."""
    groups: dict[str, TaskScores] = {}
    for name, m in matrices.items():
        m = np.asarray(m, dtype=np.float64)
        if m.ndim != 2:
            raise MetricsError(f"{name}: scores must be runs x tasks, got shape {m.shape}",
                               exit_code=EXIT_USAGE)
        names = tasks or [f"task{j}" for j in range(m.shape[1])]
        groups[name] = TaskScores(tasks=list(names), values=[m[:, j].copy() for j in range(m.shape[1])],
                                  runs=[[f"run{i}" for i in range(m.shape[0])]] * m.shape[1])
    return ScoreSet(metric=metric, groups=groups)
