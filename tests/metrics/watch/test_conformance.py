"""Live conformance: the first episode that strays from the schedule, with expected vs found
and the syllabus line of the block; ``sylla watch --check`` exits on it."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH
from .replay import materialise

REPLAY = Path(__file__).with_name("replay.py")


def _planted(tmp_path: Path, name: str, line: int, old: bytes, new: bytes) -> Path:
    run = tmp_path / name
    lines = (WATCH / name).read_bytes().splitlines(True)
    lines[line] = lines[line].replace(old, new)
    run.write_bytes(b"".join(lines))
    return run


def _state(run: Path, syllabus: Path = SYLLABUS):
    follower = Follower(run, Options(syllabus=str(syllabus)))
    try:
        return follower.state
    finally:
        follower.close()


def test_complete_run_conforms(tmp_path: Path) -> None:
    state = _state(WATCH / "rewards.csv")
    assert state.divergence is None
    assert state.progress.episodes_read == state.progress.episodes_planned == 80
    assert state.progress.complete


def test_wrong_task_names_episode_expected_found_and_line(tmp_path: Path) -> None:
    run = _planted(tmp_path, "rewards.csv", 46, b"Breakout", b"Pong")  # episode 45
    d = _state(run).divergence
    assert d is not None
    assert (d.episode, d.found, d.path, d.line) == (45, "task Pong", str(SYLLABUS), 15)
    assert d.expected == "task Breakout (learning on, phase 2.train, block 3)"
    assert str(d).startswith(f"{SYLLABUS}:15: episode 45: ")


def test_learning_on_in_a_test_block(tmp_path: Path) -> None:
    run = _planted(tmp_path, "rewards.tsv", 33, b"test", b"train")  # episode 32, 1.test
    d = _state(run).divergence
    assert d is not None
    assert (d.episode, d.found, d.line) == (32, "learning on (train)", 11)
    assert "learning off, phase 1.test" in d.expected


def test_episode_beyond_the_schedule(tmp_path: Path) -> None:
    run = tmp_path / "rewards.csv"
    run.write_bytes((WATCH / "rewards.csv").read_bytes() + b"80,Breakout,5.0\n")
    d = _state(run).divergence
    assert d is not None and d.episode == 80
    assert d.expected == "the end of the schedule after 80 episodes"


def test_partial_run_is_progress_not_divergence(tmp_path: Path) -> None:
    run = tmp_path / "rewards.csv"
    materialise(WATCH / "rewards.csv", run, 51)
    state = _state(run)
    assert state.divergence is None and state.error is None
    assert (state.progress.episodes_read, state.progress.phase, state.progress.block) == (
        50, "2.train", 3)


def _check(tmp_path: Path, *replay_args: str) -> tuple[int, str, float]:
    """Run a writer process and ``sylla watch --check`` on what it writes; the exit code,
    stderr and the seconds from the writer's end to the check's end."""
    run = tmp_path / "run"
    run.mkdir()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    check = subprocess.Popen([sys.executable, "-m", "sylla", "watch", str(run), "--check",
                              "--syllabus", str(SYLLABUS)], stderr=subprocess.PIPE, env=env)
    try:
        first = _first_line(check, timeout=60)  # the follower is up before the first line
        writer = subprocess.run([sys.executable, str(REPLAY), str(WATCH / "l2logger_run"),
                                 str(run), "--delay", "0.01", "--half", *replay_args],
                                check=True)
        assert writer.returncode == 0
        written = time.monotonic()
        _, rest = check.communicate(timeout=120)  # its exit is the event; this bounds a hang
    finally:
        check.kill()
    return check.returncode, (first + rest).decode(), time.monotonic() - written


def _first_line(proc: subprocess.Popen[bytes], timeout: float) -> bytes:
    """Read ``proc``'s stderr up to its first newline: ``--check`` prints the starting progress
    once the follower has read the run, so this is the moment it is up. Read from the raw file
    descriptor, so nothing stays in a Python buffer that ``communicate`` would not see."""
    assert proc.stderr is not None
    fd = proc.stderr.fileno()
    got = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"sylla watch --check printed no line in {timeout} s: {got!r}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break  # it exited: communicate() reports how
            got += chunk
    return got


def test_check_exits_0_when_the_schedule_completes(tmp_path: Path) -> None:
    code, err, _ = _check(tmp_path)
    assert code == 0, err
    assert "episode 80 of 80" in err and "completed its schedule" in err


def test_check_exits_1_at_the_first_divergence(tmp_path: Path) -> None:
    code, err, _ = _check(tmp_path, "--wrong-task", "49:breakout:pong")
    assert code == 1, err
    assert f"{SYLLABUS}:15: episode 45: the syllabus expects task Breakout" in err
    assert "the log has task pong" in err


def test_check_exits_1_when_the_completed_run_cannot_be_read(tmp_path: Path) -> None:
    """A run that completes its schedule with a value that is no number must not pass the
    watchdog: the reader's error is printed with its file and row, and the exit code is 1."""
    run = tmp_path / "run"
    shutil.copytree(WATCH / "l2logger_run", run)
    last = sorted(run.rglob("data-log.tsv"), key=lambda p: int(p.parent.name.split("-")[0]))[-1]
    lines = last.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = lines[-1].rstrip("\n").rsplit("\t", 1)[0] + "\toops\n"
    last.write_text("".join(lines), encoding="utf-8")
    check = subprocess.run([sys.executable, "-m", "sylla", "watch", str(run), "--check",
                            "--syllabus", str(SYLLABUS)], capture_output=True, text=True,
                           timeout=60)  # without the check for it, it waited forever
    assert check.returncode == 1, check.stderr
    assert "completed its schedule, but its log cannot be read" in check.stderr
    assert f"{last}:{len(lines)}: reward is not a number: 'oops'" in check.stderr


