"""`run_starts` finds the same runs of equal values as comparing the Python strings does."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from sylla.metrics.readers.string_runs import run_starts

# few distinct values, of equal and of different lengths (and the empty string), repeated in runs
VALUES = st.sampled_from(["", "a", "b", "ab", "ba", "alpha_v0", "beta_v0", "gamma_v0",
                          "Alpha_V0", "{}", "{\"k\": 1}", "é", "ü"])


def _expected(values: list[str]) -> tuple[list[int], list[str]]:
    starts = [i for i, v in enumerate(values) if i == 0 or v != values[i - 1]]
    return starts, [values[i] for i in starts]


@given(st.lists(st.tuples(VALUES, st.integers(1, 5)), max_size=30), st.integers(0, 3))
def test_runs_match_python(runs, cut):
    values = [v for v, k in runs for _ in range(k)]
    array = pa.array(["x"] * cut + values, type=pa.string()).slice(cut)  # an offset array too
    starts, heads = run_starts(array)
    assert (starts.tolist(), heads) == _expected(values)


def test_rows_of_several_lengths_compared_in_chunks(monkeypatch):
    from sylla.metrics.readers import string_runs

    monkeypatch.setattr(string_runs, "_CHUNK_BYTES", 16)
    monkeypatch.setattr(string_runs, "_SHIFTS", 0)
    values = ["beta_v0"] * 50 + ["alpha_v0"] * 40 + ["gamma_v0"] * 30 + ["beta_v0"] * 5
    starts, heads = run_starts(pa.array(values))
    assert starts.tolist() == [0, 50, 90, 120]
    assert heads == ["beta_v0", "alpha_v0", "gamma_v0", "beta_v0"]


@given(st.lists(st.tuples(VALUES, st.integers(1, 5)), max_size=30))
def test_pairwise_comparison_matches_python(runs):
    """A column of many lengths compares rows pairwise (`_differ`): the same runs."""
    import sylla.metrics.readers.string_runs as string_runs

    values = [v for v, k in runs for _ in range(k)]
    saved = string_runs._SHIFTS
    string_runs._SHIFTS = 0
    try:
        starts, heads = run_starts(pa.array(values, type=pa.string()))
    finally:
        string_runs._SHIFTS = saved
    assert (starts.tolist(), heads) == _expected(values)
