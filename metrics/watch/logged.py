"""The logged rows of a followed run whose experiences have several rows each (agents that log
per step or per evaluation episode): `RunData.rows`, grown with the run.

Why: the l2metrics-named metrics are computed over the logged rows, not over the episodes
(`sylla.metrics.data.rows_view`). A single worker's rows are already in episode order, so the
row-level run is the rows as read, each episode's experience number repeated over its rows,
and the block table with row ranges; grown in place here, an update costs its own rows.
"""

from __future__ import annotations

import numpy as np

from sylla.metrics.data import RunData, column

from .growing import Growing


class LoggedRows:
    """``perf`` and ``exp`` per logged row; ``ends[i]``: the rows before episode ``i``."""

    def __init__(self, perf: np.ndarray, exp: np.ndarray, nrows: np.ndarray) -> None:
        """``perf`` and ``exp`` of each row, ``nrows`` of each episode."""
        self._perf = Growing(np.asarray(perf, dtype=np.float64))
        self._exp = Growing(np.asarray(exp, dtype=np.float64))
        self._ends = Growing(np.r_[0, np.cumsum(nrows, dtype=np.int64)], np.int64)
        self.perf, self.exp, self.ends = self._perf.values, self._exp.values, self._ends.values

    def extend(self, perf: np.ndarray, exp: np.ndarray, nrows: np.ndarray) -> None:
        """Append episodes of ``nrows`` rows each (``perf``: their rows, ``exp``: theirs)."""
        nrows = np.asarray(nrows, dtype=np.int64)
        self.perf = self._perf.extend(perf)
        self.exp = self._exp.extend(np.repeat(np.asarray(exp, dtype=np.float64), nrows))
        self.ends = self._ends.extend(self.ends[-1] + np.cumsum(nrows))

    def view(self, run: RunData) -> RunData:
        """``run``'s rows as `rows_view` gives them for episodes in log order."""
        blocks = run.blocks.copy()
        blocks["start"] = self.ends[column(blocks, "start").astype(np.int64)]
        blocks["stop"] = self.ends[column(blocks, "stop").astype(np.int64)]
        blocks["count"] = blocks["stop"] - blocks["start"]
        return RunData(run=run.run, perf=self.perf, exp=self.exp, blocks=blocks,
                       partial=run.partial)
