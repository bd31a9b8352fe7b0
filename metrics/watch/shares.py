"""Each worker's episodes of a followed run, and the run `align` makes of them.

Why: the workers of an l2logger run share one experience counter and write at once, each its
own share of every block (`sylla.grammar.syllabus.schedule.share`). `align` orders the run by
scheduled block, then worker (in natural order of their names), then the worker's own
episodes, so rows appended by several workers land inside the last blocks of that order, not
at its end. Each worker's episodes (and logged rows) grow at their own end here; the run is
their blocks laid side by side again: one slice per block and worker, a copy of the run's
arrays (a millisecond per million episodes), while reading, checking and aligning cost only
the appended rows. With one worker the run is that worker's arrays, not a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sylla.metrics.data import RunData, column

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

    def __post_init__(self) -> None:
        self.bounds = np.array([(b.start, b.end) for b in self.sched.blocks],
                               dtype=np.int64).reshape(-1, 2)

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


def lay_out(shares: list[Share], run: str, blocks: "Columns", partial: bool) -> RunData:
    """The run `align` makes of the workers' episodes (``blocks``: its block table for them;
    ``partial``: whether a block is)."""
    if len(shares) == 1:
        (one,) = shares
        data = RunData(run=run, perf=one.perf.values, exp=one.exp.values, blocks=blocks,
                       partial=partial)
        if one.logged is not None:
            data.rows = one.logged.view(data)
        return data
    spans = [(s, int(a), int(z)) for b in range(len(shares[0].bounds)) for s in shares
             for a, z in [np.clip(s.bounds[b], 0, s.n)] if z > a]
    data = RunData(run=run, perf=np.concatenate([s.perf.values[a:z] for s, a, z in spans]),
                   exp=np.concatenate([s.exp.values[a:z] for s, a, z in spans]), blocks=blocks,
                   partial=partial)
    if shares[0].logged is not None:
        rows = [(s.logged, int(s.logged.ends[a]), int(s.logged.ends[z])) for s, a, z in spans
                if s.logged is not None]
        counts = np.array([z - a for _, a, z in rows], dtype=np.int64)
        # rows_view's block table: each block's rows, the blocks as `blocks` has them
        ends = np.r_[0, np.cumsum(counts)]
        episode_ends = np.r_[0, np.cumsum([z - a for _, a, z in spans])]
        table = blocks.copy()
        table["start"] = ends[np.searchsorted(episode_ends, column(blocks, "start"))]
        table["stop"] = ends[np.searchsorted(episode_ends, column(blocks, "stop"))]
        table["count"] = table["stop"] - table["start"]
        data.rows = RunData(run=run, perf=np.concatenate([g.perf[a:z] for g, a, z in rows]),
                            exp=np.concatenate([g.exp[a:z] for g, a, z in rows]), blocks=table,
                            partial=partial)
    return data
