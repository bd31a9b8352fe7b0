"""The block-by-block l2logger reader gives what the whole-log reader gives, or steps aside.

`read_log(..., stream=True)` reduces a regular l2logger log one block file at a time into spill
files and returns runs already split into regimes; every other log goes through the whole-log
reader. These tests hold the two paths to the same runs (values, experience numbers, block
tables, logged rows) and the same metrics, on the fixture logs in l2logger's real layout and on
generated logs with several rows per experience and test blocks that evaluate every task; and
they check that irregular logs fall back and keep their errors and warnings.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.align import align
from sylla.metrics.data import as_frame, column
from sylla.metrics.errors import MetricsError
from sylla.metrics.readers import read_log
from sylla.metrics.result import compute_metrics
from sylla.metrics.spill import SpillArray
from sylla.metrics.synth import alternating_plan, write_l2logger

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "metrics"
TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]


def _both(path: Path):
    streamed = read_log(path, stream=True, progress=False)
    whole = read_log(path, stream=False, progress=False)
    return streamed, whole


def _same_run(a, b) -> None:
    assert a.run == b.run
    assert np.array_equal(np.asarray(a.perf), np.asarray(b.perf))
    assert np.array_equal(np.asarray(a.exp), np.asarray(b.exp))
    pd.testing.assert_frame_equal(as_frame(a.blocks).reset_index(drop=True),
                                  as_frame(b.blocks).reset_index(drop=True),
                                  check_dtype=False)
    assert (a.rows is None) == (b.rows is None)
    if a.rows is not None:
        assert np.array_equal(np.asarray(a.rows.perf), np.asarray(b.rows.perf))
        assert np.array_equal(np.asarray(a.rows.exp), np.asarray(b.rows.exp))
        pd.testing.assert_frame_equal(as_frame(a.rows.blocks).reset_index(drop=True),
                                      as_frame(b.rows.blocks).reset_index(drop=True),
                                      check_dtype=False)


def _generated(tmp_path: Path, rows: int, version: str = "1.1", seed: int = 3) -> Path:
    return write_l2logger(tmp_path / f"ll-{rows}-{version}", alternating_plan(TASKS, 60, 12, cycles=2),
                          seed=seed, version=version, rows_per_exp=rows)


@pytest.mark.parametrize("name", ["l2logger_v10", "l2logger_v11"])
def test_fixture_logs_read_the_same_block_by_block(name):
    streamed, whole = _both(FIXTURES / name)
    assert streamed.runs is not None, "the fixture is a regular log and should be streamed"
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)


@pytest.fixture
def spill(monkeypatch):
    """Spill every streamed log to files, as a log of `SPILL_FROM` bytes and more is."""
    from sylla.metrics.readers import l2logger_stream

    monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)


@pytest.mark.parametrize("rows,version", [(1, "1.1"), (3, "1.1"), (2, "1.0")])
def test_generated_logs_read_the_same_block_by_block(tmp_path, rows, version, spill):
    log = _generated(tmp_path, rows, version)
    streamed, whole = _both(log)
    assert streamed.runs is not None
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)
    # test blocks evaluate every task: one regime per task, as the whole-log reader splits them
    assert list(column(got.blocks, "task")[:3]) == TASKS
    assert isinstance(got.perf, SpillArray)
    assert (got.rows is not None) == (rows > 1)


@pytest.mark.parametrize("spilled", [False, True])
def test_rows_kept_from_the_first_repeated_experience_on(tmp_path, spilled, monkeypatch):
    """The per-row values start as a copy of the episodes when an experience first has several
    rows: a log whose first blocks have one row per experience reads as the whole reader
    reads it, rows included."""
    from sylla.metrics.readers import l2logger_stream
    from sylla.metrics.synth import write_tsv

    if spilled:
        monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    log = _generated(tmp_path, 3)
    files = sorted((log / "worker-default").iterdir(), key=lambda p: int(p.name.split("-")[0]))
    for folder in files[:3]:  # the first test block and train block: one row per experience
        data = folder / "data-log.tsv"
        frame = pd.read_csv(data, sep="\t", dtype=str, keep_default_na=False)
        write_tsv(frame.drop_duplicates("exp_num"), data)
    streamed, whole = _both(log)
    assert streamed.runs is not None
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    assert got.rows is not None
    _same_run(got, expected)


@pytest.mark.parametrize("rows", [1, 3])
def test_small_logs_stay_in_memory(tmp_path, rows):
    """Below `SPILL_FROM` the values are arrays, equal to the spilled ones and the whole read's;
    the episodes' experience numbers, which run on without gaps, are their first and count."""
    from sylla.metrics.numbering import Consecutive

    log = _generated(tmp_path, rows)
    streamed, whole = _both(log)
    (got,), _ = align(streamed)
    (expected,), _ = align(whole)
    _same_run(got, expected)
    assert isinstance(got.perf, np.ndarray) and isinstance(got.exp, Consecutive)
    assert got.rows is None or isinstance(got.rows.perf, np.ndarray)


