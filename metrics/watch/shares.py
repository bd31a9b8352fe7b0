"""Each worker's episodes of a followed run, and the run `align` makes of them.

Why: the workers of an l2logger run share one experience counter and write at once, each its
own share of every block (`sylla.grammar.syllabus.schedule.share`). `align` orders the run by
scheduled block, then worker (in natural order of their names), then the worker's own
episodes, so rows appended by several workers land inside the last blocks of that order, not
at its end. Each worker's episodes (and logged rows) grow at their own end here; the run is
their blocks laid side by side again (`Layout`: one piece per block and worker, written again
from the first piece that changed), so reading, checking, aligning and laying out cost the
appended rows and the blocks they land in. With one worker the run is that worker's arrays,
not a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sylla.metrics.data import RunData, column
from sylla.metrics.scheduled import block_kind

from .growing import Growing
from .logged import LoggedRows

if TYPE_CHECKING:
    from sylla.grammar.syllabus.schedule import Schedule
    from sylla.metrics.data import Columns


@dataclass
class Share:
    """One worker's episodes in its order, with its own schedule."""

    name: str
    sched: "Schedule"
    perf: Growing
    exp: Growing
    #: its logged rows, in a log whose experiences have several (`RunData.rows`)
    logged: LoggedRows | None = None
    #: each scheduled block's [start, stop) in the worker's episodes (its schedule's)
    bounds: np.ndarray = field(init=False)
    #: each scheduled block's task (lower-case, as align compares names), kind (`block_kind`)
    #: and phase label ("" for none): what its appended rows are checked against
    planned: dict[str, list[str]] = field(init=False)

    def __post_init__(self) -> None:
        blocks = self.sched.blocks
        self.bounds = np.array([(b.start, b.end) for b in blocks],
                               dtype=np.int64).reshape(-1, 2)
        self.planned = {"task": [b.task.lower() for b in blocks],
                        "kind": [block_kind(b) for b in blocks],
                        "phase": [b.phase_label or "" for b in blocks]}

    @property
    def n(self) -> int:
        return len(self.perf.values)

    def extend(self, perf: np.ndarray, exp: np.ndarray, row_perf: np.ndarray | None,
               nrows: np.ndarray | None) -> None:
        self.perf.extend(np.asarray(perf, dtype=np.float64))
        self.exp.extend(np.asarray(exp, dtype=np.float64))
        if self.logged is not None:
            assert row_perf is not None and nrows is not None
            self.logged.extend(row_perf, exp, nrows)

    def present(self) -> np.ndarray:
        """Its episodes in each scheduled block."""
        return np.clip(self.bounds[:, 1], 0, self.n) - np.clip(self.bounds[:, 0], 0, self.n)


