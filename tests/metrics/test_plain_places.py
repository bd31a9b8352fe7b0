"""Plain logs place every row or refuse it (issue 38).

Without a syllabus, a plain log's ``task``, ``block_type`` and ``episode`` columns are all that
place an episode in its block. A value the reader cannot place (a block type that is neither
train nor test, a task name holding a control character, a hole or a stray in the episode
numbers) used to become a number with exit 0: a block split in two, a one-episode block after
the last test, a block one episode short, a new task. Each is now an error naming the row, in
every plain format, with and without ``--syllabus``; rows merely out of order are placed by
their numbers with a warning.

The log is ``sylla simulate``'s CSV of the two-task syllabus (tests/fixtures/metrics/
simulated_two_tasks.csv); each test spoils a copy the way a crash, an editor or a careless writer
would, and writes it in the format under test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from fuzzing.readers import PLAIN, Table, read_table, write_table

from sylla.cli import main
from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import read_log

from .conftest import FIXTURES, SYLLABUS

LOG = FIXTURES / "simulated_two_tasks.csv"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")
# the simulated log's rows: episodes 0-5 Pong train, 6-7 Pong test, 8-9 Breakout test,
# 10-15 Breakout train, 16-17 Pong test, 18-19 Breakout test; row r of the CSV is episode r - 2


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    assert SYLLA is not None
    return subprocess.run([SYLLA, *args], capture_output=True, text=True, timeout=120)


def spoilt(tmp_path: Path, edit: Callable[[Table], None], fmt: str = "csv") -> Path:
    """A copy of the simulated log with ``edit`` applied, written as ``fmt``."""
    table = read_table(LOG)
    edit(table)
    path = tmp_path / f"log.{fmt}"
    write_table(table, path, fmt)
    return path


def cell(column: str, episode: int, value: object) -> Callable[[Table], None]:
    def edit(table: Table) -> None:
        table.rows[episode][table.columns.index(column)] = value
    return edit


def delete(episode: int) -> Callable[[Table], None]:
    def edit(table: Table) -> None:
        del table.rows[episode]
    return edit


def swap(a: int, b: int) -> Callable[[Table], None]:
    def edit(table: Table) -> None:
        table.rows[a], table.rows[b] = table.rows[b], table.rows[a]
    return edit


# --- the four cases of the issue, through the sylla process ---------------------------------

ISSUE = {
    # a block type that is neither train nor test split the Pong train block in three
    "block_type": (cell("block_type", 3, "traim"), 5, "block_type must be train or test, got 'traim'"),
    # a stray episode number made a one-episode block after the last test
    "stray": (cell("episode", 3, 99999), 6, "comes after episode 99999"),
    # a deleted episode left its block one short
    "deleted": (delete(3), 5, "episode 3 is missing (the log goes from episode 2 to 4)"),
    # a control character or a newline in a task name made a new task
    "control": (cell("task", 3, "Po\x01ng"), 5, "the control character U+0001"),
    "newline": (cell("task", 3, "Po\nng"), 5, "the control character U+000A"),
}


@pytest.mark.parametrize("case", sorted(ISSUE))
def test_a_row_the_reader_cannot_place_is_an_error_naming_it(tmp_path, case):
    edit, row, words = ISSUE[case]
    log = spoilt(tmp_path, edit)
    done = sylla("metrics", str(log), "-f", "json")
    assert done.returncode == 1, done.stdout[:300]
    assert f"{log}:{row}: " in done.stderr and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("case", sorted(ISSUE))
def test_the_same_rows_are_refused_with_a_syllabus(tmp_path, case):
    edit, _, _ = ISSUE[case]
    log = spoilt(tmp_path, edit)
    assert main(["metrics", "--syllabus", str(SYLLABUS), str(log), "-f", "json"]) == 1


def test_the_unspoilt_log_reads_without_a_word():
    """The checks cost a valid log nothing: no warning from the reader."""
    assert read_log(LOG).warnings == []
    done = sylla("metrics", str(LOG), "-f", "json")
    assert done.returncode == 0, done.stderr
    assert not any(str(LOG) in w for w in json.loads(done.stdout)["warnings"])


# --- the family, in every plain format -------------------------------------------------------

FAMILY = {
    "kind_upper": (cell("block_type", 12, "Train"), 14, "block_type must be train or test"),
    "kind_spaced": (cell("block_type", 12, "train "), 14, "block_type must be train or test"),
    "kind_empty": (cell("block_type", 12, ""), 14, "block_type is"),
    "kind_missing": (cell("block_type", 12, None), 14, "block_type is"),
    "nul": (cell("task", 12, "Break\x00out"), 14, "U+0000"),
    "zero_width": (cell("task", 12, "Break\u200bout"), 14, "U+200B (ZERO WIDTH SPACE)"),
    "bom": (cell("task", 12, "\ufeffBreakout"), 14, "U+FEFF"),
    "line_separator": (cell("task", 12, "Break\u2028out"), 14, "U+2028"),
    "c1_control": (cell("task", 12, "Break\x85out"), 14, "U+0085"),
    "trailing_space": (cell("task", 12, "Breakout "), 14, "only in leading or trailing space"),
    "task_empty": (cell("task", 12, ""), 14, "task is"),
    "task_missing": (cell("task", 12, None), 14, "task is"),
    "starts_at_one": (delete(0), 2, "episode 0 is missing (the log starts at episode 1)"),
    "stray_at_end": (cell("episode", 19, 10**12), 21, "episodes 19-999999999999 are missing"),
    "renumbered_into_a_test": (swap(5, 6), 8, "make different blocks (task, block_type)"),
}


@pytest.mark.parametrize("fmt", PLAIN)
@pytest.mark.parametrize("case", sorted(FAMILY))
def test_each_format_refuses_what_it_cannot_place(tmp_path, fmt, case):
    edit, row, words = FAMILY[case]
    log = spoilt(tmp_path, edit, fmt)
    with pytest.raises(MetricsError) as info:
        read_log(log)
    err = info.value
    assert words in err.message, err.message
    # a JSON Lines or Parquet record has no header line before it
    assert err.file == str(log) and err.row == (row if fmt in ("csv", "tsv") else row - 1), str(err)
    assert err.exit_code == 1


@pytest.mark.parametrize("fmt", PLAIN)
def test_rows_out_of_order_within_a_block_are_placed_by_their_numbers(tmp_path, fmt):
    log = spoilt(tmp_path, swap(2, 4), fmt)
    got = compute_metrics(log, only=["saturation", "transfer"])
    (tmp_path / "original").mkdir()
    original = spoilt(tmp_path / "original", lambda t: None, fmt)
    same = compute_metrics(original, only=["saturation", "transfer"])
    assert got.records == same.records
    order = [w for w in got.warnings if "rows out of order are placed by their episode numbers" in w]
    assert len(order) == 1 and "episode 3 (row" in order[0], got.warnings


def test_a_log_written_newest_first_is_in_order(tmp_path):
    log = spoilt(tmp_path, lambda t: t.rows.reverse())
    assert read_log(log).warnings == []


def test_a_block_number_that_is_not_a_whole_number_is_refused(tmp_path):
    def edit(table: Table) -> None:
        table.columns.append("block")
        for i, row in enumerate(table.rows):
            row.append(0 if i < 6 else 1)
        table.rows[3][-1] = "one"
    log = spoilt(tmp_path, edit)
    with pytest.raises(MetricsError, match=r"block must be a non-negative whole number, got 'one'"
                       ) as info:
        read_log(log)
    assert info.value.row == 5


def test_an_episode_logged_as_two_block_types_is_refused(tmp_path):
    def edit(table: Table) -> None:
        twin = list(table.rows[3])
        twin[table.columns.index("block_type")] = "test"
        table.rows.insert(4, twin)
    with pytest.raises(MetricsError, match="episode 3 is logged with block_type 'train' and "
                                           "block_type 'test'"):
        read_log(spoilt(tmp_path, edit))


def test_an_empty_worker_is_refused(tmp_path):
    def edit(table: Table) -> None:
        table.columns.append("worker")
        for row in table.rows:
            row.append("w0")
        table.rows[7][-1] = ""
    with pytest.raises(MetricsError, match="worker is empty") as info:
        read_log(spoilt(tmp_path, edit))
    assert info.value.row == 9


def test_allow_partial_places_the_episodes_present_by_their_numbers(tmp_path):
    """A hole under --allow-partial is a warning; with a syllabus each episode goes to the block
    its number falls in and the block that misses one is partial (not the last block, as a run
    that ended early would have it)."""
    log = spoilt(tmp_path, delete(3))
    with pytest.raises(MetricsError, match=r"use --allow-partial"):
        compute_metrics(log, SYLLABUS)
    result = compute_metrics(log, SYLLABUS, allow_partial=True)
    blocks = result.to_json()["blocks"]
    assert [(b["block"], b["episodes"], b["partial"]) for b in blocks] == [
        (0, 5, True), (1, 2, False), (2, 2, False), (3, 6, False), (4, 2, False), (5, 2, False)]
    assert any("episode 3 is missing" in w and "metrics use the episodes present" in w
               for w in result.warnings)
    assert any("episodes are missing from the log; blocks [0] are partial" in w
               for w in result.warnings)