@pytest.mark.parametrize("rows,version", [(1, "1.1"), (3, "1.1"), (2, "1.0")])
def test_small_logs_parse_the_same_without_pyarrow(tmp_path, rows, version, monkeypatch):
    """A log under `SMALL` bytes is parsed with the standard library (`l2logger_small`): the
    same runs, bit for bit, as pyarrow's parse of it."""
    from sylla.metrics.readers import l2logger_stream

    log = _generated(tmp_path, rows, version)
    (got,), _ = align(read_log(log, stream=True, progress=False))
    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    (expected,), _ = align(read_log(log, stream=True, progress=False))
    _same_run(got, expected)
    assert got.perf.tobytes() == expected.perf.tobytes()


def test_an_unusual_small_file_is_left_to_pyarrow(tmp_path):
    """Quoted fields are read by pyarrow's CSV rules (quotes stripped), not split as text."""
    from sylla.metrics.readers.l2logger_small import Unusual, read_columns

    log = _generated(tmp_path, 1)
    (expected,), _ = align(read_log(log, stream=True, progress=False))
    file = sorted(log.rglob("data-log.tsv"))[0]
    lines = file.read_text(encoding="utf-8").split("\n")
    lines[1:] = ["\t".join(f'"{f}"' if f == "{}" else f for f in line.split("\t"))
                 for line in lines[1:]]
    file.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(Unusual):
        read_columns(file, ["task_params"])
    (got,), _ = align(read_log(log, stream=True, progress=False))
    _same_run(got, expected)


@pytest.mark.parametrize("rows", [1, 3])
@pytest.mark.parametrize("ahead", [True, False])
def test_block_files_parsed_in_many_ranges_give_the_same_run(tmp_path, rows, ahead, monkeypatch):
    """Files are parsed `RANGE` bytes at a time, cut at line ends, parsed ahead of the one being
    reduced or not; the run is the same however small the ranges."""
    from sylla.metrics.readers import l2logger_stream

    log = _generated(tmp_path, rows)
    (expected,), _ = align(read_log(log, stream=True, progress=False))
    monkeypatch.setattr(l2logger_stream, "SMALL", -1 if ahead else 1 << 30)
    monkeypatch.setattr(l2logger_stream, "_read_small", _unusual)  # pyarrow parses every file
    monkeypatch.setattr(l2logger_stream, "RANGE", 300)
    (got,), _ = align(read_log(log, stream=True, progress=False))
    _same_run(got, expected)


