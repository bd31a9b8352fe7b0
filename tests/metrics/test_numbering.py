"""`Consecutive`: every access the metrics make of ``RunData.exp`` gives what the array of the
same numbers gives, values and dtype."""

from __future__ import annotations

import numpy as np
import pytest

from sylla.metrics.numbering import Consecutive
from sylla.metrics.spill import gather


@pytest.mark.parametrize("first,size", [(0, 0), (0, 1), (1, 7), (0, 1000), (5, 33)])
def test_reads_as_the_array_of_its_numbers(first, size):
    exp = Consecutive(first, size)
    whole = np.arange(first, first + size, dtype=np.float64)
    assert len(exp) == size and exp.shape == whole.shape and exp.dtype == whole.dtype
    assert np.asarray(exp).tobytes() == whole.tobytes()
    assert np.asarray(exp, dtype=np.int64).tolist() == whole.astype(np.int64).tolist()
    for key in (slice(None), slice(2, 5), slice(-3, None), slice(None, None, 2),
                slice(4, 2), slice(None, None, -1)):
        got, want = exp[key], whole[key]
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()
    for i in range(-size, size):
        assert exp[i] == whole[i] and type(exp[i]) is type(whole[i])
    for i in (size, -size - 1):
        with pytest.raises(IndexError):
            exp[i]
    if size:
        picks = np.array([0, size - 1, size // 2])
        assert exp[picks].tobytes() == whole[picks].tobytes()
        assert np.repeat(exp, 2).tobytes() == np.repeat(whole, 2).tobytes()
        ranges = [(0, min(2, size)), (size // 2, size)]
        assert gather(exp, ranges).tobytes() == gather(whole, ranges).tobytes()
    assert np.asarray(exp.copy()).tobytes() == whole.tobytes()


def test_read_into_fills_from_a_position():
    out = np.empty(3)
    Consecutive(10, 8).read_into(4, out)
    assert out.tolist() == [14.0, 15.0, 16.0]
    with pytest.raises(IndexError):
        Consecutive(10, 8).read_into(6, out)
