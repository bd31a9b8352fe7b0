"""Reference metrics on the twenty-episode fixture, values computed by hand."""

from __future__ import annotations

import math

import pytest

from sylla.metrics import compute_metrics
from sylla.metrics.plugins.reference import first_reach, saturation, terminal

from .conftest import FIXTURES, SYLLABUS


def value(result, metric, task=None, block=None):
    rows = result.rows
    sel = rows[(rows.metric == metric)]
    sel = sel[sel.task.isna()] if task is None else sel[sel.task == task]
    sel = sel[sel.block.isna()] if block is None else sel[sel.block == block]
    assert len(sel) == 1, (metric, task, block, sel)
    return sel.value.iloc[0]


@pytest.fixture(scope="module")
def result():
    return compute_metrics(FIXTURES / "rewards.csv", SYLLABUS)


def test_saturation_window_and_index_follow_the_original_code():
    """l2metrics 00df7cd: window int(round(0.1 * n)) (Python rounds halves to even), moving
    average by np.convolve(..., "valid"), time = index of the first maximal window (its start)."""
    import numpy as np

    from sylla.metrics.preprocess import window_of

    assert window_of(25, 0.1) == 2 and window_of(35, 0.1) == 4 and window_of(4, 0.1) == 1
    # n=6, s=0.5 -> window 3: means 2,3,4,5 (windows starting at 0..3) -> 5 at window start 3
    assert saturation(np.array([1., 2, 3, 4, 5, 6]), 0.5) == (5.0, 3.0)
    x = np.array([2., 4, 6, 8, 8, 8])
    assert saturation(x, 0.5) == (8.0, 3.0)  # means 4, 6, 22/3, 8
    assert saturation(x, 0.1) == (8.0, 3.0)  # window round(0.6)=1: first 8 is episode 3
    assert saturation(np.array([3., 3, 3, 3]), 0.5) == (3.0, 0.0)  # a constant block: 0
    assert terminal(x, 0.5) == 8.0
    assert first_reach(np.array([0., 1, 5, 5]), 4.0, 0.5) == 2.0  # means .5, 3, 5
    assert math.isnan(first_reach(np.array([0., 1]), 4.0, 0.5))


def test_block_saturation_and_time(result):
    assert value(result, "saturation_value", "Pong", 0) == 6
    assert value(result, "time_to_saturation", "Pong", 0) == 5
    assert value(result, "saturation_value", "Breakout", 3) == 8
    assert value(result, "time_to_saturation", "Breakout", 3) == 3
    assert value(result, "saturation_value") == 7  # mean over tasks of 6 and 8


def test_parameter_s_changes_window():
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, params={"s": "0.5"})
    assert value(r, "saturation_value", "Pong", 0) == 5  # window 3 over 1..6: max mean 5
    assert value(r, "time_to_saturation", "Pong", 0) == 3  # the window 4,5,6 starts at 3
    assert value(r, "time_to_saturation", "Breakout", 3) == 3  # 8,8,8 starts at 3


def test_normalized_integral(result):
    assert value(result, "normalized_integral", "Pong", 0) == pytest.approx(3.5)
    assert value(result, "normalized_integral", "Breakout", 2) == pytest.approx(1.0)
    assert value(result, "normalized_integral", "Breakout") == pytest.approx(6.0)


def test_test_vs_train(result):
    # Pong tests after its training: 5,5 and 4,4; Breakout's 0,2 come before its training
    assert value(result, "test_perf", "Pong") == pytest.approx(4.5)
    assert value(result, "train_perf", "Pong") == pytest.approx(3.5)
    assert value(result, "test_train_diff", "Pong") == pytest.approx(1.0)
    assert value(result, "test_train_ratio", "Pong") == pytest.approx(4.5 / 3.5)
    assert value(result, "test_perf", "Breakout") == pytest.approx(7.0)  # 8, 6 only
    assert value(result, "test_perf_baseline", "Breakout") == pytest.approx(1.0)  # 0, 2
    assert value(result, "test_train_ratio", "Breakout") == pytest.approx(7.0 / 6.0)


def test_test_vs_train_negative_rewards_have_no_ratio():
    from sylla.metrics.plugins.reference import TestVsTrain
    from sylla.metrics.registry import Context

    from .conftest import make_run

    run = make_run([("A", "train", [-4, -2]), ("A", "test", [-1, -1])])
    ctx = Context(run, {}, {"aggregation": "mean"})
    rows = {r["metric"]: r["value"] for r in TestVsTrain().compute(ctx) if r["task"] == "A"}
    assert rows["test_train_diff"] == pytest.approx(2.0)  # -1 - (-3)
    assert rows["test_train_ratio"] is None
    assert any("non-positive" in w for w in ctx.warnings)


def test_recovery_time_against_previous_saturation():
    """00df7cd compares with previous_saturation_value, dfe3c1e says "regain the same
    performance" after a saturation value: block 0 peaks at 10 but ends at 6."""
    from sylla.metrics.plugins.reference import Recovery
    from sylla.metrics.registry import Context

    from .conftest import make_run

    run = make_run([("A", "train", [0, 2, 4, 10, 10, 6, 6, 6, 6, 6]),
                    ("B", "train", [1] * 10),
                    ("A", "train", [4, 6, 8, 9, 10, 10, 10, 10, 10, 10])])
    rows = Recovery().compute(Context(run, {}, {"s": 0.1, "aggregation": "mean"}))
    # window round(1.0)=1; block 2 first reaches 10 at episode 4 (the terminal 6 at episode 1)
    block_rows = [r for r in rows if r["block"] == 2]
    assert block_rows[0]["value"] == 4.0
    assert [r["value"] for r in rows if r["task"] == "A" and r["block"] is None] == [4.0]


