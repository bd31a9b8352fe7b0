"""The dashboard's curve points: one per episode for a short run, bins of a doubling width for
a long one, never straddling a block, the same however the rows arrive."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.watch.curve import Curve
from sylla.metrics.watch.labels import Labels


def _columns(n: int, edges: tuple[int, ...] = (), start: int = 0) -> dict[str, list]:
    episode = list(range(start, start + n))
    block = [int(np.searchsorted(edges, e, side="right")) for e in episode]
    perf = [float((e * 7919) % 101) / 10 for e in episode]
    return {"run": ["r"] * n, "worker": ["0"] * n, "episode": episode, "perf": perf,
            "task": ["Pong" if b % 2 == 0 else "Breakout" for b in block], "block": block}


def test_a_short_run_has_one_point_per_episode() -> None:
    curve = Curve(budget=100)
    rows = _columns(150)
    curve.feed(rows)
    assert [p["episode"] for p in curve.points] == rows["episode"]
    assert [p["perf"] for p in curve.points] == rows["perf"]
    assert curve.tail() == []


def test_a_long_run_stays_within_twice_the_budget_and_keeps_block_edges() -> None:
    curve = Curve(budget=50)
    edges = (333, 1000, 1001)
    rows = _columns(5000, edges)
    curve.feed(rows)
    points = curve.points + curve.tail()
    assert len(points) <= 2 * 50 + 1
    assert curve.width > 1 and curve.epoch > 0
    assert sum(p["n"] for p in points) == 5000
    total = sum(p["perf"] * p["n"] for p in points)
    assert abs(total - sum(rows["perf"])) < 1e-6
    # a bin holds one block's episodes only: each block's first episode starts a point
    starts = {p["episode"] for p in points}
    assert {0, 333, 1000, 1001} <= starts
    for p in points:
        last = p["episode"] + p["n"] - 1
        assert np.searchsorted(edges, p["episode"], side="right") == \
            np.searchsorted(edges, last, side="right")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=8))
def test_points_do_not_depend_on_how_the_rows_arrive(chunks: list[int]) -> None:
    n = sum(chunks)
    rows = _columns(n, (n // 3, n // 2))
    whole = Curve(budget=20)
    whole.feed(rows)
    pieces = Curve(budget=20)
    at = 0
    for size in chunks:
        pieces.feed({k: v[at:at + size] for k, v in rows.items()})
        at += size
    def same(a: list[dict], b: list[dict]) -> None:  # perf up to the order of summation
        assert [{**p, "perf": None} for p in a] == [{**p, "perf": None} for p in b]
        assert [p["perf"] for p in a] == pytest.approx([p["perf"] for p in b], rel=1e-12)

    same(pieces.points, whole.points)
    same(pieces.tail(), whole.tail())
    assert (pieces.width, pieces.consumed) == (whole.width, n)


def test_labels_are_the_same_whatever_the_column_type() -> None:
    """The curve takes label columns as lists, arrays, Series (text, categorical) or `Labels`
    (an update's codes); each gives the same points."""
    tasks = ["Pong"] * 3 + ["Breakout"] * 3 + ["Pong"] * 2
    kinds = ["train"] * 6 + ["test"] * 2
    episode = np.arange(8)
    perf = np.linspace(1.0, 2.0, 8)
    forms = [
        (tasks, kinds),
        (np.array(tasks, dtype=object), np.array(kinds, dtype=object)),
        (pd.Series(tasks), pd.Series(kinds, dtype="category")),
        (Labels(np.array([1, 1, 1, 0, 0, 0, 1, 1]), ("Breakout", "Pong", "unused")),
         Labels(np.array([0] * 6 + [1] * 2), ("train", "test"))),
    ]
    points = []
    for task, kind in forms:
        curve = Curve(budget=2)
        curve.feed({"episode": episode, "perf": perf, "task": task, "kind": kind,
                    "run": ["r"] * 8, "block": np.array([0] * 3 + [1] * 3 + [2] * 2)})
        points.append(curve.points + curve.tail())
    assert all(p == points[0] for p in points), points
    assert {p["task"] for p in points[0]} == {"Pong", "Breakout"}


class _EveryBin(Curve):
    """A curve that bins every bin again at each feed (what several workers' rows got before
    the tail alone was binned for them)."""

    def _bin(self, columns: dict, n: int, tail: bool) -> bool:
        return False if tail else super()._bin(columns, n, tail)


def _workers_rows(n: int, workers: int, seed: int) -> dict[str, list]:
    """``n`` experiences dealt to ``workers`` at random (one shared counter), two blocks."""
    rng = np.random.default_rng(seed)
    rows = _columns(n, (n // 2,))
    rows["worker"] = [f"w{k}" for k in rng.integers(0, workers, n)]
    return rows


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.integers(0, 99),
       st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=8))
def test_several_workers_tail_binned_as_every_bin_binned(workers: int, seed: int,
                                                         chunks: list[int]) -> None:
    """Rows of several workers are binned with the unfinished bins alone: the same points,
    in the same order, bit for bit, as binning every bin again at each feed."""
    n = sum(chunks)
    rows = _workers_rows(n, workers, seed)
    tail, every = Curve(budget=20), _EveryBin(budget=20)
    at = 0
    for size in chunks:
        piece = {k: v[at:at + size] for k, v in rows.items()}
        tail.feed(piece)
        every.feed(piece)
        at += size
        assert tail.points == every.points
        assert tail.tail() == every.tail()
        assert (tail.width, tail.epoch) == (every.width, every.epoch)