PARAMS_SYLLABUS = WATCH / "pong_breakout_params.json"


def _l2logger_with_params(tmp_path: Path, wrong_at: int | None) -> Path:
    """The l2logger fixture run with each episode's ``task_params`` as the parameter syllabus
    sets them (``mode`` everywhere, ``difficulty`` 2 in 2.train), one episode's difficulty
    wrong if asked."""
    run = tmp_path / "run"
    shutil.copytree(WATCH / "l2logger_run", run)
    for log in sorted(run.rglob("data-log.tsv")):
        lines = log.read_text().splitlines(True)
        out = [lines[0]]
        for line in lines[1:]:
            cells = line.split("\t")
            exp = int(cells[1])
            params = {"mode": 0, "seed": 7}  # seed: the environment's own, not checked
            if 40 <= exp < 70:  # the 2.train block (exp_num counts from 0, one per episode)
                params["difficulty"] = 3 if exp == wrong_at else 2
            cells[6] = json.dumps(params)
            out.append("\t".join(cells))
        log.write_text("".join(out))
    return run


def test_task_parameters_are_checked_against_the_block(tmp_path: Path) -> None:
    state = _state(_l2logger_with_params(tmp_path / "ok", None), PARAMS_SYLLABUS)
    assert state.divergence is None, state.divergence
    d = _state(_l2logger_with_params(tmp_path / "bad", 52), PARAMS_SYLLABUS).divergence
    assert d is not None
    assert (d.episode, d.path, d.line) == (52, str(PARAMS_SYLLABUS), 15)
    assert d.expected == ('task Breakout (learning on, phase 2.train, block 3) with parameters '
                          '{"difficulty": 2, "mode": 0}')
    assert d.found == 'parameters {"mode": 0, "seed": 7, "difficulty": 3}'


def test_episodes_logged_without_parameters_are_not_checked(tmp_path: Path) -> None:
    """The fixture's logger writes ``{}`` for every episode: nothing to compare."""
    assert _state(WATCH / "l2logger_run", PARAMS_SYLLABUS).divergence is None
