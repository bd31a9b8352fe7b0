"""`l2m_smooth_from`: the smoothing of a growing block, redone only where new rows reach, has
the bits of `l2m_smooth` on the whole block at every length; `Blocks.grown` carries it from
one computation to the next."""

from __future__ import annotations

import numpy as np
import pytest

from sylla.metrics.blockwise import Blocks
from sylla.metrics.data import Columns, RunData
from sylla.metrics.memo import NO_MEMO, BlockMemo
from sylla.metrics.preprocess import WINDOWS, l2m_smooth, l2m_smooth_from, window_weights


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float64).view(np.uint64)


@pytest.mark.parametrize("shape", WINDOWS)
@pytest.mark.parametrize("w", [3, 4, 7, 64, 100])
def test_convolve_over_a_slice_gives_the_same_bits(shape: str, w: int) -> None:
    """What `l2m_smooth_from` rests on: each output of a ``valid`` convolution is the same
    number whether computed over the whole signal or from any later start, whatever the
    slice's alignment in memory."""
    rng = np.random.default_rng(w)
    weights = window_weights(shape, w)
    signal = rng.normal(3.0, 0.5, 3000) * rng.choice([1.0, 1e-3, 1e6], 3000)
    whole = np.convolve(weights, signal, mode="valid")
    for start in [*range(0, 37), 1001, 2999 - w]:
        moved = np.empty(len(signal) - start + 1)[1:]  # another 8-byte alignment
        moved[:] = signal[start:]
        assert np.array_equal(_bits(whole[start:]),
                              _bits(np.convolve(weights, signal[start:], mode="valid")))
        assert np.array_equal(_bits(whole[start:]),
                              _bits(np.convolve(weights, moved, mode="valid")))


def _kept(x: np.ndarray, window_length: int | None, shape: str, memo: object) -> np.ndarray:
    """``x``'s smoothing as a growing block's, through `Blocks.grown` and ``memo``."""
    run = RunData("r", x, np.arange(float(x.size)),
                  Columns({"block": np.array([0]), "start": np.array([0]),
                           "stop": np.array([x.size])}, ["block", "start", "stop"]))
    blocks = Blocks(run, memo, ("test",))  # type: ignore[arg-type]
    return blocks.grown(0, ("smooth",), x,
                        lambda v: l2m_smooth(v, window_length, shape),
                        lambda v, last: l2m_smooth_from(v, last, window_length, shape))


@pytest.mark.parametrize("shape", ["flat", "hanning", "blackman"])
@pytest.mark.parametrize("window_length", [None, 4, 7])
def test_a_growing_block_is_smoothed_as_a_whole_at_every_length(shape: str,
                                                                window_length: int | None) -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(3.0, 0.5, 2200)
    memo = BlockMemo()
    n = 1
    for step in [1, 1, 2, 5, 11, 17, 40, 1, 99, 100, 101, 300, 1, 600, 900]:
        n += step
        got = _kept(x[:n], window_length, shape, memo)
        assert np.array_equal(_bits(got), _bits(l2m_smooth(x[:n], window_length, shape))), n
        memo.sweep()
    assert len(memo) == 1  # the one carried block


@pytest.mark.parametrize("where", [0, 3, 99, 100, 150, 1990, 1999])
def test_a_changed_value_is_smoothed_anew(where: int) -> None:
    """An earlier value that differs from the last input (in the head padding, the middle,
    the last row) is no prefix: the outputs it reaches are computed again."""
    rng = np.random.default_rng(3)
    x = rng.normal(3.0, 0.5, 2100)
    memo = BlockMemo()
    _kept(x[:2000], None, "flat", memo)
    y = x.copy()
    y[where] += 1.0
    got = _kept(y[:2050], None, "flat", memo)
    assert np.array_equal(_bits(got), _bits(l2m_smooth(y[:2050])))
    shorter = _kept(y[:1500], None, "flat", memo)  # cut: computed whole
    assert np.array_equal(_bits(shorter), _bits(l2m_smooth(y[:1500])))


def test_the_batch_memo_keeps_nothing() -> None:
    x = np.arange(50, dtype=np.float64)
    assert np.array_equal(_kept(x, None, "flat", NO_MEMO), l2m_smooth(x))


def _one_block_run(name: str, task: str, perf: np.ndarray) -> RunData:
    n = len(perf)
    data = {c: np.array([v]) for c, v in (
        ("block", 0), ("task", task), ("phase", "1"), ("phase_number", 1), ("kind", "train"),
        ("subtype", "wake"), ("learning", True), ("params", "{}"), ("start", 0), ("stop", n),
        ("count", n), ("partial", False))}
    return RunData(run=name, perf=perf, exp=np.arange(n, dtype=np.float64),
                   blocks=Columns(data, list(data)))


def test_a_kept_ste_run_is_smoothed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A followed run's STE runs do not change: the memo keeps their smoothing from one
    computation to the next (named by their values' array, as each computation wraps them
    anew), and the numbers are those computed without a memo."""
    from sylla.metrics import preprocess
    from sylla.metrics.preprocess import prepare_l2m

    rng = np.random.default_rng(5)
    expert = rng.normal(3.0, 0.5, 500)
    smoothed: list[int] = []
    real = preprocess.l2m_smooth

    def counting(x: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        smoothed.append(len(x))
        return real(x, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(preprocess, "l2m_smooth", counting)
    memo = BlockMemo()
    for n in (300, 320):
        run = _one_block_run("run", "pong", rng.normal(3.0, 0.5, n))
        ste = {"pong": [_one_block_run("ste", "pong", expert)]}  # wrapped anew each time
        memo.admit(run)
        kept = prepare_l2m(run, ste, memo=memo)
        memo.sweep()
        fresh = prepare_l2m(run, {"pong": [_one_block_run("ste", "pong", expert)]})
        assert np.array_equal(_bits(kept.ste["pong"][0].perf), _bits(fresh.ste["pong"][0].perf))
    # the expert's 500 values: once with the memo (the first computation), twice without
    assert smoothed.count(500) == 3
