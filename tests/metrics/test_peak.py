"""A finished block's saturation without smoothing every experience mean (`sylla.metrics.peak`):
the same numbers as smoothing the block whole, and the whole smoothing left to blocks still
being written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.preprocess import l2m_saturation

SPECIAL = st.sampled_from([-0.0, 0.0, np.nan, np.inf, -np.inf, 1e300, -1e300, 5e-324, 1e-200])


@st.composite
def _blocks(draw: st.DrawFn) -> np.ndarray:
    """Experience means of the shapes a block takes: noise, a learning curve, a plateau of
    ties, a step, a constant, with special values dropped in here and there."""
    n = draw(st.integers(16, 900))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    i = np.arange(n)
    shape = draw(st.sampled_from(["noise", "curve", "ties", "step", "constant", "offset"]))
    x = {"noise": lambda: rng.normal(50, 10, n),
         "curve": lambda: 1 + 100 * (1 - np.exp(-5 * i / n)) + rng.normal(0, 1, n),
         "ties": lambda: np.round(rng.normal(3, 1, n), 0),
         "step": lambda: np.where(i < n // 2, 1.0, 2.0),
         "constant": lambda: np.full(n, draw(st.floats(allow_nan=False))),
         "offset": lambda: 1e6 + rng.normal(0, 1e-9, n)}[shape]()
    for _ in range(draw(st.integers(0, 3))):
        x[draw(st.integers(0, n - 1))] = draw(SPECIAL)
    return x


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_blocks())
def test_the_peak_is_the_saturation_of_the_whole_smoothing_bit_for_bit(x: np.ndarray) -> None:
    """`l2m_peak` gives `l2m_saturation`'s maximum and first place, bit for bit, for blocks of
    every shape, with NaN, infinities, signed zeros and values near overflow and underflow
    among them (the shortcut taken from 16 means on and its moving sums in pieces of 7, so
    that it is what is tested)."""
    from sylla.metrics import peak

    with pytest.MonkeyPatch.context() as patch, np.errstate(all="ignore"):
        patch.setattr(peak, "SHORTEST", 16)
        patch.setattr(peak, "ROLLING_PIECE", 7)  # the moving sums in several pieces
        got = peak.l2m_peak(x)
        expected = l2m_saturation(x)
    assert np.array(got).tobytes() == np.array(expected).tobytes()


def test_a_finished_blocks_saturation_smooths_no_mean_and_a_written_one_is_smoothed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sylla metrics`` takes the saturation of a finished block of 10,000 experiences
    without smoothing its means (`l2m_peak`), and smooths those of the block a partial log is
    still writing (which a followed run extends, `Blocks.grown`); the numbers are those of
    the whole smoothing."""
    import sylla.metrics.plugins.l2m as l2m
    from sylla.metrics import compute_metrics
    from sylla.metrics.synth import write_l2logger

    plan = [("train", [("Pong", 10_000)]), ("test", [("Pong", 5_000)]),
            ("train", [("Breakout", 10_000)])]
    run = write_l2logger(tmp_path / "run", plan, rows_per_exp=2)
    syllabus = tmp_path / "syllabus.json"
    syllabus.write_text(json.dumps({"name": "s", "author": "a", "contains": "episodes",
                                    "default_params": {}, "instructions": [
        {"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 10_000},
        {"$phase": "1.test"}, {"$info": {"disable_updates": True}},
        {"$repeat": {"$episode": "Pong"}, "count": 5_000}, {"$info": {}},
        {"$phase": "2.train"}, {"$repeat": {"$episode": "Breakout"}, "count": 20_000}]}))
    smoothed: list[int] = []
    whole = l2m.l2m_smooth

    def counted(x: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        smoothed.append(x.size)
        return whole(x, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(l2m, "l2m_smooth", counted)
    result = compute_metrics(run, str(syllabus), allow_partial=True, progress=False)
    assert smoothed == [10_000]  # the Breakout block, half written
    rows = result.rows
    sat = rows[(rows["metric"] == "saturation") & rows["block"].notna()]
    expected = []
    prepared = l2m.regimes(_context(result)).prepared
    for a, z in zip(prepared.run.blocks["start"], prepared.run.blocks["stop"]):
        means = l2m.exp_means(prepared.run.perf[a:z], prepared.run.exp[a:z])
        expected.append(l2m_saturation(means)[0])
    assert len(expected) == 3 and sat["value"].tolist() == expected


def _context(result):  # type: ignore[no-untyped-def]
    from sylla.metrics.registry import Context

    return Context(run=result.runs[0], ste={}, params=result.params)
