"""A log of several workers, read block by block, laid over a syllabus without reading it again.

The whole-log path (`align._align_schedule`) gives each of K workers its own schedule (its share
of every block, `sylla.grammar.syllabus.schedule.share`), checks each worker's episodes against it, and
orders the run by scheduled block, then worker (in natural order of their names), then the
worker's own episode order. The streamed run (`readers.l2logger_stream`) has every worker's
episodes merged in experience order, with each episode's worker and row count
(`data.StreamedWorkers`). When each scheduled block's episodes of all workers are one stretch
of that merged run (the workers move from block to block together, as l2logger's parallel
workflow runs them), the run `_align_schedule` makes is that stretch reordered by worker: done
here one stretch at a time, so memory stays one block. Anything else (a count, task or kind
the schedule does not have, workers a block apart) returns None, and the caller reads the log
whole, where `_align_schedule` words the disagreement or marks the partial blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sylla.grammar.syllabus.schedule import schedule

from .data import RunData, column
from .readers.l2logger_files import natural_order
from .scheduled import block_kind, same_task, schedule_blocks
from .spill import SpillArray

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus

    from .data import EpisodeLog

#: episodes looked at a time when laying the schedules over the merged run
CHUNK = 1 << 20


def align_streamed_workers(log: "EpisodeLog", model: "Syllabus") -> list[RunData] | None:
    """The one streamed run of ``log`` aligned with ``model`` as `_align_schedule` aligns the
    whole log, or None where it would not (see the module docstring)."""

    assert log.runs is not None and log.workers is not None
    (run,) = log.runs
    names = log.workers.names
    k_of = len(names)
    by_name = sorted(range(k_of), key=lambda c: natural_order(names[c]))
    rank = np.empty(k_of, dtype=np.int16)  # worker code -> k, its place in natural order
    rank[by_name] = np.arange(k_of, dtype=np.int16)
    scheds = [schedule(model, workers=k_of, worker=k) for k in range(k_of)]
    ends = [np.cumsum([b.count for b in s.blocks]) for s in scheds]
    n = int(run.perf.shape[0])
    if n == 0:
        return None
    ordinal = _ordinals(log.workers.episode, rank, ends, scheds, n)
    if ordinal is None:
        return None
    # every scheduled block's episodes: one stretch of the merged run, ordinals rising
    blocks = scheds[-1].blocks
    present = np.bincount(ordinal, minlength=len(blocks))
    edges = np.r_[0, np.cumsum(present)]
    if bool((ordinal[1:] < ordinal[:-1]).any()):
        return None
    # the log's tasks and kinds (one per regime) against the schedule's, per stretch
    starts, stops = column(run.blocks, "start"), column(run.blocks, "stop")
    tasks, kinds = column(run.blocks, "task"), column(run.blocks, "kind")
    all_tasks = {b.task.lower() for b in blocks}
    for j in range(len(starts)):
        for o in np.unique(ordinal[int(starts[j]):int(stops[j])]).tolist():
            if str(kinds[j]) != block_kind(blocks[o]) or not same_task(str(tasks[j]), blocks[o],
                                                                        all_tasks):
                return None
    frame = schedule_blocks(scheds[-1], present, set())
    spilled = isinstance(run.perf, SpillArray)
    perf, exp = _new(spilled), _new(spilled)
    rows = run.rows
    row_perf = row_exp = None
    if rows is not None:
        row_perf, row_exp = _new(spilled), _new(spilled)
    row_bounds: list[tuple[int, int]] = []  # each present block's rows, in the frame's order
    a = 0
    for o in np.flatnonzero(present).tolist():
        lo, hi = int(edges[o]), int(edges[o + 1])
        order = np.argsort(rank[np.asarray(log.workers.episode[lo:hi])], kind="stable")
        perf.append(np.asarray(run.perf[lo:hi])[order])
        exp.append(np.asarray(run.exp[lo:hi])[order])
        if rows is not None and row_perf is not None and row_exp is not None:
            nrows = np.asarray(log.workers.nrows[lo:hi]).astype(np.int64)
            first = np.r_[0, np.cumsum(nrows)[:-1]][order]  # each episode's first row
            lengths = nrows[order]
            z = a + int(lengths.sum())
            at = np.repeat(first - (np.cumsum(lengths) - lengths), lengths) + np.arange(z - a)
            row_perf.append(np.asarray(rows.perf[a:z])[at])
            row_exp.append(np.asarray(rows.exp[a:z])[at])
            row_bounds.append((a, z))
            a = z
            del nrows, first, lengths, at
        del order
    data = RunData(run=run.run, perf=_done(perf), exp=_done(exp), blocks=frame)
    if rows is not None and row_perf is not None and row_exp is not None:
        out = frame.copy()
        bounds = np.array(row_bounds, dtype=np.int64).reshape(-1, 2)
        out["start"], out["stop"] = bounds[:, 0], bounds[:, 1]
        out["count"] = out["stop"] - out["start"]
        data.rows = RunData(run=run.run, perf=_done(row_perf), exp=_done(row_exp), blocks=out)
    return [data]


def _ordinals(episode: "np.ndarray | SpillArray", rank: np.ndarray, ends: list[np.ndarray],
              scheds: list, n: int) -> np.ndarray | None:
    """Each merged episode's scheduled block: its worker's schedule at the worker's own episode
    count so far; None unless every worker logged exactly its scheduled episodes."""
    counts = np.zeros(len(scheds), dtype=np.int64)
    ordinal = np.empty(n, dtype=np.int16 if len(ends[0]) < 32_000 else np.int32)
    for lo in range(0, n, CHUNK):
        k = rank[np.asarray(episode[lo:lo + CHUNK])]
        out = ordinal[lo:lo + k.size]
        for w in range(len(scheds)):
            mine = np.flatnonzero(k == w)
            own = counts[w] + np.arange(mine.size)
            counts[w] += mine.size
            if counts[w] > scheds[w].episodes:
                return None
            out[mine] = np.searchsorted(ends[w], own, side="right")
    if any(int(counts[w]) != s.episodes for w, s in enumerate(scheds)):
        return None
    return ordinal


def _new(spilled: bool) -> "SpillArray | list[np.ndarray]":
    return SpillArray(np.float64) if spilled else []


def _done(values: "SpillArray | list[np.ndarray]") -> "SpillArray | np.ndarray":
    if isinstance(values, SpillArray):
        return values
    return np.concatenate(values) if values else np.empty(0, np.float64)