def test_a_small_log_is_parsed_in_smaller_ranges(tmp_path, monkeypatch):
    """Below `memory.LARGE` a file is parsed in ranges of
    a share of the log (`SMALL_LOG_SHARE`), at least `SMALL_LOG_RANGE` bytes, so that fewer
    bytes are in flight (issue 40); the run is the same."""
    from sylla.metrics.readers import l2logger_stream

    log = _generated(tmp_path, 3)
    (expected,), _ = align(read_log(log, stream=True, progress=False))
    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    monkeypatch.setattr(l2logger_stream, "_read_small", _unusual)  # pyarrow parses every file
    monkeypatch.setattr(l2logger_stream, "SMALL_LOG_RANGE", 300)
    size = sum(f.stat().st_size for f in log.rglob("data-log.tsv"))
    monkeypatch.setattr(l2logger_stream, "SMALL_LOG_SHARE", size // 600)  # ranges of 600 bytes
    parsed, longest = _parsed_ranges(log, expected, monkeypatch)
    assert len(parsed) > 2 * len(list(log.rglob("data-log.tsv")))
    assert max(parsed) <= 600 + longest and sorted(parsed)[len(parsed) // 2] > 300


def test_a_large_log_is_parsed_in_large_log_ranges(tmp_path, monkeypatch):
    """From `memory.LARGE` on a file is parsed in ranges of
    `LARGE_LOG_RANGE` bytes, not `RANGE` (issue 40: 8 MiB ranges, two parse blocks each, took
    a 10M-episode log's reading peak down by the parse buffers in flight); the run is the
    same."""
    from sylla.metrics.readers import l2logger_stream

    log = _generated(tmp_path, 3)
    (expected,), _ = align(read_log(log, stream=True, progress=False))
    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    monkeypatch.setattr(l2logger_stream, "_read_small", _unusual)  # pyarrow parses every file
    monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)  # read as a large log is
    monkeypatch.setattr(l2logger_stream, "RANGE", 1 << 30)
    monkeypatch.setattr(l2logger_stream, "LARGE_LOG_RANGE", 600)
    parsed, longest = _parsed_ranges(log, expected, monkeypatch)
    assert len(parsed) > 2 * len(list(log.rglob("data-log.tsv")))
    assert max(parsed) <= 600 + longest


def _unusual(*args: object) -> None:
    from sylla.metrics.readers.l2logger_small import Unusual

    raise Unusual("parsed by pyarrow in this test")


@pytest.mark.parametrize("size", [1, 57, 300, 4096])
def test_ranges_cut_a_file_after_line_ends_and_cover_it(tmp_path, size, monkeypatch):
    from sylla.metrics.readers import l2logger_stream

    lines = [b"a\tb\n"] + [b"%d\t%s\n" % (k, b"x" * (k % 37)) for k in range(200)]
    file = tmp_path / "data-log.tsv"
    file.write_bytes(b"".join(lines)[:-1])  # the last line without its line end
    monkeypatch.setattr(l2logger_stream, "RANGE", size)
    ranges = l2logger_stream._ranges(file)
    data = file.read_bytes()
    assert ranges[0][0] == len(lines[0]) and ranges[-1][1] == len(data)
    assert all(hi == lo for (_, hi), (lo, _) in zip(ranges, ranges[1:]))
    assert all(data[hi - 1:hi] == b"\n" for _, hi in ranges[:-1])
    for lo, hi in ranges[:-1]:  # each cut at the first line end at least `RANGE` bytes on
        assert hi - lo > size and b"\n" not in data[lo + size:hi - 1]
    assert (len(ranges) > 1) == (len(lines[0]) + size < len(data))


@pytest.mark.parametrize("range_bytes", [1 << 30, 300])
def test_a_log_of_one_range_is_parsed_on_every_core(tmp_path, range_bytes, monkeypatch):
    """A log of one block file in one range (an expert run) has no other range to parse beside
    it: it is parsed on pyarrow's threads. A log of several ranges parses two at a time, on
    pyarrow's threads only where there are more cores than that (`_Ahead.PARALLEL`); either
    way the run read is the same."""
    from sylla.metrics.readers import l2logger_stream

    log = write_l2logger(tmp_path / "ste", [("train", [("alpha_v0", 80)])], seed=5)
    (file,) = sorted(log.rglob("data-log.tsv"))
    (expected,), _ = align(read_log(log, stream=False, progress=False))
    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    monkeypatch.setattr(l2logger_stream, "_read_small", _unusual)  # pyarrow parses every file
    monkeypatch.setattr(l2logger_stream, "RANGE", range_bytes)
    parsed_with: list[bool] = []
    parse = l2logger_stream._parse_range

    def recorded(file: Path, lo: int, hi: int, perf: str, subtype: bool,
                 threads: bool = True, block_size: int | None = None) -> object:
        parsed_with.append(threads)
        return parse(file, lo, hi, perf, subtype, threads, block_size)

    monkeypatch.setattr(l2logger_stream, "_parse_range", recorded)
    (got,), _ = align(read_log(log, stream=True, progress=False))
    _same_run(got, expected)
    several = len(l2logger_stream._ranges(file)) > 1
    assert several == (range_bytes == 300)
    expected_threads = l2logger_stream.cores() > l2logger_stream._Ahead.PARALLEL or not several
    assert parsed_with and set(parsed_with) == {expected_threads}


def test_a_file_with_only_its_header_is_one_empty_range(tmp_path):
    from sylla.metrics.readers import l2logger_stream

    file = tmp_path / "data-log.tsv"
    file.write_bytes(b"a\tb\n")
    assert l2logger_stream._ranges(file) == [(4, 4)]


@pytest.mark.parametrize("spilled", [True, False])
def test_metrics_are_identical_streamed_or_not(tmp_path, spilled, monkeypatch):
    from sylla.metrics.readers import l2logger_stream

    if spilled:
        monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    log = _generated(tmp_path, 3)
    stes = [write_l2logger(tmp_path / "ste" / f"ste_{t}_run1", [("train", [(t, 60)])], seed=11 + i,
                           rows_per_exp=3) for i, t in enumerate(TASKS)]
    streamed = compute_metrics(log, ste=[tmp_path / "ste"], progress=False)
    whole = compute_metrics(read_log(log, progress=False), ste=[tmp_path / "ste"], progress=False)
    assert isinstance(streamed.runs[0].perf, SpillArray if spilled else np.ndarray)
    assert isinstance(whole.runs[0].perf, np.ndarray)
    assert len(streamed.rows) > 50 and len(stes) == 3
    pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)
    assert streamed.warnings == whole.warnings


