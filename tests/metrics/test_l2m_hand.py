"""l2metrics-compatible metrics on the twenty-episode fixture, by hand (smoothing and
normalisation off so every number is visible in the rewards), plus preprocessing checks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sylla.metrics import compute_metrics
from sylla.metrics.plugins.l2m import exp_means, theil_sen_slope
from sylla.metrics.preprocess import l2m_smooth, l2m_window

from .conftest import FIXTURES, SYLLABUS
from .test_reference import value

RAW = {"smoothing": "none", "normalization": "none", "maintenance_method": "both",
       "transfer_method": "both"}


@pytest.fixture(scope="module")
def result():
    return compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, params=RAW)


def test_terminal_performance(result):
    assert value(result, "term_perf", "Pong", 0) == 6  # last 10% of 6 episodes: x[5:]
    assert value(result, "term_perf", "Pong", 1) == 5  # test blocks: the mean
    assert value(result, "term_perf", "Breakout", 2) == 1
    assert value(result, "exp_to_term_perf", "Pong", 0) == 5  # int(0.95 * 6)


def test_average_performance(result):
    assert value(result, "avg_train_perf", "Pong") == pytest.approx(3.5)
    assert value(result, "avg_train_perf", "Breakout") == pytest.approx(6.0)
    assert value(result, "avg_train_perf") == pytest.approx(4.75)
    assert value(result, "avg_eval_perf", "Pong") == pytest.approx(4.5)   # blocks 5 and 4
    assert value(result, "avg_eval_perf", "Breakout") == pytest.approx(4.0)  # blocks 1 and 7
    assert value(result, "avg_eval_perf") == pytest.approx(4.25)


def test_performance_maintenance(result):
    # Pong: evaluation after training = block 1 (5); later evaluation block 4 (4)
    assert value(result, "perf_maintenance_mrlep", "Pong") == pytest.approx(-1.0)
    assert value(result, "perf_maintenance_mrtlp", "Pong") == pytest.approx(4 - 6)
    assert value(result, "perf_maintenance_mrlep") == pytest.approx(-1.0)
    # Breakout is never evaluated again after its first post-training evaluation
    rows = result.rows
    assert rows[(rows.metric == "perf_maintenance_mrlep") & (rows.task == "Breakout")].empty


def test_transfer(result):
    # Breakout is trained between Pong's evaluations 1 (5) and 4 (4): backward transfer
    assert value(result, "backward_transfer_ratio", "Breakout->Pong") == pytest.approx(0.8)
    assert value(result, "backward_transfer_contrast", "Breakout->Pong") == pytest.approx(-1 / 9)
    assert value(result, "backward_transfer_ratio") == pytest.approx(0.8)
    assert any("no valid task pairs for forward transfer" in w for w in result.warnings)


def test_normalisation_to_1_101():
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS,
                        params={"smoothing": "none", "normalization": "task"})
    # Pong spans 1..6 over all its blocks: 6 -> 101, so terminal of block 0 is 101
    assert value(r, "term_perf", "Pong", 0) == pytest.approx(101.0)
    # Breakout spans 0..8: block 2 mean 1 -> 1/8*100+1
    assert value(r, "term_perf", "Breakout", 2) == pytest.approx(13.5)


def test_aggregation_median():
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS,
                        params={**RAW, "aggregation": "median"})
    assert value(r, "avg_train_perf") == pytest.approx(4.75)  # median of two = mean
    assert value(r, "avg_eval_perf") == pytest.approx(4.25)


def test_flat_smoothing_by_hand():
    x = np.arange(15, dtype=float)  # window min(int(3.0), 100) = 3
    assert l2m_window(15) == 3 and l2m_window(14) == 2 and l2m_window(1000) == 100
    y = l2m_smooth(x)
    assert y.size == 15
    # padded signal: 2, 1, 0, 1, ..., 14, 13, 12; output i is the mean of padded[i:i+3],
    # i.e. of x[i-2..i] with the start reflected (l2metrics' slice makes the window trailing)
    assert y[5] == pytest.approx((3 + 4 + 5) / 3)
    assert y[0] == pytest.approx((2 + 1 + 0) / 3)
    assert y[1] == pytest.approx((1 + 0 + 1) / 3)
    assert y[-1] == pytest.approx((12 + 13 + 14) / 3)
    assert l2m_smooth(np.arange(10.0)) is not None and np.array_equal(l2m_smooth(np.arange(10.0)),
                                                                     np.arange(10.0))


def test_theil_sen_slope():
    assert theil_sen_slope(np.array([10.0, 8.0, 6.0, 4.0])) == pytest.approx(-2.0)
    # pairwise slopes of (0, 1, 10): 1, 5, 9 -> median 5
    assert theil_sen_slope(np.array([0.0, 1.0, 10.0])) == pytest.approx(5.0)


def test_theil_sen_slope_is_scipys_theilslopes_bit_for_bit():
    """scipy is the oracle here only: importing scipy.stats at run time costs more than the
    metrics of a million-episode log (issue 24), so the plugin keeps its own median."""
    from scipy.stats import theilslopes

    rng = np.random.default_rng(28)
    for n in [2, 3, 4, 5, 8, 13, 40] * 20:
        y = rng.normal(size=n) * rng.choice([1.0, 1e-9, 1e9])
        if rng.random() < 0.3:
            y = np.round(y, 1)  # ties
        assert theil_sen_slope(y) == float(theilslopes(y).slope), y


def test_perf_recovery_hand_made():
    from sylla.metrics.plugins.l2m import PerfRecovery
    from sylla.metrics.registry import Context


    blocks = [("A", "train", [0, 0, 0, 0, 0, 0, 0, 0, 0, 5])]
    # later A blocks reach 5 after 3, then 2, then 0 episodes -> slope -1.5 -> recovery 1.5
    for k in (3, 2, 0):
        blocks.append(("B", "train", [1.0] * 10))
        blocks.append(("A", "train", [0.0] * k + [5.0] * (10 - k)))
    params = {"smoothing": "none", "window_length": None, "clamp_outliers": False,
              "normalization": "none", "aggregation": "mean"}
    from .conftest import make_run as mk

    rows = PerfRecovery().compute(Context(mk(blocks), {}, params))
    got = {(r["metric"], r["task"], r["block"]): r["value"] for r in rows}
    assert got[("l2m_recovery_time", "A", 2)] == 3
    assert got[("l2m_recovery_time", "A", 6)] == 0
    assert got[("perf_recovery", "A", None)] == pytest.approx(1.5)


def test_window_shapes_by_hand():
    import numpy as np

    from sylla.metrics.preprocess import l2m_smooth, window_weights

    # np.bartlett(5) = [0, .5, 1, .5, 0] -> weights [0, .25, .5, .25, 0]
    assert window_weights("bartlett", 5).tolist() == [0.0, 0.25, 0.5, 0.25, 0.0]
    assert window_weights("flat", 4).tolist() == [0.25] * 4
    x = np.array([0.0] * 12 + [8.0] + [0.0] * 12)  # one spike, 25 episodes -> window 5
    y = l2m_smooth(x, None, "bartlett")
    assert y.size == x.size
    # the spike spread by .25/.5/.25; l2metrics keeps y[floor(w/2-1) : -ceil(w/2)] of the
    # convolution, which for odd w centres y[i] on x[i-1]: the peak lands on 13, not 12
    assert y[12:15].tolist() == [2.0, 4.0, 2.0]


@pytest.mark.parametrize("content, words", [
    ('{"alpha_v0": {"min": 0, "max": 1}}', "no range for task(s) beta_v0"),
    ('{"alpha_v0": {"min": 2, "max": 1}, "beta_v0": {"min": 0, "max": 1}}', "a <= b"),
    ('{"alpha_v0": {"min": true, "max": 1}, "beta_v0": {"min": 0, "max": 1}}', "finite numbers"),
    ("[1, 2]", "maps task names"),
    ("{oops", "cannot read the data-range file"),
])
def test_data_range_file_is_validated(tmp_path, content, words):
    from sylla.metrics import MetricsError
    from sylla.metrics.plugins.l2m import load_data_range

    path = tmp_path / "data_range.json"
    path.write_text(content)
    with pytest.raises(MetricsError) as info:
        load_data_range(str(path), ["alpha_v0", "beta_v0"])
    assert words in info.value.message and info.value.exit_code == 2


@st.composite
def _laid_out_rows(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Rows as a block of several workers lays them out: each worker's experiences rising,
    the workers one after the other, one or more rows per experience; the numbers drawn
    whole (dense or sparse, from a negative start) or not, with signed zeros and NaN rows."""
    workers = draw(st.integers(2, 4))
    start = draw(st.sampled_from([0.0, -0.0, -7.0, 3.0, 0.5]))
    gap = draw(st.sampled_from([1, 2, 0.5, 5000]))
    exps = start + gap * np.arange(draw(st.integers(2, 60)), dtype=np.float64)
    owner = np.array(draw(st.lists(st.integers(0, workers - 1), min_size=exps.size,
                                   max_size=exps.size)))
    counts = np.array(draw(st.lists(st.integers(1, 3), min_size=exps.size, max_size=exps.size)))
    exp = np.concatenate([np.repeat(exps[owner == k], counts[owner == k])
                          for k in range(workers)])
    perf = np.array(draw(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(-0.0),
                                            st.just(float("nan"))),
                                  min_size=exp.size, max_size=exp.size)), dtype=np.float64)
    return perf, exp


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_laid_out_rows())
def test_exp_means_of_unsorted_rows_are_np_uniques_bit_for_bit(rows):
    """The means of a block whose experience numbers are not sorted (several workers) rank
    the numbers without sorting them: the same bits as grouping by `np.unique`'s inverse."""
    perf, exp = rows
    assume(not np.all(exp[1:] >= exp[:-1]))  # sorted numbers take another branch
    _, inverse = np.unique(exp, return_inverse=True)
    expected = np.bincount(inverse, weights=perf) / np.bincount(inverse)
    assert exp_means(perf, exp).tobytes() == expected.tobytes()


