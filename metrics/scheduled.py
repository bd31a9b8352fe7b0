"""A schedule's blocks as the aligner lays them over a log: each block's kind (train/test),
the log task names that mean its task, and the block table of a run aligned with a schedule.

Held apart from `sylla.metrics.align` because three followers of the schedule use them
without the aligner: the aligner of logs of several workers (`align_workers`), and the watch's
incremental block table and conformance check.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .data import BLOCK_COLUMNS

if TYPE_CHECKING:
    from sylla.grammar.syllabus.schedule import Schedule, ScheduledBlock


def block_kind(block: "ScheduledBlock") -> str:
    if block.learning is False:
        return "test"
    if block.learning is True:
        return "train"
    if block.phase is not None and block.phase.kind in ("train", "test"):
        return block.phase.kind
    return "train"


def accepted_names(block: "ScheduledBlock", all_tasks: set[str]) -> set[str]:
    """Lower-case log task names that mean this block's task, or None for "any variant".

    Exact names; learnkit's ``<package>_<module>_<class>`` for a ``$package:Class`` reference
    (learnkit wrote ``$minigridkit:Minigrid6x6`` as ``minigridkit_minigridkit_minigrid6x6``).
    l2logger variants are ``<task>_<variant>`` (l2metrics' variant-agnostic mode keeps the part
    before the first underscore); see `same_task`.
    """
    names = {block.task.lower()}
    module = getattr(block.block, "module", None)
    if module:
        names.add(f"{module}_{module}_{block.task}".lower())
    return names


def same_task(log_task: str, block: "ScheduledBlock", all_tasks: set[str]) -> bool:
    """Whether a log's task name is this block's task, by the conventions in `accepted_names`.

    A variant suffix is accepted only if it is not itself a task of the syllabus: ``Pong_v0``
    is Pong, ``Pong_Breakout`` in a syllabus with Breakout is neither.
    """
    low = log_task.lower()
    if low in accepted_names(block, all_tasks):
        return True
    base, sep, variant = low.partition("_")
    return bool(sep) and base == block.task.lower() and variant not in all_tasks and bool(variant)


def schedule_blocks(sched: "Schedule", present: np.ndarray,
                     partial_blocks: set[int]) -> pd.DataFrame:
    """The block table of a run aligned with a schedule: the scheduled blocks that have
    episodes (``present`` of them each), in schedule order."""
    stops = np.cumsum(present)
    rows: list[dict[str, Any]] = []
    for b in sched.blocks:
        count = int(present[b.ordinal])
        if count == 0:
            continue
        phase = b.phase
        rows.append({
            "block": b.ordinal, "task": b.task, "phase": phase.label if phase else "",
            "phase_number": phase.number if phase and phase.number is not None else -1,
            "kind": block_kind(b), "subtype": "wake", "learning": b.learning,
            "params": json.dumps(dict(b.params), sort_keys=True, default=str),
            "start": int(stops[b.ordinal] - count), "stop": int(stops[b.ordinal]),
            "count": count, "partial": b.ordinal in partial_blocks,
        })
    return pd.DataFrame(rows, columns=list(BLOCK_COLUMNS))