@pytest.mark.parametrize("params", [
    {"smoothing": "hanning", "smooth_eval": "true"},
    {"clamp_outliers": "true", "window_length": "7"},
    {"normalization": "run", "smoothing": "blackman"},
    {"smoothing": "none"},
])
def test_preprocessing_options_give_identical_metrics_spilled(tmp_path, params, spill):
    """l2metrics' preprocessing writes a spilled run's smoothed copy block by block
    (`preprocess._smoothed_copy`); in memory it copies and smooths in place: same metrics."""
    log = _generated(tmp_path, 3)
    for i, t in enumerate(TASKS):
        write_l2logger(tmp_path / "ste" / f"ste_{t}_run1", [("train", [(t, 60)])], seed=11 + i,
                       rows_per_exp=3)
    streamed = compute_metrics(log, ste=[tmp_path / "ste"], params=params, progress=False)
    whole = compute_metrics(read_log(log, progress=False), ste=[tmp_path / "ste"],
                            params=params, progress=False)
    assert isinstance(streamed.runs[0].perf, SpillArray)
    pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)


def _rewrite(log: Path, edit) -> None:
    """Edit the rows of a log's first train block file (pandas, tab-separated, as written)."""
    file = sorted(log.rglob("1-train/data-log.tsv"))[0]
    frame = pd.read_csv(file, sep="\t", dtype=str, keep_default_na=False)
    edit(frame)
    frame.to_csv(file, sep="\t", index=False)


def _tasks(first: int, second: int) -> "callable":
    """Rows ``first:second`` of the block become another task."""
    def edit(frame: pd.DataFrame) -> None:
        names = list(frame.task_name)
        names[first:second] = ["beta_v0"] * (second - first)
        frame["task_name"] = names
    return edit


