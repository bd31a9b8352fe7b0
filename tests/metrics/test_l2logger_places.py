"""l2logger logs place every row or refuse it (issue 38), on each of the reader's paths.

A NUL in a task name made a task of its own (exit 0), and so did any control or invisible
character, an empty name, or a name written once with a stray space; a block subtype other than
wake or sleep split a block; a block file cut inside its last line kept half a number. Each is
an error naming the file and row, the same from the whole-log reader and from the block-by-block
one (which steps aside for the whole-log reader to word it), whether the small-log parser or
pyarrow parses the files.

The log is ``sylla simulate``'s l2logger log of the two-task syllabus
(tests/fixtures/metrics/simulated_two_tasks_l2logger); each test spoils a copy of one block file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import l2logger_stream, read_log

from .conftest import FIXTURES, SYLLABUS

LOG = FIXTURES / "simulated_two_tasks_l2logger"
WORKERS = FIXTURES / "l2logger_workers"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")

#: the reader's paths: (stream, SMALL): the whole-log reader, the block-by-block reader with the
#: small-log parser, the block-by-block reader with pyarrow parsing every file
PATHS = {"whole": (False, None), "streamed": (True, None), "streamed_pyarrow": (True, -1)}


def spoil(tmp_path: Path, folder: str, row: int, column: str, value: str,
          source: Path = LOG, worker: str = "worker-default") -> tuple[Path, Path]:
    """A copy of ``source`` whose ``folder``'s data file has ``value`` in ``column`` of line
    ``row`` (quoted as pandas' ``to_csv`` quotes a cell holding a tab, newline or quote)."""
    log = Path(shutil.copytree(source, tmp_path / source.name))
    file = log / worker / folder / "data-log.tsv"
    lines = file.read_text(encoding="utf-8").split("\n")
    cells = lines[row - 1].split("\t")
    cells[lines[0].split("\t").index(column)] = (
        '"' + value.replace('"', '""') + '"' if any(c in value for c in '\t\n\r"') else value)
    lines[row - 1] = "\t".join(cells)
    file.write_text("\n".join(lines), encoding="utf-8")
    return log, file


def read(log: Path, path: str, monkeypatch: pytest.MonkeyPatch):
    stream, small = PATHS[path]
    if small is not None:
        monkeypatch.setattr(l2logger_stream, "SMALL", small)
    return read_log(log, stream=stream, progress=False)


CASES = {
    "nul": ("0-train", 4, "task_name", "Po\x00ng", "task_name 'Po\\x00ng' holds the control character U+0000"),
    "escape": ("3-train", 5, "task_name", "Break\x1bout", "U+001B"),
    "newline": ("3-train", 5, "task_name", "Break\nout", "U+000A"),
    "zero_width": ("3-train", 5, "task_name", "Break\u200bout", "U+200B"),
    "bom": ("1-test", 2, "task_name", "\ufeffPong", "U+FEFF"),
    "stray_space": ("3-train", 5, "task_name", "Breakout ", "only in leading or trailing space"),
    "empty_task": ("3-train", 5, "task_name", "", "task_name is empty"),
    "subtype": ("3-train", 5, "block_subtype", "wakey", "block_subtype must be wake or sleep, got 'wakey'"),
    "empty_worker": ("3-train", 5, "worker_id", "", "worker_id is empty"),
    "nul_worker": ("3-train", 5, "worker_id", "worker\x00-default", "U+0000"),
    "empty_exp": ("3-train", 5, "exp_num", "", "exp_num is empty"),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_row_the_reader_cannot_place_is_an_error_naming_it(tmp_path, monkeypatch, case, path):
    folder, row, column, value, words = CASES[case]
    log, file = spoil(tmp_path, folder, row, column, value)
    with pytest.raises(MetricsError) as info:
        read(log, path, monkeypatch)
    assert words in info.value.message, info.value.message
    assert (info.value.file, info.value.row) == (str(file), row)


def test_a_nul_in_a_task_name_is_refused_by_the_sylla_process(tmp_path):
    log, file = spoil(tmp_path, "0-train", 4, "task_name", "Po\x00ng")
    for args in ([], ["--syllabus", str(SYLLABUS)]):
        assert SYLLA is not None
        done = subprocess.run([SYLLA, "metrics", str(log), "-f", "json", *args],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stdout[:300]
        assert f"{file}:4: task_name 'Po\\x00ng' holds the control character U+0000" in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_file_cut_inside_its_last_line_is_refused_or_dropped(tmp_path, monkeypatch, path):
    """l2logger writes whole lines: a last line without its newline was cut while the file was
    written, and its value may be half a number. An error; --allow-partial drops the line, and
    the metrics are those of the log without it."""
    log = Path(shutil.copytree(LOG, tmp_path / "cut" / LOG.name))
    file = log / "worker-default" / "5-test" / "data-log.tsv"
    text = file.read_text(encoding="utf-8")
    file.write_text(text[:-3], encoding="utf-8")  # "...\t5.4773\n" -> "...\t5.47"
    last = text.count("\n")
    with pytest.raises(MetricsError, match=r"no final newline.*--allow-partial") as info:
        read(log, path, monkeypatch)
    assert (info.value.file, info.value.row) == (str(file), last)
    without = Path(shutil.copytree(LOG, tmp_path / "without" / LOG.name))
    kept = text.split("\n")[:-2]
    (without / "worker-default" / "5-test" / "data-log.tsv").write_text("\n".join(kept) + "\n")
    stream = PATHS[path][0]
    got = compute_metrics(read_log(log, allow_partial=True, stream=stream, progress=False))
    expected = compute_metrics(read_log(without, stream=stream, progress=False))
    assert got.records == expected.records
    assert any(f"{file}:{last}:" in w and "that line was dropped" in w for w in got.warnings)


def test_a_stray_experience_number_costs_no_memory(tmp_path):
    """An experience renumbered near 2^53 is one hole in the numbers, not an array that long."""
    log, file = spoil(tmp_path, "3-train", 5, "exp_num", str(2**53))
    with pytest.raises(MetricsError, match="experience"):
        read_log(log, stream=False, progress=False)


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_negative_experience_in_a_log_of_several_workers_is_refused(tmp_path, monkeypatch,
                                                                      path):
    log, file = spoil(tmp_path, "3-train", 2, "exp_num", "-1", source=WORKERS, worker="worker-0")
    with pytest.raises(MetricsError, match="exp_num must be non-negative") as info:
        read(log, path, monkeypatch)
    assert (info.value.file, info.value.row) == (str(file), 2)