@pytest.mark.parametrize("values", [[1.0, 3.0, 3.0, 2.0], [-0.0, 0.0, -1.0], [0.0, -0.0],
                                    [np.nan, 2.0, 2.0, 1.0], [1.0, np.nan, 5.0, np.nan, 5.0],
                                    [np.nan, np.nan], [4.0], []])
def test_saturation_is_the_first_maximum_of_the_values_that_are_numbers(values):
    """Saturation and experiences to it: the max of the smoothed block without its NaN, and
    the first place among those values that equals it (with or without NaN, ties and signed
    zeros)."""
    from sylla.metrics.preprocess import l2m_saturation

    y = np.array(values, dtype=np.float64)
    kept = y[~np.isnan(y)]
    top, at = l2m_saturation(y, smooth=lambda x: x)
    if not kept.size:
        assert np.isnan(top) and np.isnan(at)
    else:
        assert np.float64(top).tobytes() == np.max(kept).tobytes()
        assert at == float(np.flatnonzero(kept == np.max(kept))[0])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=True),
                          st.sampled_from([-0.0, 1e300, -1e300])), max_size=300),
       st.integers(0, 20), st.booleans())
def test_a_blocks_nan_mean_is_numpys_bit_for_bit(values, start, with_nan):
    """A block's average performance (`_nanmean`) is ``np.nanmean`` of the block bit for bit,
    with NaN in it or not, wherever the block starts in the run's array."""
    from sylla.metrics.plugins.l2m import _nanmean

    run = np.array([1.5] * start + values + ([float("nan")] if with_nan else []))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = _nanmean(run, start, len(run))
        expected = float(np.nanmean(run[start:]))
    assert np.float64(got).tobytes() == np.float64(expected).tobytes()


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.one_of(st.floats(allow_infinity=True),
                                   st.sampled_from([-0.0, 1e300, -1e300])), max_size=40),
                max_size=5),
       st.integers(0, 220))
def test_a_prefix_sum_of_a_tasks_training_is_the_whole_gathers_bit_for_bit(blocks, k):
    """STE relative performance sums the first ``k`` of a task's training values: summing a
    gather of those ``k`` alone (`_nansum_prefix`) gives ``np.nansum`` of the whole gather's
    first ``k`` bit for bit, for any blocks, NaN and infinities among them."""
    from sylla.metrics.plugins.l2m import _nansum_prefix
    from sylla.metrics.spill import gather

    values, ranges, at = [0.25], [], 1  # a value before the first block: ranges start inside
    for block in blocks:
        values += block + [7.0]  # a value between blocks that no range takes
        ranges.append((at, at + len(block)))
        at += len(block) + 1
    run = np.array(values)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = _nansum_prefix(run, ranges, k)
        expected = np.nansum(gather(run, ranges)[:k])
    assert np.float64(got).tobytes() == np.float64(expected).tobytes()
