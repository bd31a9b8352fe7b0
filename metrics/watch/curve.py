"""The learning-curve points the dashboard draws, down-sampled so a long run stays light.

Why bins and not every episode: a million-episode run would put a million points in the page
(tens of megabytes of JSON, a chart that no longer redraws). Up to `BUDGET` episodes the page
gets one point per episode, as before; beyond it episodes are averaged in bins: the consecutive
episodes of one run and worker with the same labels (task, kind, phase, block) and the same
``episode // width``, where the width is the smallest power of two that keeps the finished bins
within ``2 * BUDGET`` (so it only ever doubles as the run grows, and the points are the same
however the rows arrived). A bin never straddles a block (the phase bands and the block's own
curve stay exact at block edges), and its point is the mean performance of its episodes at the
bin's first episode, with ``n`` the number of episodes averaged.

Vectorised (numpy over the new rows, a Python loop only over the few thousand bins): a
million-row log is binned in well under a second.

Only finished bins are sent while a run is written (a bin is finished when its last episode
arrives or the next row belongs to another bin), so each row of the page is sent once; when the
width doubles, `epoch` changes and the server sends every point again (``reset``). A report,
taken once, also shows the unfinished bins (`tail`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .labels import Labels

#: points per run below which every episode is its own point
BUDGET = 2500

_LABELS = ("run", "worker", "task", "kind", "phase", "block")


@dataclass
class _Bin:
    key: tuple  # the labels in `_LABELS` order
    episode: int  # the first episode in the bin
    last: int  # the last episode in the bin
    total: float
    n: int

    def point(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in zip(_LABELS, self.key) if v is not None}
        out["episode"] = self.episode
        out["perf"] = self.total / self.n
        out["n"] = self.n
        return out


#: labels shown as text (the block number stays a number)
_TEXT = {"run", "worker", "task", "kind", "phase"}


def _label(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in _TEXT:
        return str(value)
    return value.item() if hasattr(value, "item") else value


def _new_keys(columns: dict[str, Any], n: int) -> tuple[np.ndarray, list[tuple]]:
    """One integer code per new row for its labels, and the label tuple of each code: pandas'
    factorize per column (fast on the reader's categorical and Arrow columns), then over the
    combined codes; a Python tuple per row would cost seconds on a million rows."""

    combined = np.zeros(n, dtype=np.int64)
    present = []
    for name in _LABELS:
        values = columns.get(name)
        if values is None:
            continue
        if isinstance(values, Labels):  # codes already: values no row uses are harmless
            codes, found = values.codes, values.values
        else:
            codes, found = pd.factorize(pd.Series(values) if isinstance(values, list)
                                        else values, use_na_sentinel=False)
        combined = combined * (len(found) + 1) + np.asarray(codes, dtype=np.int64)
        present.append((name, found))
    key_codes, found = pd.factorize(combined)
    first = np.zeros(len(found), dtype=np.int64)  # each key's first row
    first[key_codes[::-1]] = np.arange(n - 1, -1, -1)
    # each label column's value at those rows, taken at once (a scalar ``iloc`` per key and
    # column cost ~0.15 s for a re-fed table of a thousand keys)
    got = {name: _take(columns[name], first) for name, _ in present}
    labels = [tuple(_label(k, got[k][i] if k in got else None) for k in _LABELS)
              for i in range(len(first))]
    return np.asarray(key_codes, dtype=np.int64), labels


def _take(values: Any, rows: np.ndarray) -> list[Any]:
    """``values[r]`` for each of ``rows`` (a list, an array, a Series or `Labels`)."""
    if isinstance(values, Labels):
        return [values.values[c] for c in values.codes[rows].tolist()]
    if hasattr(values, "iloc"):
        return list(values.iloc[rows])
    if isinstance(values, np.ndarray):
        return list(values[rows])
    return [values[r] for r in rows.tolist()]


class Curve:
    """Every run's curve points, fed rows in episode order (per run and worker)."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.width = 1
        self.epoch = 0  # bumped whenever `points` is rebuilt (not only appended to)
        self.points: list[dict[str, Any]] = []
        self.consumed = 0  # rows fed so far
        self.last: tuple[int, float] | None = None  # (episode, perf) of the last row fed
        self._done: list[_Bin] = []  # the finished bins behind `points`
        self._done_n = 0  # the episodes in them (not summed again at every update)
        self._open: list[_Bin] = []  # each worker's last bin while it may still grow
        self._workers: set[tuple] = set()  # the (run, worker) pairs fed so far
        #: each (run, worker) with finished bins, by its first bin's place in `_done`: the
        #: order binning every bin again gives the workers, kept for binning the tail alone
        self._done_rank: dict[tuple, int] = {}

    def reset(self) -> None:
        """Forget every point (the log was truncated or replaced)."""
        epoch = self.epoch
        self.__init__(self.budget)  # type: ignore[misc]  # one place sets every field: reset is a fresh curve with the next epoch
        self.epoch = epoch + 1

    def tail(self) -> list[dict[str, Any]]:
        """The unfinished bins' points (what a frozen report adds to `points`)."""
        return [b.point() for b in self._open]

    def continues(self, episode: np.ndarray, perf: np.ndarray) -> bool:
        """Whether a table of ``len(episode)`` rows starts with the rows already fed."""
        if self.last is None:
            return self.consumed == 0
        if self.consumed > len(episode):
            return False
        i = self.consumed - 1
        return int(episode[i]) == self.last[0] and float(perf[i]) == self.last[1]

    def feed(self, columns: dict[str, Any]) -> None:
        """Add rows given as equal-length columns (lists, arrays or Series: ``episode``,
        ``perf`` and any of the labels); rows must come in episode order within each run and
        worker."""
        n = len(columns["episode"])
        if not n:
            return
        if not self._bin(columns, n, tail=True):
            self._bin(columns, n, tail=False)
        self.consumed += n
        self.last = (int(np.asarray(columns["episode"])[-1]),
                     float(np.asarray(columns["perf"], dtype=np.float64)[-1]))

    def _bin(self, columns: dict[str, Any], n: int, tail: bool) -> bool:
        """Bin the new rows with the bins that may still grow (``tail``: only the unfinished
        bins, the finished ones keeping their width), or with every bin.
        Returns False, changing nothing, when ``tail`` cannot give what binning every bin
        gives: no finished bin yet, or a width that must double (every finished bin is merged
        again). Several workers' bins are ordered as binning every bin orders them: workers
        by their first finished bin (`_done_rank`), then by their first bin or row here."""
        old = self._open if tail else self._done + self._open
        # every bin and every new row as a weighted row: (key, first, last, total, n)
        new_codes, new_keys = _new_keys(columns, n)
        index: dict[tuple, int] = {}
        old_codes = [index.setdefault(b.key, len(index)) for b in old]
        mapping = np.array([index.setdefault(k, len(index)) for k in new_keys], dtype=np.int64)
        key_values = list(index)
        key_codes = np.concatenate([np.array(old_codes, dtype=np.int64), mapping[new_codes]])
        who_of_key: dict[tuple, int] = dict(self._done_rank) if tail else {}
        who = np.array([who_of_key.setdefault(k[:2], len(who_of_key)) for k in key_values],
                       dtype=np.int64)[key_codes]
        if tail and not self._done:
            return False
        first_new = np.asarray(columns["episode"], dtype=np.int64)
        perf_new = np.asarray(columns["perf"], dtype=np.float64)
        first = np.concatenate([np.array([b.episode for b in old], dtype=np.int64), first_new])
        last = np.concatenate([np.array([b.last for b in old], dtype=np.int64), first[len(old):]])
        total = np.concatenate([np.array([b.total for b in old], dtype=np.float64), perf_new])
        count = np.concatenate([np.array([b.n for b in old], dtype=np.int64),
                                np.ones(n, dtype=np.int64)])
        if len(who) and (who != who[0]).any():  # each worker's rows together, in their order
            order = np.argsort(who, kind="stable")
            key_codes, who, first, last, total, count = (a[order] for a in (
                key_codes, who, first, last, total, count))
        width = self.width
        kept = len(self._done) if tail else 0  # finished bins left as they are
        # widths that surely keep too many bins are skipped without grouping: a bin holds at
        # most `width` episodes and each worker has at most one unfinished bin
        episodes = int(count.sum()) + (self._done_n if tail else 0)
        workers = len(self._workers.union(who_of_key))
        while -(-episodes // width) - workers > 2 * self.budget:
            if tail:
                return False
            width *= 2
        while True:
            starts, done = self._groups(key_codes, who, first, last, width)
            if kept + done <= 2 * self.budget:
                break
            if tail:
                return False
            width *= 2
        self._workers |= set(who_of_key)
        ends = np.r_[starts[1:], len(first)]
        bins = [_Bin(key_values[c], a, z, t, k)
                for c, a, z, t, k in zip(key_codes[starts].tolist(), first[starts].tolist(),
                                         last[ends - 1].tolist(),
                                         np.add.reduceat(total, starts).tolist(),
                                         np.add.reduceat(count, starts).tolist())]
        is_open = self._open_mask(who, last, starts, width)
        finished = [b for b, o in zip(bins, is_open) if not o]
        self._open = [b for b, o in zip(bins, is_open) if o]
        if width != self.width:
            self.width = width
            self.epoch += 1
            self._done, self._done_rank, self.points, self._done_n = [], {}, [], 0
            new = finished
        elif tail:  # the finished bins of the tail all follow those kept
            new = finished
        else:  # the finished bins come first in each worker's order and are unchanged
            known = {(b.key, b.episode) for b in self._done}
            new = [b for b in finished if (b.key, b.episode) not in known]
        self._done.extend(new)
        self._done_n += sum(b.n for b in new)
        self.points.extend(b.point() for b in new)
        for b in new:
            self._done_rank.setdefault(b.key[:2], len(self._done_rank))
        return True

    @staticmethod
    def _groups(key_codes: np.ndarray, who: np.ndarray, first: np.ndarray, last: np.ndarray,
                width: int) -> tuple[np.ndarray, int]:
        """Where each bin starts at ``width``, and how many bins are finished."""
        slot = first // width
        change = np.ones(len(first), dtype=bool)
        change[1:] = ((who[1:] != who[:-1]) | (key_codes[1:] != key_codes[:-1])
                      | (slot[1:] != slot[:-1]))
        starts = np.flatnonzero(change)
        is_open = Curve._open_mask(who, last, starts, width)
        return starts, int(len(starts) - is_open.sum())

    @staticmethod
    def _open_mask(who: np.ndarray, last: np.ndarray, starts: np.ndarray,
                   width: int) -> np.ndarray:
        """Bins that may still grow: a worker's last bin, unless its slot's last episode is in."""
        ends = np.r_[starts[1:], len(last)]
        final = np.r_[who[starts][1:] != who[starts][:-1], True]  # a worker's last bin
        return final & (last[ends - 1] % width != width - 1)
