"""Scaling written into one array and terminal performance without a copy: the numbers of
the expressions they stand for, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.preprocess import _scale, l2m_terminal

VALUES = st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                            st.sampled_from([-0.0, 0.0, 1e300, -1e300, 5e-324])), max_size=200)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(VALUES, st.floats(allow_nan=False, allow_infinity=False),
       st.floats(allow_nan=False, allow_infinity=False))
def test_scaling_is_the_expression_bit_for_bit(values: list[float], lo: float, hi: float) -> None:
    """`_scale` gives ``(x - lo) / (hi - lo) * 100 + 1`` (or ones for ``lo == hi``)."""
    x = np.array(values, dtype=np.float64)
    with np.errstate(all="ignore"):
        expected = x * 0 + 1 if lo == hi else (x - lo) / (hi - lo) * 100 + 1
        got = _scale(x, lo, hi)
    assert got.tobytes() == expected.tobytes() and got is not x


@settings(max_examples=300, deadline=None, derandomize=True)
@given(VALUES, st.sampled_from(["train", "test"]), st.integers(1, 3))
def test_terminal_performance_is_the_mean_of_the_copy_bit_for_bit(values: list[float],
                                                                 kind: str, step: int) -> None:
    """`l2m_terminal` gives the mean of the last tenth (all, for a test block) of the values
    that are numbers, as taken from their copy, for contiguous and strided blocks."""
    x = np.array(values, dtype=np.float64)[::step]
    kept = x[~np.isnan(x)]
    with np.errstate(all="ignore"):
        got = l2m_terminal(x, kind)
        expected = (float(np.mean(kept[int((1 - (1 if kind == "test" else 0.1)) * kept.size):]))
                    if kept.size else float("nan"))
    assert np.float64(got).tobytes() == np.float64(expected).tobytes()
