"""SIGKILL at a random moment, then ``--resume``: the finished log equals an uninterrupted run's,
row for row (issue 37 §5). The kill is decided by events (the log has reached a row count drawn
at random), never by time; checkpoints come every 7 episodes so most kills land between two."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest

from .support import FIX, row_count, rows, start, sylla

pytestmark = pytest.mark.slow

ANT = FIX / "ant-minigrid.json"
ARGS = ("--agent", "tabular-q", "--seed", "11", "--checkpoint-every", "7")


def kill_at(out: Path, rows_seen: int, *extra: str) -> bool:
    """Start a run (or a resume), SIGKILL it once its log has ``rows_seen`` rows; False when it
    finished first."""
    proc = start("run", str(ANT), *ARGS, "-o", str(out), *extra)
    deadline = time.monotonic() + 300
    while proc.poll() is None and row_count(out) < rows_seen and time.monotonic() < deadline:
        time.sleep(0.002)
    finished = proc.poll() is not None
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    return not finished


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    out = tmp_path_factory.mktemp("whole") / "run"
    proc = sylla("run", str(ANT), *ARGS, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    got = rows(out)
    assert [int(r["exp_num"]) for r in got] == list(range(len(got)))
    return got


@pytest.mark.parametrize("draw", range(4))
def test_sigkill_then_resume_gives_the_uninterrupted_log(whole: list[dict[str, str]], tmp_path: Path, draw: int) -> None:
    seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    out = tmp_path / "run"
    total = len(whole)
    first = rng.randrange(0, total - 20)
    kill_at(out, first)
    # kill the resumed run too, further on, then let a last resume finish
    kill_at(out, rng.randrange(first, total - 5), "--resume")
    proc = sylla("run", str(ANT), *ARGS, "-o", str(out), "--resume")
    assert proc.returncode == 0, f"kill points from seed {seed}: {proc.stderr}"
    assert rows(out) == whole, f"kill points from seed {seed}"


def test_a_kill_before_the_first_row_resumes_from_the_start(whole: list[dict[str, str]], tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = start("run", str(ANT), *ARGS, "-o", str(out))
    deadline = time.monotonic() + 120
    while not (out / "run.json").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    resumed = sylla("run", str(ANT), *ARGS, "-o", str(out), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert rows(out) == whole
