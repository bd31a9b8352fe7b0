"""The learning-curve points the dashboard draws, down-sampled so a long run stays light.

Why bins and not every episode: a million-episode run would put a million points in the page
(tens of megabytes of JSON, a chart that no longer redraws). Up to `BUDGET` points per run the
page gets one point per episode, as before; beyond it episodes are averaged in bins of a width
that doubles whenever the points would pass twice the budget, so a run never has more than
``2 * BUDGET`` points whatever its length. A bin never straddles a block (the phase bands and
the block's own curve stay exact at block edges), and its point is the mean performance of its
episodes at the bin's first episode, with ``n`` the number of episodes averaged.

Only finished bins are sent while a run is written (a bin is finished when its last episode
arrives or the next row belongs to another bin), so each row of the page is sent once; when the
width doubles, `epoch` changes and the server sends every point again (``reset``). A report,
taken once, also shows the unfinished bins (`tail`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: points per run below which every episode is its own point
BUDGET = 2500

_LABELS = ("run", "worker", "task", "kind", "phase", "block")


@dataclass
class _Bin:
    key: tuple  # the labels in `_LABELS` order
    slot: int  # first episode // width
    episode: int  # the first episode in the bin
    total: float
    n: int

    def point(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in zip(_LABELS, self.key) if v is not None}
        out["episode"] = self.episode
        out["perf"] = self.total / self.n
        out["n"] = self.n
        return out


class Curve:
    """Every run's curve points, fed row by row in episode order (per run and worker)."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.width = 1
        self.epoch = 0  # bumped whenever `points` is rebuilt (not only appended to)
        self.points: list[dict[str, Any]] = []
        self.consumed = 0  # rows fed so far
        self.last: tuple[int, float] | None = None  # (episode, perf) of the last row fed
        self._open: dict[tuple, _Bin] = {}  # (run, worker) -> its unfinished bin
        self._done: list[_Bin] = []  # the finished bins behind `points`

    def reset(self) -> None:
        """Forget every point (the log was truncated or replaced)."""
        self.__init__(self.budget)  # type: ignore[misc]
        self.epoch += 1

    def tail(self) -> list[dict[str, Any]]:
        """The unfinished bins' points (what a frozen report adds to `points`)."""
        return [b.point() for b in self._open.values()]

    def continues(self, episode: np.ndarray, perf: np.ndarray) -> bool:
        """Whether a table of ``len(episode)`` rows starts with the rows already fed."""
        if self.last is None:
            return self.consumed == 0
        if self.consumed > len(episode):
            return False
        i = self.consumed - 1
        return int(episode[i]) == self.last[0] and float(perf[i]) == self.last[1]

    def feed(self, columns: dict[str, list[Any]]) -> None:
        """Add rows given as equal-length column lists (``episode``, ``perf`` and any of the
        labels); rows must come in episode order within each run and worker."""
        episodes, perfs = columns["episode"], columns["perf"]
        n = len(episodes)
        if not n:
            return
        labels = [columns.get(k) for k in _LABELS]
        none = [None] * n
        width = self.width
        for i, key in enumerate(zip(*(c if c is not None else none for c in labels))):
            episode, perf = int(episodes[i]), float(perfs[i])
            who = key[:2]
            slot = episode // width
            current = self._open.get(who)
            if current is not None and current.key == key and current.slot == slot:
                current.total += perf
                current.n += 1
            else:
                if current is not None:
                    self._finish(current)
                current = self._open[who] = _Bin(key, slot, episode, perf, 1)
            if episode % width == width - 1:  # the bin's last episode: it is finished
                del self._open[who]
                self._finish(current)
            if len(self._done) > 2 * self.budget:
                self._double()
                width = self.width
        self.consumed += n
        self.last = (int(episodes[-1]), float(perfs[-1]))

    def _finish(self, b: _Bin) -> None:
        self._done.append(b)
        self.points.append(b.point())

    def _double(self) -> None:
        """Twice the width: merge neighbouring bins of one block into one."""
        self.width *= 2
        merged: list[_Bin] = []
        last_of: dict[tuple, int] = {}  # (run, worker) -> index of its last merged bin
        for b in self._done:
            slot = b.episode // self.width
            j = last_of.get(b.key[:2])
            if j is not None and merged[j].key == b.key and merged[j].slot == slot:
                merged[j].total += b.total
                merged[j].n += b.n
            else:
                last_of[b.key[:2]] = len(merged)
                merged.append(_Bin(b.key, slot, b.episode, b.total, b.n))
        taken = set()
        for who, b in self._open.items():  # an open bin takes in its slot's finished half
            b.slot = b.episode // self.width
            j = last_of.get(who)
            if j is not None and merged[j].key == b.key and merged[j].slot == b.slot:
                b.episode, b.total, b.n = merged[j].episode, merged[j].total + b.total, \
                    merged[j].n + b.n
                taken.add(j)
        merged = [m for i, m in enumerate(merged) if i not in taken]
        self._done = merged
        self.points = [b.point() for b in merged]
        self.epoch += 1
