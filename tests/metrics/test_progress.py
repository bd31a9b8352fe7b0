"""The progress bar: drawn on stderr when stderr is a terminal and the command has run for about
a second, never on a pipe or a quick run; it moves through reading and computing instead of
jumping from 0 to 100 %. Run end to end through a pseudo-terminal.

Whether a run is quick is the machine's business (1.2M rows took more than 0.3 s once, and no
longer do; issue 38), so each test sets the delay (``SYLLA_PROGRESS_DELAY``) to a value no run
can be on the wrong side of: 0 where the bar must show, an hour where it must not."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from sylla.metrics import progress
from sylla.metrics.progress import Progress
from sylla.metrics.synth import alternating_plan, write_l2logger

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # 1 pre-test + 2 train blocks of 500k + tests: just over 1.2M rows
    plan = alternating_plan(["alpha", "beta"], train=600_000, test=10)
    return write_l2logger(tmp_path_factory.mktemp("big") / "run", plan, seed=3)


def _stderr_through_pty(args: list[str], delay: str | None = None) -> tuple[int, str]:
    master, slave = pty.openpty()
    env = dict(os.environ)
    if delay is not None:
        env["SYLLA_PROGRESS_DELAY"] = delay
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL,
                            env=env)
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


#: a delay longer than any run of these tests (each is stopped after 120 s of silence)
NEVER = "3600"


def test_big_log_on_a_terminal_shows_the_bar(big_log: Path) -> None:
    # once the delay has passed, reading the log shows its bar (delay 0: passed at once)
    code, err = _stderr_through_pty(_command(big_log), delay="0")
    assert code == 0, err
    assert "reading run" in err  # the reading bar's description


def test_bar_moves_through_reading_and_computing(big_log: Path) -> None:
    import re

    code, err = _stderr_through_pty(_command(big_log) + ["-m", "l2m_block"], delay="0")
    assert code == 0, err
    assert "reading run" in err and "computing metrics" in err
    reading = [int(p) for p in re.findall(r"reading run.*?(\d+)%", err)]
    assert any(0 < p < 100 for p in reading), reading  # not a jump from 0 to 100


def test_big_log_on_a_pipe_stays_quiet(big_log: Path) -> None:
    # delay 0: on a terminal the bar would show at once (above); on a pipe it never does
    proc = subprocess.run(_command(big_log), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SYLLA_PROGRESS_DELAY": "0"})
    assert proc.returncode == 0, proc.stderr
    assert "reading run" not in proc.stderr


def test_a_run_shorter_than_the_delay_stays_quiet(big_log: Path) -> None:
    code, err = _stderr_through_pty(_command(big_log), delay=NEVER)
    assert code == 0, err
    assert "reading run" not in err and "computing metrics" not in err


def test_no_progress_flag_wins(big_log: Path) -> None:
    code, err = _stderr_through_pty(_command(big_log) + ["--no-progress"], delay="0")
    assert code == 0, err
    assert "reading run" not in err


def test_big_plain_csv_on_a_terminal_shows_the_bar(tmp_path: Path) -> None:
    log = tmp_path / "rewards.csv"
    n = 1_200_000
    log.write_text("episode,reward\n" + "".join(f"{i},{i % 7}.5\n" for i in range(n)))
    code, err = _stderr_through_pty([sys.executable, "-m", "sylla", "metrics", "--log", str(log),
                                     "--format", "json", "--metric", "avg_perf"], delay="0")
    assert "reading rewards.csv" in err
    # the whole file was read before the reader asked for the syllabus this log needs
    assert code == 1
    assert "give the syllabus with --syllabus" in err


def _counting_bar(monkeypatch: pytest.MonkeyPatch, total: int) -> tuple[Progress, io.StringIO]:
    """A sweep's bar (``count=True``, ``delay=0``, a note) drawn into a terminal-like buffer."""
    out = io.StringIO()
    monkeypatch.setattr(progress, "_stderr_console",
                        lambda: Console(file=out, force_terminal=True, width=100, color_system=None))
    return Progress(total, "runs", True, count=True, delay=0, note=lambda: "slow: a/run (12 s)"), out


def test_a_counting_bar_shows_done_of_total_and_its_note_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    bar, out = _counting_bar(monkeypatch, 3)
    assert bar._bar is not None  # drawn before the first run is done: no delay for a sweep
    bar.step(2)
    bar._bar.refresh()
    bar.close()  # stopped early (--fail-fast): the last frame says how far it got
    text = out.getvalue()
    assert "runs" in text and "2/3" in text and "slow: a/run (12 s)" in text
    assert "3/3" not in text


def test_a_counting_bar_of_nothing_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    bar, out = _counting_bar(monkeypatch, 0)
    with bar:
        bar.step(0)
    assert out.getvalue() == ""
