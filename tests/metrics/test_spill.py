"""SpillArray behaves like the ndarray it stands for, under any mix of the operations the
metrics use (slices, slice assignment, copies, gathers of block ranges, materialising)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.spill import SpillArray, gather

values = st.lists(st.floats(allow_nan=True, allow_infinity=False, width=64), min_size=0, max_size=60)
bounds = st.tuples(st.integers(-70, 70), st.integers(-70, 70))


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(values, min_size=1, max_size=4), reads=st.lists(bounds, max_size=8),
       writes=st.lists(st.tuples(bounds, st.floats(-5, 5)), max_size=5))
def test_spill_array_matches_numpy(chunks, reads, writes):
    spill = SpillArray(np.float64)
    for chunk in chunks:
        spill.append(np.array(chunk, dtype=np.float64))
    expected = np.concatenate([np.array(c, dtype=np.float64) for c in chunks])
    assert spill.size == len(spill) == expected.size
    for a, b in reads:
        np.testing.assert_array_equal(spill[a:b], expected[a:b])
    copied = spill.copy()
    for (a, b), v in writes:
        n = len(range(*slice(a, b).indices(expected.size)))
        new = np.full(n, v) + np.arange(n)
        spill[a:b] = new
        expected[a:b] = new
    np.testing.assert_array_equal(np.asarray(spill), expected)
    # the copy was taken before the writes and does not see them
    np.testing.assert_array_equal(np.asarray(copied),
                                  np.concatenate([np.array(c, dtype=np.float64) for c in chunks]))
    ranges = sorted((min(max(a, 0), expected.size), min(max(b, 0), expected.size)) for a, b in reads)
    ranges = [(a, b) for a, b in ranges if a <= b]
    np.testing.assert_array_equal(gather(spill, ranges), gather(expected, ranges))
    if expected.size:
        np.testing.assert_array_equal(spill[-1], expected[-1])
        np.testing.assert_array_equal(spill[np.array([0, expected.size - 1])],
                                      expected[[0, expected.size - 1]])


def test_integers_are_converted_as_they_are_appended():
    spill = SpillArray(np.float64)
    big = np.arange(300_000, dtype=np.int64)  # more than one conversion chunk
    spill.append(big)
    np.testing.assert_array_equal(np.asarray(spill), big.astype(np.float64))


def test_gather_never_returns_a_view():
    x = np.arange(10.0)
    out = gather(x, [(2, 5)])
    out[:] = -1
    assert x[2] == 2.0


def test_a_full_disk_is_a_metrics_error_not_a_traceback(monkeypatch):
    import os

    from sylla.metrics.errors import MetricsError

    spill = SpillArray(np.float64)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    try:
        spill.append(np.ones(3))
    except MetricsError as exc:
        assert "No space left on device" in str(exc) and "TMPDIR" in str(exc)
    else:
        raise AssertionError("a failed write must raise MetricsError")
