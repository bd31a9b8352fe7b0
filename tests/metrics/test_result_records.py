"""The JSON summaries are computed from plain records (no pandas); they must be what pandas'
``groupby(...).mean()`` gives, bit for bit, including its compensated summation."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.result import TIDY, _mean_by, _record

values = st.one_of(st.none(), st.just(math.nan),
                   st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12,
                             max_value=1e12), st.sampled_from([0.1, 1e16, -1e16, 1.0]))
records = st.lists(st.fixed_dictionaries({
    "run": st.sampled_from(["a", "b"]), "task": st.sampled_from([None, "x", "y"]),
    "block": st.sampled_from([None, 0, 1]), "phase": st.none(),
    "metric": st.sampled_from(["m", "n", "o"]), "value": values}), max_size=40)


def _pandas(rows: list[dict], keys: list[str]) -> dict:
    frame = pd.DataFrame.from_records([_record(r) for r in rows], columns=TIDY)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype(float)
    if frame.empty:
        return {}
    grouped = frame.groupby(keys, sort=False, dropna=False)["value"].mean()
    return {k: (None if pd.isna(v) else float(v)) for k, v in grouped.items()}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(records)
def test_means_are_pandas_means(rows):
    mine = [_record(r) for r in rows]
    for keys in (["metric"], ["task", "metric"]):
        expected = _pandas(rows, keys)
        got = _mean_by(mine, tuple(keys))
        got = {tuple(None if v is None else v for v in k) if isinstance(k, tuple) else k: v
               for k, v in got.items()}
        expected = {tuple(None if (isinstance(v, float) and math.isnan(v)) else v for v in k)
                    if isinstance(k, tuple) else k: v for k, v in expected.items()}
        assert list(got.items()) == list(expected.items())


def test_long_groups_are_pandas_means():
    """Naive summation differs from pandas' here; the records path must not."""
    rows = [{"run": "a", "task": None, "block": None, "phase": None, "metric": "m",
             "value": v} for v in [0.1] * 10 + [1e16, 1.0, -1e16]]
    assert _mean_by([_record(r) for r in rows], ("metric",)) == _pandas(rows, ["metric"])
    assert sum(r["value"] for r in rows) / len(rows) != _pandas(rows, ["metric"])["m"]
