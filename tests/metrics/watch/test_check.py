"""``sylla watch --check`` ends on every log it follows: a complete log with a row its reader
cannot read exits 1 naming the row (issue 38: a plain log waited for ever at "episode 0 of
80"), a valid continual-imitation run completes, and a run that stops growing before its
schedule is done exits 1 after ``--idle-timeout``.

Each check runs as the ``sylla`` process a CI job starts; a test waits for its exit. The logs
are the watch fixtures (as l2logger, learnkit and the continual-imitation trainer wrote them)
with one row made unreadable. ``--idle-timeout 0`` (wait for ever) where the check must end
because the schedule is complete, so that only seeing it complete can end it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from sylla.grammar.syllabus.schedule import schedule
from sylla.metrics.syllabus import load_syllabus
from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import FIXTURES, SYLLABUS, WATCH

SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")
LEARNKIT = FIXTURES / "learnkit_sep2020" / "two_tasks-1600830032-0285285"
ISCIL = FIXTURES / "iscil" / "tree" / "iscil" / "kitchen" / "exp_worked_seed0"
ISCIL_SYLLABUS = FIXTURES / "iscil" / "syllabi" / "worked.json"
#: the longest a check may take to end (an event: its exit); not a measure of speed
EXIT_WITHIN = 180


def check(run: Path, syllabus: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    assert SYLLA is not None, "the editable install provides the sylla console script"
    return subprocess.run([SYLLA, "watch", str(run), "--check", "--syllabus", str(syllabus),
                           *extra], capture_output=True, text=True, timeout=EXIT_WITHIN)


Edit = Callable[[bytes], bytes]


def _cells(sep: bytes, index: int, value: bytes) -> Edit:
    def edit(line: bytes) -> bytes:
        cells = line.rstrip(b"\n").split(sep)
        cells[index] = value
        return sep.join(cells) + b"\n"
    return edit


def _copy(source: Path, target: Path, file: str, line: int, edit: Edit) -> tuple[Path, Path]:
    """``source`` copied to ``target`` with line ``line`` (1-based) of ``file`` (relative to a
    run folder; "" for a single-file log) edited; the run and the edited file."""
    if source.is_dir():
        shutil.copytree(source, target)
        edited = target / file
    else:
        shutil.copyfile(source, target)
        edited = target
    lines = edited.read_bytes().splitlines(True)
    lines[line - 1] = edit(lines[line - 1])
    edited.write_bytes(b"".join(lines))
    return target, edited


L2_BLOCK = "worker-default/3-train/data-log.tsv"
LK_TEST = "worker-env-0/3-2_test/gymkit_gymkit_pong/data-log.tsv"

#: (id, source log, its syllabus, file in it, line, edit): one unreadable row each
UNREADABLE = [
    ("csv-reward", WATCH / "rewards.csv", SYLLABUS, "", 11, _cells(b",", 2, b"oops")),
    ("csv-episode", WATCH / "rewards.csv", SYLLABUS, "", 11, _cells(b",", 0, b"9x")),
    ("csv-not-utf8", WATCH / "rewards.csv", SYLLABUS, "", 11, _cells(b",", 1, b"Po\xffng")),
    ("csv-extra-cell", WATCH / "rewards.csv", SYLLABUS, "", 11,
     lambda line: line.rstrip(b"\n") + b",extra\n"),
    ("tsv-reward", WATCH / "rewards.tsv", SYLLABUS, "", 11, _cells(b"\t", -1, b"-")),
    ("jsonl-not-json", WATCH / "rewards.jsonl", SYLLABUS, "", 11, lambda line: b"{" + line),
    ("jsonl-reward-text", WATCH / "rewards.jsonl", SYLLABUS, "", 11,
     lambda line: line.split(b'"reward"')[0] + b'"reward": "oops"}\n'),
    ("l2logger-not-utf8", WATCH / "l2logger_run", SYLLABUS, L2_BLOCK, 5,
     _cells(b"\t", 5, b"br\xffakout")),
    ("l2logger-exp-num", WATCH / "l2logger_run", SYLLABUS, L2_BLOCK, 5, _cells(b"\t", 1, b"x")),
    ("learnkit-reward", LEARNKIT, LEARNKIT / "syllabus.json", LK_TEST, 2,
     _cells(b"\t", 12, b"oops")),
    ("iscil-score", ISCIL, ISCIL_SYLLABUS, "training_log.log", 11,
     lambda line: line.replace(b"(3.00 /", b"(x /")),
]


@pytest.mark.parametrize(("source", "syllabus", "file", "line", "edit"),
                         [c[1:] for c in UNREADABLE], ids=[c[0] for c in UNREADABLE])
def test_a_complete_log_with_an_unreadable_row_exits_1_naming_the_row(
        tmp_path: Path, source: Path, syllabus: Path, file: str, line: int, edit: Edit) -> None:
    run, edited = _copy(source, tmp_path / source.name, file, line, edit)
    done = check(run, syllabus, "--idle-timeout", "0")
    assert done.returncode == 1, done.stderr
    # ended by the complete schedule, or by the divergence the unreadable row makes (a task
    # name with a byte that is no UTF-8 is no task of the schedule)
    assert ("the run completed its schedule, but its log cannot be read: " in done.stderr
            or "watch: the log cannot be read: " in done.stderr), done.stderr
    # the reader names the row as file:row, or (a row pandas cannot split) as its line
    assert f"{edited}:{line}: " in done.stderr or (
        f"{edited}: " in done.stderr and f"line {line}," in done.stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_a_complete_continual_imitation_run_completes(tmp_path: Path) -> None:
    """Its progress is counted in the syllabus's phases: the check no longer waits for ever
    at "episode 9 of None" on a run that is done."""
    done = check(ISCIL, ISCIL_SYLLABUS, "--idle-timeout", "0")
    planned = schedule(load_syllabus(str(ISCIL_SYLLABUS))).episodes
    assert done.returncode == 0, done.stderr
    assert f"episode {planned} of {planned}" in done.stderr
    assert "the run completed its schedule" in done.stderr


def _first(source: Path, target: Path, lines: int) -> None:
    """The first ``lines`` data lines of the single-file log ``source`` (with its header)."""
    target.write_bytes(b"".join(source.read_bytes().splitlines(True)[:lines + 1]))


def test_a_run_that_stops_growing_exits_1_after_the_idle_timeout(tmp_path: Path) -> None:
    run = tmp_path / "rewards.csv"
    _first(WATCH / "rewards.csv", run, 39)
    planned = schedule(load_syllabus(str(SYLLABUS))).episodes
    done = check(run, SYLLABUS, "--idle-timeout", "1")
    assert done.returncode == 1, done.stderr
    assert (f"no complete line arrived for 1 s (--idle-timeout); the run stopped at episode "
            f"39 of {planned}") in done.stderr


def test_an_l2logger_run_that_crashed_mid_block_exits_1_after_the_idle_timeout(
        tmp_path: Path) -> None:
    """The block being written ends in a half-written line, as a killed writer leaves it."""
    run = tmp_path / "run"
    shutil.copytree(WATCH / "l2logger_run", run)
    for later in ("4-test", "5-test"):
        shutil.rmtree(run / "worker-default" / later)
    block = run / L2_BLOCK
    lines = block.read_bytes().splitlines(True)
    block.write_bytes(b"".join(lines[:11]) + lines[11][:20])
    done = check(run, SYLLABUS, "--idle-timeout", "1")
    assert done.returncode == 1, done.stderr
    # the blocks before hold 40 episodes; the cut one its 10 whole rows
    assert "the run stopped at episode 50 of" in done.stderr


def test_a_run_that_writes_nothing_exits_1_after_the_idle_timeout(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    done = check(run, SYLLABUS, "--idle-timeout", "1")
    assert done.returncode == 1, done.stderr
    assert "the run stopped at episode 0 of" in done.stderr
    assert "nothing was written" in done.stderr


def test_an_unreadable_row_of_a_run_that_stops_is_named_at_the_idle_timeout(
        tmp_path: Path) -> None:
    run = tmp_path / "rewards.csv"
    _first(WATCH / "rewards.csv", run, 39)
    lines = run.read_bytes().splitlines(True)
    lines[11] = _cells(b",", 2, b"oops")(lines[11])
    run.write_bytes(b"".join(lines))
    done = check(run, SYLLABUS, "--idle-timeout", "1")
    assert done.returncode == 1, done.stderr
    assert "(--idle-timeout); the run stopped at episode 39 of" in done.stderr
    assert f"its log cannot be read: {run}:12: reward is not a number: 'oops'" in done.stderr


def test_the_idle_time_counts_from_the_last_complete_line(tmp_path: Path) -> None:
    """A complete line restarts the idle time; a half-written one does not. The follower's
    clock is the test's own, so this is decided by the lines written, not by how fast the
    machine is."""
    run = tmp_path / "rewards.csv"
    _first(WATCH / "rewards.csv", run, 10)
    rest = (WATCH / "rewards.csv").read_bytes().splitlines(True)[11:]
    now = [100.0]
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    follower.clock = lambda: now[0]
    try:
        follower.touch()
        now[0] = 130.0
        assert follower.idle_for() == 30.0
        with open(run, "ab") as handle:
            handle.write(rest[0])
        follower.refresh()
        assert follower.idle_for() == 0.0
        now[0] = 140.0
        with open(run, "ab") as handle:
            handle.write(rest[1][:3])  # half a line: no new row yet
        follower.refresh()
        assert follower.idle_for() == 10.0
    finally:
        follower.close()


@pytest.mark.parametrize(("value", "why"), [
    ("-1", "must be 0 (wait for ever) or a positive number of seconds, got '-1'"),
    ("nan", "must be 0 (wait for ever) or a positive number of seconds, got 'nan'"),
    ("inf", "must be 0 (wait for ever) or a positive number of seconds, got 'inf'"),
    ("soon", "not a number of seconds: 'soon'"),
])
def test_a_bad_idle_timeout_is_a_usage_error(value: str, why: str) -> None:
    done = check(WATCH / "rewards.csv", SYLLABUS, "--idle-timeout", value)
    assert done.returncode == 2, done.stderr
    assert f"argument --idle-timeout: {why}" in done.stderr


def test_the_idle_timeout_needs_check() -> None:
    assert SYLLA is not None
    done = subprocess.run([SYLLA, "watch", str(WATCH / "rewards.csv"), "--idle-timeout", "5"],
                          capture_output=True, text=True, timeout=EXIT_WITHIN)
    assert done.returncode == 2
    assert "--idle-timeout needs --check" in done.stderr
