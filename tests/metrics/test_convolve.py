"""`convolve_valid` against ``np.convolve(..., "valid")`` itself, bit for bit: the stretches it
cuts the outputs into must not move a single output's rounding (l2metrics' smoothing is
compared with l2metrics to the last bit, tests/metrics/test_parity_l2metrics.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics import convolve, preprocess
from sylla.metrics.convolve import convolve_valid
from sylla.metrics.preprocess import WINDOWS, l2m_smooth, rolling, window_weights


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 100), st.integers(0, 3000), st.sampled_from(WINDOWS), st.integers(0, 2**32 - 1),
       st.integers(2, 5), st.integers(1, 300))
def test_stretches_give_the_bits_of_one_convolution(w, extra, shape, seed, cores, stretch):
    values = np.random.default_rng(seed).normal(size=w + 1 + extra) * 1e3
    weights = window_weights(shape, w)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convolve, "STRETCH", stretch)
        patch.setattr(convolve, "cores", lambda: cores)
        got = convolve_valid(weights, values)
    expected = np.convolve(weights, values, mode="valid")
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))


def test_a_long_block_is_cut_into_stretches(monkeypatch):
    """The split happens (the bits test above would pass without it too)."""
    calls = []
    real = np.convolve
    monkeypatch.setattr(convolve, "cores", lambda: 2)
    monkeypatch.setattr(convolve.np, "convolve", lambda a, v, mode: calls.append(v.size) or real(a, v, mode))
    out = convolve_valid(window_weights("flat", 100), np.arange(4 * convolve.STRETCH + 99, dtype=float))
    assert len(calls) == 2 and sum(calls) == out.size + 2 * 99


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 100), st.integers(0, 3000), st.sampled_from(WINDOWS), st.integers(0, 2**32 - 1),
       st.integers(1, 3), st.integers(1, 300), st.integers(1, 400))
def test_pieces_written_into_out_give_the_bits_of_one_convolution(w, extra, shape, seed, cores,
                                                                  stretch, piece):
    """Convolved a piece at a time into the caller's array (issue 40: no temporaries of the
    block's length), every output is still the whole convolution's, pieces of one output
    included."""
    values = np.random.default_rng(seed).normal(size=w + 1 + extra) * 1e3
    weights = window_weights(shape, w)
    expected = np.convolve(weights, values, mode="valid")
    out = np.full(expected.size + 2, np.nan)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convolve, "STRETCH", stretch)
        patch.setattr(convolve, "PIECE", piece)
        patch.setattr(convolve, "cores", lambda: cores)
        got = convolve_valid(weights, values, out=out[1:-1])
    assert got.base is out
    assert np.isnan(out[0]) and np.isnan(out[-1])
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))


def test_a_long_block_is_convolved_in_bounded_pieces(monkeypatch):
    """No ``np.convolve`` call sees more than `PIECE` outputs' values, whatever the block's
    length and the cores (the bits tests would pass with one call too)."""
    calls = []
    real = np.convolve
    monkeypatch.setattr(convolve, "cores", lambda: 1)
    monkeypatch.setattr(convolve, "PIECE", 1000)
    monkeypatch.setattr(convolve.np, "convolve", lambda a, v, mode: calls.append(v.size) or real(a, v, mode))
    out = convolve_valid(window_weights("flat", 100), np.arange(10_500 + 99, dtype=float))
    assert len(calls) == 11 and max(calls) == 1000 + 99 and out.size == 10_500


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(-0.0), st.integers(-5, 5)), max_size=60),
       st.integers(2, 12))
def test_rolling_is_the_difference_of_running_sums_from_zero(xs, w):
    """`rolling`'s definition: running sums from ``0.0`` (so ``-0.0`` values sum as numpy sums
    them after a leading zero), their differences ``w`` apart, over ``w``."""
    x = np.array(xs, dtype=float)
    c = np.cumsum(np.r_[0.0, x])
    expected = (c[w:] - c[:-w]) / w if x.size >= w else np.empty(0)
    got = rolling(x, w)
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))


def _padded_smooth(x: np.ndarray, w: int, shape: str) -> np.ndarray:
    """l2metrics' smoothing as it writes it: the block between its reflections, convolved."""
    padded = np.r_[x[w - 1: 0: -1], x, x[-2: -w - 1: -1]]
    y = np.convolve(window_weights(shape, w), padded, mode="valid")
    return y[int(np.floor(w / 2 - 1)): -int(np.ceil(w / 2))]


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 100), st.integers(0, 40), st.sampled_from(WINDOWS), st.integers(0, 2**32 - 1),
       st.integers(1, 50))
def test_smoothing_without_the_padded_copy_gives_l2metrics_bits(w, extra, shape, seed, piece):
    """`l2m_smooth` convolves the block itself and its two reflected ends apart, into one array
    of the block's length (issue 40: the padded copy and the longer convolution beside it were
    16 bytes a value at a 10M-episode run's peak): every output has the bits of l2metrics'
    padded convolution, at the ends too, for every window shape and at lengths just above
    the window."""
    x = np.random.default_rng(seed).normal(size=w + extra) * 1e3
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convolve, "PIECE", piece)
        got = l2m_smooth(x, w, shape)
    expected = _padded_smooth(x, w, shape)
    assert got.shape == x.shape
    if x.size >= w + 2:  # shorter blocks are padded as before: a few values
        assert got.base is None
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(-0.0), st.integers(-5, 5)), max_size=60),
       st.integers(2, 12), st.integers(1, 7))
def test_rolling_differences_in_pieces_give_the_same_bits(xs, w, piece):
    """`rolling` differences its running sums a piece at a time into their own first values
    (issue 40: no further arrays of a task's length): the same bits at every piece size."""
    x = np.array(xs, dtype=float)
    c = np.cumsum(np.r_[0.0, x])
    expected = (c[w:] - c[:-w]) / w if x.size >= w else np.empty(0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(preprocess, "ROLLING_PIECE", piece)
        got = rolling(x, w)
    assert got.shape == expected.shape
    assert np.array_equal(got.view(np.uint64), expected.view(np.uint64))