def test_ste_ratios(tmp_path):
    ste = tmp_path / "Pong.csv"
    ste.write_text("episode,reward\n" + "".join(f"{i},{v}\n" for i, v in enumerate([1, 1, 2, 3, 3, 4])))
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, ste=[ste])
    # learner Pong: saturation 6 at 5, integral 3.5; expert: 4 at 5, integral 14/6
    assert value(r, "ste_saturation_ratio", "Pong") == pytest.approx(6 / 4)
    assert value(r, "ste_time_ratio", "Pong") == pytest.approx(1.0)
    assert value(r, "ste_integral_ratio", "Pong") == pytest.approx(3.5 / (14 / 6))
    # Pong is the first task trained: no forward transfer, but time to learn (reach 4) = 3
    assert value(r, "time_to_learn", "Pong") == 3
    assert (r.rows[(r.rows.metric == "forward_transfer") & (r.rows.task == "Pong")]).empty
    assert any("no single-task-expert data for task Breakout" in w for w in r.warnings)


def test_forward_transfer_jump_start(tmp_path):
    ste = tmp_path / "Breakout.csv"
    ste.write_text("episode,reward\n" + "".join(f"{i},{v}\n" for i, v in enumerate([1, 2, 3, 4, 5, 6])))
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, ste=[ste])
    # Breakout's first train block starts at 2 (window 1); the expert starts at 1: 2 - 1
    assert value(r, "forward_transfer", "Breakout") == pytest.approx(1.0)
    assert value(r, "time_to_learn", "Breakout") == 2  # reaches the expert's 6 at episode 2


def test_forward_transfer_is_defined_when_the_expert_starts_at_zero(tmp_path):
    """A ratio to the expert's first window is NaN at 0 and 200 at 0.01; the difference is not."""
    ste = tmp_path / "Breakout.csv"
    ste.write_text("episode,reward\n" + "".join(f"{i},{v}\n" for i, v in enumerate([0, 2, 3, 4, 5, 6])))
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, ste=[ste])
    assert value(r, "forward_transfer", "Breakout") == pytest.approx(2.0)


def test_integral_ratio_uses_the_common_length(tmp_path):
    # learner Breakout trains 6 episodes (2,4,6,8,8,8); the expert 3 (1,2,3): first 3 of each
    ste = tmp_path / "Breakout.csv"
    ste.write_text("episode,reward\n0,1\n1,2\n2,3\n")
    r = compute_metrics(FIXTURES / "rewards.csv", SYLLABUS, ste=[ste])
    assert value(r, "ste_integral_ratio", "Breakout") == pytest.approx(4.0 / 2.0)
    assert any("differ in length" in w for w in r.warnings)


def test_recovery_time_counts_the_blocks_that_never_recover_in_one_warning():
    """A task value averages only the retrainings that recovered; the warning says how many did
    not (the value alone, 1.0 here, would hide that 2 of 3 never recovered)."""
    from sylla.metrics.plugins.reference import Recovery
    from sylla.metrics.registry import Context

    from .conftest import make_run

    run = make_run([("A", "train", [5, 6, 7]), ("A", "train", [1, 2, 3]),
                    ("A", "train", [1, 4]), ("A", "train", [0, 0])])
    ctx = Context(run, {}, {"s": 0.1, "aggregation": "mean"})
    rows = Recovery().compute(ctx)
    task = [r["value"] for r in rows if r["task"] == "A" and r["block"] is None]
    assert task == [1.0]
    warnings = [w for w in ctx.warnings if w.startswith("recovery_time")]
    assert len(warnings) == 1 and "2 of 3 later train blocks" in warnings[0], warnings
    assert "averages the 1 that did" in warnings[0]


def test_each_moving_average_is_taken_once_per_computation(tmp_path, monkeypatch):
    """Recovery and time to learn ask for the first window reaching a target in rows whose
    saturation the saturation plugin and the STE comparison ask for too; the expert runs'
    saturation value and time are one computation. One moving average serves all of them
    (`reach_and_saturation`): no rows are averaged twice with the same window, and the values
    are those of the plain functions."""
    import hashlib

    from sylla.metrics.plugins import reference
    from sylla.metrics.synth import alternating_plan, write_l2logger

    log = write_l2logger(tmp_path / "log", alternating_plan(["a", "b"], 60, 10, cycles=2), seed=5)
    for i, t in enumerate(("a", "b")):
        write_l2logger(tmp_path / "ste" / f"ste_{t}", [("train", [(t, 80)])], seed=9 + i)
    seen: list[tuple[str, int]] = []
    real = reference.rolling

    def counted(x, w):
        seen.append((hashlib.sha1(x.tobytes()).hexdigest(), w))
        return real(x, w)

    monkeypatch.setattr(reference, "rolling", counted)
    r = compute_metrics(log, ste=[tmp_path / "ste"], progress=False)
    assert len(seen) > 10 and len(set(seen)) == len(seen)
    assert not math.isnan(value(r, "recovery_time", "a")) or any(
        "never regained" in w for w in r.warnings)
    run = r.runs[0]
    first, second = [i for i, (t, k) in enumerate(zip(run.blocks.task, run.blocks.kind))
                     if t == "a" and k == "train"]
    rows = [run.perf[int(run.blocks.start[i]):int(run.blocks.stop[i])] for i in (first, second)]
    previous = saturation(rows[0], 0.1)[0]
    reach, sat = reference.reach_and_saturation(rows[1], previous, 0.1)
    assert sat == saturation(rows[1], 0.1)
    assert reach == first_reach(rows[1], previous, 0.1) or math.isnan(reach)
    assert value(r, "saturation_value", "a", int(run.blocks.block[second])) == sat[0]
    assert value(r, "recovery_time", "a", int(run.blocks.block[second])) == reach or math.isnan(
        reach)