CASES = {
    # case: (rows per experience, edit of the first train block or None, expected outcome)
    "incomplete": (2, lambda f: f.__setitem__(
        "exp_status", ["incomplete"] + ["complete"] * (len(f) - 1)), "fallback"),
    "repeat": (2, lambda f: f.__setitem__(
        "exp_num", [f.exp_num.iat[-1]] + list(f.exp_num[1:])), "error"),
    "task_returns": (1, _tasks(5, 10), "error"),
    "task_changes_once": (1, _tasks(0, 10), "streamed"),
    "experience_spans_two_tasks": (2, None, "error"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_irregular_logs_fall_back_to_the_whole_log_reader(tmp_path, case):
    rows, edit, outcome = CASES[case]
    log = _generated(tmp_path, rows)
    if edit is None:  # rows of one experience split between two tasks
        def edit(frame: pd.DataFrame) -> None:
            exp = frame.exp_num.astype(int)
            k = int(np.flatnonzero((exp.to_numpy()[1:] == exp.to_numpy()[:-1]))[0]) + 1
            _tasks(0, k)(frame)
    _rewrite(log, edit)
    if outcome == "error":
        same_refusal(log)
        return
    streamed, whole = _both(log)
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)
    assert streamed.warnings == whole.warnings
    assert (streamed.runs is None) == (outcome == "fallback")
    if case == "task_changes_once":
        assert list(column(got.blocks, "task")[3:5]) == ["beta_v0", TASKS[0]]


def test_a_bad_value_is_worded_as_before(tmp_path):
    log = _generated(tmp_path, 1)
    _rewrite(log, lambda f: f.__setitem__("reward", ["0.5"] * (len(f) - 1) + ["oops"]))
    message = same_refusal(log)
    assert "oops" in message and "data-log.tsv" in message


# --- with a syllabus -------------------------------------------------------------------------

def _syllabus(tmp_path: Path, plan: list, split: bool = False, rename: dict | None = None) -> Path:
    """A syllabus scheduling ``plan`` (`alternating_plan`'s blocks) episode for episode, with
    phase labels as a log's regimes number them. ``split``: each train block as two repeats of
    its task (a block boundary inside one of the log's regimes); ``rename``: other task names
    in some blocks (a syllabus the log disagrees with)."""
    import json

    instructions: list[dict] = []
    phase = 0
    for k, (kind, parts) in enumerate(plan):
        phase += kind == "train"
        instructions.append({"$phase": f"{phase}.{kind}"})
        if kind == "test":
            instructions.append({"$info": {"disable_updates": True}})
        for task, count in parts:
            task = (rename or {}).get((k, task), task)
            if split and kind == "train":
                instructions.append({"$repeat": {"$episode": task}, "count": count // 3})
                count -= count // 3
            instructions.append({"$repeat": {"$episode": task}, "count": count})
        if kind == "test":
            instructions.append({"$info": {}})
    path = tmp_path / f"syllabus-{split}-{bool(rename)}.json"
    path.write_text(json.dumps({"name": "plan", "contains": "episodes",
                                "instructions": instructions}), encoding="utf-8")
    return path


PLAN = alternating_plan(TASKS, 60, 12, cycles=2)


def same_refusal(log: Path) -> str:
    """The error both readers stop ``log`` with, which must be worded the same (the streaming
    reader hands what it cannot judge to the whole-log reader)."""
    with pytest.raises(MetricsError) as whole:
        read_log(log, stream=False, progress=False)
    with pytest.raises(MetricsError) as streamed:
        read_log(log, stream=True, progress=False)
    assert str(streamed.value) == str(whole.value)
    return str(streamed.value)


def streamed_like_whole(log: Path, syllabus: Path, partial: bool) -> str | None:
    """Metrics of ``log`` against a ``syllabus`` it strays from, streamed and read whole: with
    ``partial``, the same rows and warnings of a partial run (None); otherwise the same error,
    whose message is returned for the caller's own check."""
    if partial:
        whole = compute_metrics(read_log(log, stream=False, progress=False, allow_partial=True),
                                syllabus, progress=False, allow_partial=True)
        streamed = compute_metrics(log, syllabus, progress=False, allow_partial=True)
        pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)
        assert streamed.warnings == whole.warnings and streamed.runs[0].partial
        return None
    with pytest.raises(MetricsError) as whole_error:
        compute_metrics(read_log(log, stream=False, progress=False), syllabus, progress=False)
    with pytest.raises(MetricsError) as streamed_error:
        compute_metrics(log, syllabus, progress=False)
    assert str(streamed_error.value) == str(whole_error.value)
    return str(streamed_error.value)


def _whole_metrics(log: Path, syllabus: Path, ste: Path):
    return compute_metrics(read_log(log, stream=False, progress=False), syllabus, ste=[ste],
                           progress=False)


@pytest.mark.parametrize("rows,split,spilled", [(1, False, False), (3, False, True),
                                                (3, True, False), (2, True, True)])
def test_a_log_with_a_syllabus_is_streamed_with_the_same_metrics(tmp_path, rows, split, spilled,
                                                                  monkeypatch):
    from sylla.metrics.readers import l2logger, l2logger_stream

    if spilled:
        monkeypatch.setattr(l2logger_stream, "SPILL_FROM", 0)
    log = _generated(tmp_path, rows)
    for i, t in enumerate(TASKS):
        write_l2logger(tmp_path / "ste" / f"ste_{t}_run1", [("train", [(t, 60)])], seed=11 + i,
                       rows_per_exp=rows)
    syllabus = _syllabus(tmp_path, PLAN, split=split)
    whole = _whole_metrics(log, syllabus, tmp_path / "ste")
    to_episodes = l2logger._to_episodes
    calls = []
    monkeypatch.setattr(l2logger, "_to_episodes",
                        lambda *a, **k: calls.append(1) or to_episodes(*a, **k))
    streamed = compute_metrics(log, syllabus, ste=[tmp_path / "ste"], progress=False)
    assert not calls, "the log should have been read block by block"
    assert isinstance(streamed.runs[0].perf, SpillArray if spilled else np.ndarray)
    assert len(streamed.rows) > 50
    pd.testing.assert_frame_equal(streamed.rows, whole.rows, check_exact=True)
    assert streamed.warnings == whole.warnings
    got, expected = streamed.runs[0], whole.runs[0]
    _same_run(got, expected)
    if split:  # the syllabus's blocks, not the log's regimes
        assert len(got.blocks) > len(as_frame(align(read_log(log, stream=True,
                                                             progress=False))[0][0].blocks))


@pytest.mark.parametrize("change", ["task", "count", "partial"])
def test_a_syllabus_the_log_disagrees_with_is_worded_as_before(tmp_path, change):
    """A streamed log the syllabus does not describe is read again whole: the same error (with
    its file and row), or the same partial run with --allow-partial."""
    log = _generated(tmp_path, 2)
    plan = [list(b) for b in PLAN]
    rename = None
    if change == "task":
        rename = {(3, TASKS[1]): TASKS[2]}
    elif change == "count":
        plan[1] = ("train", [(TASKS[0], 61)])
    else:
        plan.append(("train", [(TASKS[0], 10)]))
    syllabus = _syllabus(tmp_path, plan, rename=rename)
    message = streamed_like_whole(log, syllabus, partial=change == "partial")
    assert message is None or "data-log.tsv" in message


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "b", "ab", "ba", "abc", "Alpha_V0", "\u00e9t\u00e9"]),
                min_size=1, max_size=40), st.integers(0, 5))
