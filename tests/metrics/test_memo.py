"""The memo of per-block values: kept values are frozen copies, unused ones are dropped,
and a block keeps its key while its rows are unchanged."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sylla.metrics.data import Columns
from sylla.metrics.memo import NO_MEMO, BlockMemo, RunMemo


def test_no_memo_keeps_nothing() -> None:
    calls = []
    for _ in range(2):
        NO_MEMO.get(("k",), lambda: calls.append(1))
    assert len(calls) == 2


def test_a_kept_array_is_a_frozen_copy_of_what_was_computed() -> None:
    memo = BlockMemo()
    source = np.arange(10.0)
    kept = memo.get(("block", 2, 5), lambda: source[2:5])
    source[2:5] = -1  # later writes to the array it was cut from do not reach it
    again = memo.get(("block", 2, 5), lambda: pytest.fail("computed twice"))
    assert again is kept and again.tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(ValueError):
        again[0] = 9  # and callers cannot change it in place
    assert (memo.hits, memo.misses) == (1, 1)


def test_a_fresh_array_is_kept_frozen_without_a_copy() -> None:
    memo = BlockMemo()
    fresh = np.arange(4.0) * 2
    assert memo.get("scaled", lambda: fresh) is fresh and not fresh.flags.writeable


def test_sweep_drops_what_the_last_computation_did_not_ask_for() -> None:
    memo = BlockMemo()
    memo.get("finished", lambda: 1)
    memo.get("growing 0-10", lambda: 2)
    memo.sweep()
    memo.get("finished", lambda: 0)
    memo.get("growing 0-20", lambda: 3)
    memo.sweep()
    assert len(memo) == 2
    assert memo.get("growing 0-10", lambda: 4) == 4  # computed again: it was dropped


def _run(*blocks: list[float]) -> SimpleNamespace:
    """A run of the given blocks (ordinals 0, 1, ...), one row per episode (its experience
    number ten times its value: a row keeps its number wherever it lies)."""
    values = np.array([v for block in blocks for v in block])
    stops = np.cumsum([len(block) for block in blocks])
    table = Columns({"block": np.arange(len(blocks)), "start": stops - [len(b) for b in blocks],
                     "stop": stops}, ["block", "start", "stop"])
    return SimpleNamespace(perf=values, exp=values * 10, rows=None, blocks=table)


def test_a_block_keeps_its_key_while_its_rows_are_unchanged() -> None:
    memo = BlockMemo()
    first = _run([1.0, 2.0], [3.0])
    assert memo.admit(first)
    finished, growing = memo.block_keys(first)
    grown = _run([1.0, 2.0], [3.0, 4.0])
    assert memo.admit(grown)
    assert memo.block_keys(grown)[0] == finished and memo.block_keys(grown)[1] != growing


def test_rows_inserted_into_a_middle_block_rename_that_block_alone() -> None:
    """Several workers append inside the last blocks of align's order: the block that took
    rows gets a new key, the blocks after it keep theirs though their rows moved."""
    memo = BlockMemo()
    first = _run([1.0], [2.0, 3.0], [4.0])
    memo.admit(first)
    keys = memo.block_keys(first)
    inserted = _run([1.0], [2.0, 3.0, 3.5], [4.0])
    memo.admit(inserted)
    now = memo.block_keys(inserted)
    assert now[0] == keys[0] and now[1] != keys[1] and now[2] == keys[2]


@pytest.mark.parametrize("changed", [[1.0, 2.5, 5.0], [1.0], [-0.0 + 1, -0.0, 5.0]])
def test_a_block_whose_rows_changed_is_named_anew(changed: list[float]) -> None:
    memo = BlockMemo()
    first = _run([7.0], [1.0, 0.0])
    memo.admit(first)
    keys = memo.block_keys(first)
    later = _run([7.0], changed)  # a value changed, the block shrank, 0.0 became -0.0
    memo.admit(later)
    assert memo.block_keys(later)[0] == keys[0] and memo.block_keys(later)[1] != keys[1]


def test_a_view_the_memo_did_not_admit_gets_range_keys() -> None:
    memo = BlockMemo()
    memo.admit(_run([1.0]))
    other = _run([1.0])
    assert memo.block_keys(other) == [("range", 0, 1)]


def test_a_run_held_on_disk_is_not_memoised() -> None:
    memo = BlockMemo()
    run = _run([1.0])
    run.perf = [1.0]  # not an ndarray (a spilled run's `SpillArray`)
    assert not memo.admit(run)


def test_a_run_grown_in_place_keeps_its_blocks_keys() -> None:
    from sylla.metrics.watch.growing import Growing

    perf, exp = Growing(np.arange(4.0)), Growing(np.arange(4.0))
    memo = BlockMemo()
    table = Columns({"block": np.array([0]), "start": np.array([0]), "stop": np.array([4])},
                    ["block", "start", "stop"])
    first = SimpleNamespace(perf=perf.values, exp=exp.values, rows=None, blocks=table)
    memo.admit(first)
    keys = memo.block_keys(first)
    grown = SimpleNamespace(perf=perf.extend(np.array([9.0])), exp=exp.extend(np.array([4.0])),
                            rows=None, blocks=table)  # the same memory, one more row after
    assert memo.admit(grown) and memo.block_keys(grown) == keys
    assert memo.changed == 1  # the first admission named the block; the grown one kept it


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


def test_a_vouched_run_keeps_the_keys_of_the_blocks_it_says_are_unchanged() -> None:
    """A follower that appended the rows itself says which blocks took them (`vouch`): the
    others keep their keys without a comparison, so rows written over in place (where a
    comparison would read the new rows twice) cannot be mistaken for the old ones."""
    memo = BlockMemo()
    first = _run([1.0], [2.0, 3.0], [4.0])
    memo.admit(first)
    keys = memo.block_keys(first)
    inserted = _run([1.0], [2.0, 3.0, 3.5], [4.0])
    inserted.perf[0] = inserted.exp[0] = 0.0  # not compared: block 0 is vouched unchanged
    memo.vouch(inserted, {1}, in_place=True)
    memo.admit(inserted)
    now = memo.block_keys(inserted)
    assert now[0] == keys[0] and now[1] != keys[1] and now[2] == keys[2]
    assert memo.changed == 4  # three named first, one named again


def test_after_a_run_laid_out_in_place_an_unvouched_run_renames_every_block() -> None:
    memo = BlockMemo()
    first = _run([1.0], [2.0])
    memo.admit(first)
    keys = memo.block_keys(first)
    again = _run([1.0], [2.0])
    memo.vouch(again, set(), in_place=True)
    memo.admit(again)
    assert memo.block_keys(again) == keys
    unvouched = _run([1.0], [2.0])  # its arrays could be those written over: not compared
    memo.admit(unvouched)
    assert not set(memo.block_keys(unvouched)) & set(keys)


def test_a_vouch_holds_for_its_own_run_only() -> None:
    memo = BlockMemo()
    memo.admit(_run([1.0], [2.0]))
    memo.vouch(_run([1.0], [2.0]), set(), in_place=False)
    other = _run([5.0], [2.0])
    memo.admit(other)  # another object: compared, block 0 changed
    assert memo.changed == 3
