"""The progress bar: drawn on stderr for logs over a million rows when stderr is a terminal,
never when it is a pipe or the log is small. Run end to end through a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.metrics.synth import alternating_plan, write_l2logger


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # 1 pre-test + 2 train blocks of 500k + tests: just over 1.2M rows
    plan = alternating_plan(["alpha", "beta"], train=600_000, test=10)
    return write_l2logger(tmp_path_factory.mktemp("big") / "run", plan, seed=3)


def _stderr_through_pty(args: list[str]) -> tuple[int, str]:
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def _command(log: Path) -> list[str]:
    return [sys.executable, "-m", "sylla", "metrics", "--log", str(log), "--format", "json", "--metric", "avg_perf"]


def test_big_log_on_a_terminal_shows_the_bar(big_log: Path) -> None:
    code, err = _stderr_through_pty(_command(big_log))
    assert code == 0, err
    assert "reading run" in err  # the bar's description, drawn by rich


def test_big_log_on_a_pipe_stays_quiet(big_log: Path) -> None:
    proc = subprocess.run(_command(big_log), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "reading run" not in proc.stderr


def test_small_log_on_a_terminal_stays_quiet(tmp_path: Path) -> None:
    small = write_l2logger(tmp_path / "run", alternating_plan(["alpha", "beta"], train=50, test=5), seed=1)
    code, err = _stderr_through_pty(_command(small))
    assert code == 0, err
    assert "reading run" not in err


def test_no_progress_flag_wins(big_log: Path) -> None:
    code, err = _stderr_through_pty(_command(big_log) + ["--no-progress"])
    assert code == 0, err
    assert "reading run" not in err


def test_big_plain_csv_on_a_terminal_shows_the_bar(tmp_path: Path) -> None:
    log = tmp_path / "rewards.csv"
    n = 1_200_000
    log.write_text("episode,reward\n" + "".join(f"{i},{i % 7}.5\n" for i in range(n)))
    code, err = _stderr_through_pty([sys.executable, "-m", "sylla", "metrics", "--log", str(log),
                                     "--format", "json", "--metric", "avg_perf"])
    assert "reading rewards.csv" in err
    # the whole file was read before the reader asked for the syllabus this log needs
    assert code == 1
    assert "give the syllabus with --syllabus" in err
