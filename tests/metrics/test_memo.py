"""The memo of per-range values: kept values are frozen copies, unused ones are dropped."""

from __future__ import annotations

import numpy as np
import pytest

from sylla.metrics.memo import NO_MEMO, RangeMemo


def test_the_batch_memo_keeps_nothing() -> None:
    calls = []
    for _ in range(2):
        NO_MEMO.get(("k",), lambda: calls.append(1))
    assert len(calls) == 2


def test_a_kept_array_is_a_frozen_copy_of_what_was_computed() -> None:
    memo = RangeMemo()
    source = np.arange(10.0)
    kept = memo.get(("block", 2, 5), lambda: source[2:5])
    source[2:5] = -1  # later writes to the array it was cut from do not reach it
    again = memo.get(("block", 2, 5), lambda: pytest.fail("computed twice"))
    assert again is kept and again.tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(ValueError):
        again[0] = 9  # and callers cannot change it in place
    assert (memo.hits, memo.misses) == (1, 1)


def test_sweep_drops_what_the_last_computation_did_not_ask_for() -> None:
    memo = RangeMemo()
    memo.get("finished", lambda: 1)
    memo.get("growing 0-10", lambda: 2)
    memo.sweep()
    memo.get("finished", lambda: 0)
    memo.get("growing 0-20", lambda: 3)
    memo.sweep()
    assert len(memo) == 2
    assert memo.get("growing 0-10", lambda: 4) == 4  # computed again: it was dropped
