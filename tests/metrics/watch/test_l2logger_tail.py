"""The l2logger tail's reading of a text column at an update's experience starts: from the
column's runs of equal values, the same labels as coding every row and taking those rows."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.readers.l2logger_stream import value_runs
from sylla.metrics.watch.l2logger_tail import _labels_at


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["{}", '{"a": 1}', '{"a": 2}', "x"]), min_size=1, max_size=60),
       st.data())
def test_labels_at_the_starts_are_those_of_every_row_taken_there(texts, data) -> None:
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, len(texts) - 1), min_size=1))))
    got = _labels_at(value_runs(pa.array([t.encode() for t in texts], pa.binary())), rows)
    order = tuple(dict.fromkeys(texts))  # every row coded, in the order values first appear
    assert got.values == order
    assert got.tolist() == [texts[i] for i in rows.tolist()]