class Layout:
    """The run `align` makes of the workers' episodes, laid out anew at each update in arrays
    kept from the last one: the pieces (one per block and worker) before the first piece
    that changed stay where they are, and only that piece and those after it are written
    again. Rows appended by several workers land in the last blocks of align's order, so an
    update writes those blocks, not the run (a copy of the whole run and a comparison of it
    with the last one were 8-11 ms an update on a million episodes).

    The arrays are written in place: a run laid out earlier sees the rows of the next from
    its first changed piece on. So the caller tells the memo which blocks changed
    (`BlockMemo.vouch`) instead of letting it compare the rows with those of the last
    run, and keeps no earlier run (the follower keeps only its document)."""

    def __init__(self) -> None:
        self._spans: list[tuple[int, int, int]] = []  # (share, a, z) as last laid out
        self._arrays: dict[str, _InPlace] = {}

    def __call__(self, shares: list[Share], run: str, blocks: "Columns",
                 partial: bool) -> RunData:
        """The run `align` makes of the workers' episodes (``blocks``: its block table for
        them; ``partial``: whether a block is)."""
        if len(shares) == 1:  # the worker's growing arrays, never written over
            (one,) = shares
            data = RunData(run=run, perf=one.perf.values, exp=one.exp.values, blocks=blocks,
                           partial=partial)
            if one.logged is not None:
                data.rows = one.logged.view(data)
            return data
        spans = _spans(shares)
        same = 0  # the pieces laid out as last time, from the first
        for old, new in zip(self._spans, spans):
            if old != new:
                break
            same += 1
        self._spans = spans
        perf = self._write("perf", [s.perf.values for s in shares], spans, same)
        exp = self._write("exp", [s.exp.values for s in shares], spans, same)
        data = RunData(run=run, perf=perf, exp=exp, blocks=blocks, partial=partial)
        if shares[0].logged is not None:
            logged = [s.logged for s in shares]
            rows = [(k, int(g.ends[a]), int(g.ends[z])) for k, a, z in spans
                    for g in [logged[k]] if g is not None]
            data.rows = _rows_view(
                run, blocks, partial, spans, rows,
                self._write("row_perf", [g.perf if g is not None else _EMPTY for g in logged],
                            rows, same),
                self._write("row_exp", [g.exp if g is not None else _EMPTY for g in logged],
                            rows, same))
        return data

    def _write(self, name: str, sources: list[np.ndarray], spans: list[tuple[int, int, int]],
               same: int) -> np.ndarray:
        array = self._arrays.setdefault(name, _InPlace())
        return array.write(sum(z - a for _, a, z in spans[:same]),
                           [sources[k][a:z] for k, a, z in spans[same:]])


class _InPlace:
    """A float64 array rewritten from an offset on, with room to grow (a quarter more)."""

    def __init__(self) -> None:
        self._buffer = np.empty(0, dtype=np.float64)

    def write(self, offset: int, pieces: list[np.ndarray]) -> np.ndarray:
        """The values before ``offset`` as they are, then ``pieces``; a read-only view."""
        n = offset + sum(len(p) for p in pieces)
        if n > len(self._buffer):
            grown = np.empty(n * 5 // 4 + 1024, dtype=np.float64)
            grown[:offset] = self._buffer[:offset]
            self._buffer = grown
        at = offset
        for piece in pieces:
            self._buffer[at: at + len(piece)] = piece
            at += len(piece)
        view = self._buffer[:n]
        view.flags.writeable = False
        return view


_EMPTY = np.empty(0, dtype=np.float64)


def _spans(shares: list[Share]) -> list[tuple[int, int, int]]:
    """The pieces of the run in align's order: block, then worker, each a worker's episodes
    ``[a, z)`` in that block. Each worker's bounds are clipped in one call: one `np.clip` a
    block and worker was ~7 microseconds, 2 ms of an update of 99 blocks and 3 workers."""
    clipped = [np.clip(s.bounds, 0, s.n).tolist() for s in shares]
    return [(k, a, z) for b in range(len(shares[0].bounds))
            for k, bounds in enumerate(clipped)
            for a, z in [bounds[b]] if z > a]


def _rows_view(run: str, blocks: "Columns", partial: bool, spans: list[tuple[int, int, int]],
               rows: list[tuple[int, int, int]], perf: np.ndarray, exp: np.ndarray) -> RunData:
    """The row-level run (`RunData.rows`) of laid-out pieces: its block table has each
    block's rows, the blocks as ``blocks`` has them."""
    counts = np.array([z - a for _, a, z in rows], dtype=np.int64)
    ends = np.r_[0, np.cumsum(counts)]
    episode_ends = np.r_[0, np.cumsum([z - a for _, a, z in spans])]
    table = blocks.copy()
    table["start"] = ends[np.searchsorted(episode_ends, column(blocks, "start"))]
    table["stop"] = ends[np.searchsorted(episode_ends, column(blocks, "stop"))]
    table["count"] = table["stop"] - table["start"]
    return RunData(run=run, perf=perf, exp=exp, blocks=table, partial=partial)
