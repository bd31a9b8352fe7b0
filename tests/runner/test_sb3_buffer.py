"""DQN's replay buffer in a checkpoint (`sylla.runner.agents.sb3_buffer`): the filled rows come
back exactly into a fresh buffer of the model's size, wrapped or not, and a file that does not
fit the model gives a message, never a half-filled buffer. Real SB3 buffers; the ``sb3`` tier,
as tests/runner/test_sb3.py."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.runner.agents.sb3_buffer import FIELDS, load_buffer, save_buffer

pytestmark = [
    pytest.mark.sb3,
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("stable_baselines3") is None and not os.environ.get("CI"),
                       reason="the run-sb3 extra is not installed; run scripts/setup.d/60-sb3.sh"),
]


def buffer(size: int, obs: int = 5, optimize: bool = False) -> object:
    from gymnasium import spaces
    from stable_baselines3.common.buffers import ReplayBuffer

    return ReplayBuffer(size, spaces.Box(-1.0, 1.0, (obs,), np.float32), spaces.Discrete(3), device="cpu",
                        optimize_memory_usage=optimize, handle_timeout_termination=not optimize)


def fill(buf: object, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        obs = rng.uniform(-1, 1, (1, 5)).astype(np.float32)
        buf.add(obs, rng.uniform(-1, 1, (1, 5)).astype(np.float32), rng.integers(0, 3, (1, 1)),  # type: ignore[attr-defined]
                rng.normal(size=1).astype(np.float32), rng.integers(0, 2, 1).astype(np.float32),
                [{"TimeLimit.truncated": bool(rng.integers(0, 2))}])


@settings(max_examples=25, deadline=None)
@given(size=st.integers(1, 40), added=st.integers(0, 100), optimize=st.booleans(), seed=st.integers(0, 2**16))
def test_the_saved_rows_come_back_exactly(tmp_path_factory: pytest.TempPathFactory, size: int, added: int,
                                          optimize: bool, seed: int) -> None:
    if optimize and size == 1:
        size = 2  # SB3 needs two rows to keep next observations in the same array
    before = buffer(size, optimize=optimize)
    fill(before, added, seed)
    path = tmp_path_factory.mktemp("buf") / "b.npz"
    save_buffer(before, path)
    after = buffer(size, optimize=optimize)
    assert load_buffer(after, path) is None
    assert (after.pos, after.full) == (before.pos, before.full)  # type: ignore[attr-defined]
    for name in FIELDS:
        a, b = getattr(before, name, None), getattr(after, name, None)
        assert (a is None) == (b is None), name
        if a is not None:
            assert a.dtype == b.dtype and np.array_equal(a, b), name


def test_only_the_filled_rows_are_written(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    buf = buffer(100_000)
    fill(buf, 50, 2)
    save_buffer(buf, path)
    capacity = sum(getattr(buf, name).nbytes for name in FIELDS)
    stored = sum(getattr(buf, name)[:51].nbytes for name in FIELDS)
    assert path.stat().st_size < stored + 10_000 < capacity / 100


def test_a_file_that_does_not_fit_gives_a_message(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    saved = buffer(30)
    fill(saved, 20, 1)
    save_buffer(saved, path)
    smaller = buffer(10)
    problem = load_buffer(smaller, path)
    assert problem is not None and str(path) in problem and "observations" in problem
    other_shape = buffer(30, obs=7)
    assert "observations" in (load_buffer(other_shape, path) or "")
    optimized = buffer(30, optimize=True)
    assert "next_observations" in (load_buffer(optimized, path) or "")
    assert (smaller.pos, smaller.full, other_shape.pos) == (0, False, 0)  # type: ignore[attr-defined]


def test_a_file_cut_short_gives_a_message(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    saved = buffer(30)
    fill(saved, 20, 3)
    save_buffer(saved, path)
    path.write_bytes(path.read_bytes()[:3000])
    fresh = buffer(30)
    problem = load_buffer(fresh, path)
    assert problem is not None and problem.startswith(f"{path}: not a replay buffer sylla saved")
    assert (fresh.pos, fresh.full) == (0, False)  # type: ignore[attr-defined]