def test_runs_finds_every_change_of_value(values, cut):
    """`value_runs` against a plain loop, on values of equal and differing lengths, whole or sliced."""
    import pyarrow as pa

    from sylla.metrics.readers.l2logger_stream import value_runs

    array = pa.array([v.encode() for v in values], pa.binary()).slice(min(cut, len(values) - 1))
    kept = values[min(cut, len(values) - 1):]
    starts, found = value_runs(array)
    expected = [i for i, v in enumerate(kept) if i == 0 or v != kept[i - 1]]
    assert starts.tolist() == expected
    assert found == [kept[i] for i in expected]


def test_runs_refuses_bytes_that_are_not_utf8():
    import pyarrow as pa

    from sylla.metrics.readers.l2logger_stream import Irregular, value_runs

    with pytest.raises(Irregular, match="UTF-8"):
        value_runs(pa.array([b"ok", b"\xff\xfe"], pa.binary()))


def test_a_log_read_after_a_large_one_spills_whatever_its_size(tmp_path, monkeypatch):
    """The expert runs of a long run are read after it: once a log of `memory.LARGE` bytes
    has been read, every later one spills its values (`memory.for_log_of`)."""
    from sylla.metrics import memory

    monkeypatch.setattr(memory, "_active", False)
    monkeypatch.setattr(memory, "return_freed_arrays", lambda: True)  # this process's malloc as it is
    small = _generated(tmp_path / "small", 1)
    large = _generated(tmp_path / "large", 3)
    first = read_log(small, stream=True, progress=False)
    assert isinstance(first.runs[0].perf, np.ndarray)
    monkeypatch.setattr(memory, "LARGE", sum(f.stat().st_size for f in large.rglob("*.tsv")))
    assert isinstance(read_log(large, stream=True, progress=False).runs[0].perf, SpillArray)
    again = read_log(small, stream=True, progress=False)
    assert isinstance(again.runs[0].perf, SpillArray)
    (got,), _ = align(again)
    (expected,), _ = align(first)
    _same_run(got, expected)


