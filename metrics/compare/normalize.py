"""Normalisation, so that tasks of different scales can be aggregated.

An IQM over tasks whose scores live on different scales is dominated by the largest scale.
Agarwal et al. (2021) aggregate normalised scores (Atari's human-normalised score); a syllabus
has no human reference, so a task's scores are divided by a reference for that task:

- a baseline group (``--normalize GROUP``): the mean score of that group's runs on the task,
  so the baseline's mean is 1 on every task and 1 is the natural optimality-gap target;
- the single-task experts (``--normalize ste``): the STE runs' mean logged performance on the
  task (`ste_reference`), the reference l2metrics' relative metrics use;
- none (``--normalize none``): scores as the sweep computed them.

A zero or non-finite reference cannot scale a task; that is an error naming the task.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import EXIT_USAGE, MetricsError
from .scores import ScoreSet


def by_reference(scores: ScoreSet, reference: dict[str, float], what: str) -> ScoreSet:
    """``scores`` with each task divided by ``reference[task]``."""
    for task in scores.tasks:
        ref = reference.get(task)
        if ref is None:
            raise MetricsError(f"{scores.metric}: {what} has no score on task {task!r}",
                               exit_code=EXIT_USAGE)
        if not np.isfinite(ref) or ref == 0:
            raise MetricsError(f"{scores.metric}: {what} scores {ref:g} on task {task!r}; "
                               f"cannot normalise by it", exit_code=EXIT_USAGE)
    for group in scores.groups.values():
        group.values = [v / reference[t] for t, v in zip(group.tasks, group.values)]
    return scores


def baseline_reference(scores: ScoreSet, baseline: str) -> dict[str, float]:
    """The baseline group's mean score per task."""
    if baseline not in scores.groups:
        raise MetricsError(f"--normalize {baseline}: not a group, nor 'ste' or 'none' (groups: "
                           f"{', '.join(scores.groups)})", exit_code=EXIT_USAGE)
    g = scores.groups[baseline]
    return {t: float(v.mean()) for t, v in zip(g.tasks, g.values)}


def ste_reference(paths: list[str], perf: str = "reward") -> dict[str, float]:
    """Each STE task's mean logged performance over its runs (``--ste`` paths, as the sweep
    and ``sylla metrics`` take them)."""
    from ..spill import gather  # noqa: PLC0415 - lazy: only --normalize ste reads logs
    from ..ste import load_ste  # noqa: PLC0415 - lazy: only --normalize ste reads logs

    if not paths:
        raise MetricsError("--normalize ste needs the single-task-expert runs: give --ste PATH",
                           exit_code=EXIT_USAGE)
    for p in paths:
        if not Path(p).exists():
            raise MetricsError("no such STE file or directory", p, exit_code=EXIT_USAGE)
    ste = load_ste(list(paths), perf=perf)
    out: dict[str, float] = {}
    for task, runs in ste.items():
        values = np.concatenate([gather(r.logged.perf, [(0, len(r.logged.perf))]).astype(np.float64)
                                 for r in runs])
        out[task] = float(np.nanmean(values)) if values.size else float("nan")
    return out


def normalize(scores: ScoreSet, how: str, ste: list[str] | None = None,
              perf: str = "reward") -> ScoreSet:
    """Apply ``--normalize`` (``none``, ``ste`` or a group name) to one metric's scores."""
    if how == "none":
        return scores
    if how == "ste":
        return by_reference(scores, ste_reference(list(ste or []), perf), "the STE runs")
    return by_reference(scores, baseline_reference(scores, how), f"baseline group {how!r}")
