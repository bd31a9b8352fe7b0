"""The memo of per-range values: kept values are frozen copies, unused ones are dropped."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sylla.metrics.memo import NO_MEMO, RangeMemo, RunMemo


def test_no_memo_keeps_nothing() -> None:
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


def _run(perf: list[float]) -> SimpleNamespace:
    values = np.array(perf)
    return SimpleNamespace(perf=values, exp=np.arange(float(len(values))), rows=None)


def test_admit_keeps_values_while_the_run_only_grows() -> None:
    memo = RangeMemo()
    assert memo.admit(_run([1.0, 2.0]))
    memo.get("block 0-2", lambda: 3)
    assert memo.admit(_run([1.0, 2.0, 5.0]))
    assert memo.get("block 0-2", lambda: 0) == 3


@pytest.mark.parametrize("changed", [[1.0, 2.5, 5.0], [1.0], [-0.0 + 1, -0.0, 5.0]])
def test_admit_clears_when_a_row_read_before_changed(changed: list[float]) -> None:
    memo = RangeMemo()
    memo.admit(_run([1.0, 0.0]))
    memo.get("block 0-2", lambda: 3)
    memo.admit(_run(changed))  # a value changed, the run shrank, 0.0 became -0.0
    assert memo.get("block 0-2", lambda: 0) == 0 and memo.cleared == 1


def test_a_run_held_on_disk_is_not_memoised() -> None:
    memo = RangeMemo()
    run = _run([1.0])
    run.perf = [1.0]  # not an ndarray (a spilled run's `SpillArray`)
    assert not memo.admit(run)


def test_a_run_grown_in_place_is_admitted_without_comparing() -> None:
    from sylla.metrics.watch.growing import Growing

    perf, exp = Growing(np.arange(4.0)), Growing(np.arange(4.0))
    memo = RangeMemo()
    memo.admit(SimpleNamespace(perf=perf.values, exp=exp.values, rows=None))
    memo.get("block 0-4", lambda: 1)
    grown = SimpleNamespace(perf=perf.extend(np.array([9.0])), exp=exp.extend(np.array([4.0])),
                            rows=None)
    assert memo.admit(grown) and memo.get("block 0-4", lambda: 0) == 1


def test_the_run_memo_computes_a_small_value_once_and_an_array_each_time() -> None:
    memo = RunMemo()
    calls: list[str] = []

    def computed(value: object, name: str) -> object:
        calls.append(name)
        return value

    for _ in range(3):
        assert memo.get(("sat", 0, 5), lambda: computed((1.5, np.float64(2.0)), "sat")) == (1.5, 2.0)
        assert memo.get("none", lambda: computed(None, "none")) is None
        got = memo.get(("curve", 0, 5), lambda: computed(np.arange(3.0), "curve"))
        got[0] = 9.0  # a caller's own array: the next ask gets a fresh one
        assert memo.get(("pair", 1), lambda: computed((1.0, np.ones(2)), "pair"))[0] == 1.0
    assert calls.count("sat") == calls.count("none") == 1
    assert calls.count("curve") == calls.count("pair") == 3
    assert not memo.keeps and memo.carry("k", lambda last: last) is None


def test_a_batch_computation_asks_each_block_saturation_once(tmp_path, monkeypatch) -> None:
    """`compute_metrics` hands the plugins a `RunMemo`: the reference plugins ask for the same
    blocks' saturations, and each is computed once."""
    from sylla.metrics.plugins import reference
    from sylla.metrics.result import compute_metrics
    from sylla.metrics.synth import alternating_plan, write_l2logger

    log = write_l2logger(tmp_path / "log", alternating_plan(["a", "b"], 40, 10, cycles=2), seed=3)
    seen: list[int] = []
    real = reference.saturation
    monkeypatch.setattr(reference, "saturation", lambda x, s: seen.append(x.size) or real(x, s))
    compute_metrics(log, progress=False)
    with_memo = len(seen)
    seen.clear()
    import sylla.metrics.result as result

    monkeypatch.setattr(result, "RunMemo", lambda: NO_MEMO)
    compute_metrics(log, progress=False)
    assert 0 < with_memo < len(seen)