CELLS = [("exp_status", "incomplete"), ("exp_status", "{kind}"), ("exp_status", ""),
         ("exp_status", "Complete"), ("block_type", "{other}"), ("block_type", ""),
         ("reward", "{kind}"), ("reward", "nan"), ("exp_num", "{kind}"), ("block_num", "{kind}"),
         ("worker_id", "complete"), ("worker_id", "{kind}"), ("block_subtype", "complete"),
         ("block_subtype", "{kind}"), ("task_name", "{kind}"), ("task_params", "complete")]


@pytest.mark.parametrize(("column", "value"), CELLS)
def test_one_odd_cell_reads_as_the_whole_log_reader_reads_it(tmp_path, column, value, monkeypatch):
    """A cell the parser checks (`csv_options`' ``kind``: ``block_type`` must be the folder's,
    ``exp_status`` ``complete``, a value of the block's type elsewhere reads as a null) or the
    reader compares (`_runs`) gives what the whole-log reader gives: its error, or its run and
    warnings."""
    from sylla.metrics.readers import l2logger_stream

    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    monkeypatch.setattr(l2logger_stream, "_read_small", _unusual)  # pyarrow parses every file
    log = _generated(tmp_path, 1)
    file = sorted(log.rglob("data-log.tsv"))[1]
    kind = file.parent.name.split("-")[1]
    lines = file.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split("\t")
    cells = lines[len(lines) // 2].rstrip("\n").split("\t")
    cells[header.index(column)] = value.format(kind=kind, other="test" if kind == "train" else "train")
    lines[len(lines) // 2] = "\t".join(cells) + "\n"
    file.write_text("".join(lines))
    try:
        whole = read_log(log, stream=False, progress=False)
    except MetricsError:
        same_refusal(log)
        return
    streamed = read_log(log, stream=True, progress=False)
    assert streamed.warnings == whole.warnings
    (expected,), _ = align(whole)
    (got,), _ = align(streamed)
    _same_run(got, expected)


@pytest.mark.parametrize("column", ["task_name", "task_params", "worker_id"])
def test_a_cell_that_is_not_utf8_is_located(tmp_path, column, monkeypatch):
    """Bytes that are not UTF-8 in a string cell: the stream reader hands the log to the
    whole-log reader, which names the file, the line and the byte (not pyarrow's 0-based column
    index)."""
    from sylla.metrics.readers import l2logger_stream

    monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    log = _generated(tmp_path, 2)
    file = sorted(log.rglob("data-log.tsv"))[2]
    lines = file.read_bytes().splitlines(keepends=True)
    header = lines[0].rstrip(b"\n").split(b"\t")
    line = len(lines) // 2 + 1  # 1-based, as the message counts
    cells = lines[line - 1].rstrip(b"\n").split(b"\t")
    cells[header.index(column.encode())] = b"gamma\xff"
    lines[line - 1] = b"\t".join(cells) + b"\n"
    file.write_bytes(b"".join(lines))
    for stream in (True, False):
        with pytest.raises(MetricsError) as caught:
            read_log(log, stream=stream, progress=False)
        assert caught.value.file == str(file) and caught.value.row == line
        assert caught.value.message.startswith("not UTF-8 text: byte 0xff at byte ")


def _parsed_ranges(log, expected, monkeypatch) -> tuple[list[int], int]:
    """Read ``log`` again with each range's size recorded as it is parsed, checking that the
    run equals ``expected``: the sizes, and the longest line of the log's files (a range
    ends at the line break after its nominal end)."""
    from sylla.metrics.readers import l2logger_stream

    parsed: list[int] = []
    parse = l2logger_stream._parse_range

    def counted(file, lo, hi, *args, **kwargs):
        parsed.append(hi - lo)
        return parse(file, lo, hi, *args, **kwargs)

    monkeypatch.setattr(l2logger_stream, "_parse_range", counted)
    (got,), _ = align(read_log(log, stream=True, progress=False))
    _same_run(got, expected)
    longest = max(len(line) for f in log.rglob("data-log.tsv")
                  for line in f.read_bytes().splitlines(keepends=True))
    return parsed, longest
