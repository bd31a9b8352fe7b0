"""At every cut point the live state equals ``sylla metrics --format json`` on the log as it
stands, in each format that grows: l2logger, plain CSV/TSV, continual-imitation, learnkit.

The followed run is extended in place (appends, new block folders, a half-written last line
after every cut); the batch command reads a clean copy cut at the same line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import FIXTURES, SYLLABUS, WATCH, batch
from .replay import Appender, materialise


def _cuts(n: int) -> list[int]:
    """Empty, one line, mid-block points, a block edge and the whole log."""
    return sorted({1, 2, n // 5, n // 3, 31, 32, n // 2 + 1, (3 * n) // 4, n - 1, n} &
                  set(range(1, n + 1)))


def _same(state, expected: dict | None, error: str | None, clean: Path, run: Path) -> None:
    if error is not None:
        assert state.document is None
        assert state.error == error.replace(str(clean), str(run))
    else:
        assert state.error is None, state.error
        got = json.loads(json.dumps(state.document))
        expected = json.loads(json.dumps(expected).replace(str(clean), str(run)))
        assert got == expected


CASES = [
    ("l2logger", WATCH / "l2logger_run", "run", ["--syllabus", str(SYLLABUS), "--allow-partial"]),
    ("l2logger-no-syllabus", WATCH / "l2logger_run", "run", []),
    ("csv", WATCH / "rewards.csv", "rewards.csv", ["--syllabus", str(SYLLABUS), "--allow-partial"]),
    ("tsv", WATCH / "rewards.tsv", "rewards.tsv", ["--syllabus", str(SYLLABUS), "--allow-partial"]),
    ("iscil", FIXTURES / "iscil" / "tree" / "iscil" / "kitchen" / "exp_worked_seed0",
     "exp_worked_seed0", []),
    ("learnkit", FIXTURES / "learnkit_sep2020" / "two_tasks-1600830032-0285285", "lk", []),
]


def _follow_with(tmp_path: Path, source: Path, params: dict) -> tuple[Appender, Follower, list[str], Path, Path]:
    """A live copy of ``source`` (grown by the appender), a clean copy for the batch command,
    a follower with the preprocessing ``params`` and the batch command's same options."""
    run, clean = tmp_path / "live" / source.name, tmp_path / "clean" / source.name
    run.parent.mkdir()
    clean.parent.mkdir()
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    for name, value in params.items():
        extra += ["-P", f"{name}={value}"]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True,
                                     params=dict(params)))
    return Appender(source, run), follower, extra, run, clean


def _each_cut_equals_batch(appender: Appender, follower: Follower, source: Path, clean: Path,
                           run: Path, extra: list[str], cuts: tuple[int, ...],
                           half: bool = False) -> None:
    """At each cut the follower updates incrementally (not recomputed) and its state equals
    the batch command's document on the same rows."""
    for cut in cuts:
        appender.advance(cut, half=half)
        state = follower.refresh()
        assert follower.last_update == "incremental", cut
        materialise(source, clean, cut)
        expected, error = batch(clean, *extra)
        _same(state, expected, error, clean, run)


@pytest.mark.parametrize(("fixture", "name", "extra"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_live_state_equals_batch_at_every_cut(tmp_path: Path, fixture: Path, name: str,
                                              extra: list[str]) -> None:
    run, clean = tmp_path / "live" / name, tmp_path / "clean" / name
    run.parent.mkdir()
    clean.parent.mkdir()
    if fixture.is_dir():
        run.mkdir()
    appender = Appender(fixture, run)
    syllabus = extra[extra.index("--syllabus") + 1] if "--syllabus" in extra else None
    follower = Follower(run, Options(syllabus=syllabus, allow_partial="--allow-partial" in extra))
    try:
        for cut in _cuts(len(appender.lines)):
            appender.advance(cut, half=True)
            state = follower.refresh()
            materialise(fixture, clean, cut)
            expected, error = batch(clean, *extra)
            _same(state, expected, error, clean, run)
        # block values are kept from one computation to the next, re-read or not (the
        # continual-imitation pipeline's own metrics read no block ranges)
        assert follower.memo.hits or follower.state.document.get("format") == "iscil" or \
            name == "exp_worked_seed0"
    finally:
        follower.close()


def test_truncated_file_is_read_again(tmp_path: Path) -> None:
    fixture = WATCH / "rewards.csv"
    run = tmp_path / "rewards.csv"
    materialise(fixture, run, 60)
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    try:
        assert follower.state.progress.episodes_read == 59
        materialise(fixture, run, 20)  # replaced by a shorter file
        state = follower.refresh()
        assert state.progress.episodes_read == 19
        with open(run, "r+b") as handle:  # truncated in place, then rewritten longer
            handle.truncate(0)
        run.write_bytes(fixture.read_bytes())
        state = follower.refresh()
        assert state.progress.episodes_read == 80
        assert state.progress.complete
        expected, _ = batch(run, "--syllabus", str(SYLLABUS))
        assert state.document == expected
    finally:
        follower.close()


def test_half_written_line_is_neither_error_nor_number(tmp_path: Path) -> None:
    run = tmp_path / "rewards.csv"
    materialise(WATCH / "rewards.csv", run, 11, half=b"10,Pong,3.5")  # no newline yet
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    try:
        assert follower.state.error is None
        assert follower.state.progress.episodes_read == 10
        with open(run, "ab") as handle:
            handle.write(b"7\n")
        assert follower.refresh().progress.episodes_read == 11
        assert follower.state.points[-1]["perf"] == 3.57
    finally:
        follower.close()


@pytest.mark.parametrize("name", ["rewards.csv", "rewards.tsv", "rewards.jsonl"])
def test_appended_rows_update_incrementally_and_equal_batch(tmp_path: Path, name: str) -> None:
    """After the first rows, a plain log is updated from its appended rows alone (not
    recomputed), at cut points inside blocks and on a block edge, and still equals the batch
    command's document."""
    fixture = WATCH / name
    appender, follower, extra, run, clean = _follow_with(tmp_path, fixture, {})
    try:
        appender.advance(3, half=True)
        follower.refresh()
        # 31/32: the first block edge
        _each_cut_equals_batch(appender, follower, fixture, clean, run, extra,
                               (7, 19, 31, 32, 33, 57, 81), half=True)
    finally:
        follower.close()


def test_a_divergent_append_falls_back_to_the_batch_answer(tmp_path: Path) -> None:
    """Rows the fast path cannot vouch for (a wrong task) are recomputed from the mirror, so
    the state carries the batch command's own error."""
    fixture = WATCH / "rewards.csv"
    run, clean = tmp_path / "live" / "rewards.csv", tmp_path / "clean" / "rewards.csv"
    run.parent.mkdir()
    clean.parent.mkdir()
    materialise(fixture, run, 12)
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    try:
        with open(run, "ab") as handle:
            handle.write(b"11,Breakout,2.0\n")
        state = follower.refresh()
        assert follower.last_update == "full"
        materialise(fixture, clean, 12)
        with open(clean, "ab") as handle:
            handle.write(b"11,Breakout,2.0\n")
        expected, error = batch(clean, "--syllabus", str(SYLLABUS), "--allow-partial")
        assert error is not None
        _same(state, expected, error, clean, run)
        assert state.divergence is not None and state.divergence.episode == 11
    finally:
        follower.close()


def test_a_rewritten_log_is_recomputed_not_appended_to(tmp_path: Path) -> None:
    """A log rewritten from its first byte (same name, longer) is no continuation of what was
    read, even where the file system hands the new copy the old inode number."""
    fixture = WATCH / "rewards.csv"
    run, clean = tmp_path / "live" / "rewards.csv", tmp_path / "clean" / "rewards.csv"
    run.parent.mkdir()
    clean.parent.mkdir()
    materialise(fixture, run, 20)
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    try:
        lines = fixture.read_bytes().splitlines(True)
        lines[1] = b"0,Pong,9.9999\n"  # the first episode differs: the mirror starts over
        with open(run, "r+b") as handle:
            handle.write(b"".join(lines[:40]))
        state = follower.refresh()
        assert follower.last_update == "full"
        clean.write_bytes(b"".join(lines[:40]))
        expected, error = batch(clean, "--syllabus", str(SYLLABUS), "--allow-partial")
        _same(state, expected, error, clean, run)
        assert state.points[0]["perf"] == 9.9999
    finally:
        follower.close()


#: the preprocessing options whose values enter the memo's keys (`sylla.metrics.memo`)
OPTION_SETS = [{}, {"clamp_outliers": "true"}, {"normalization": "run"},
               {"smooth_eval": "true", "window_length": "4"}, {"smoothing": "hanning", "s": "0.3"},
               {"normalization": "none"}]


@pytest.mark.parametrize("params", OPTION_SETS, ids=lambda p: ",".join(p) or "defaults")
def test_kept_block_values_equal_batch_at_every_cut(tmp_path: Path, params: dict) -> None:
    """Each update reuses the finished blocks' values the last one kept (the memo must be
    used: hits), recomputes what changed, and equals the batch command at cuts mid-block and
    at each block edge (30/35/40/70/75 episodes), under each preprocessing option."""
    fixture = WATCH / "rewards.csv"
    appender, follower, extra, run, clean = _follow_with(tmp_path, fixture, params)
    try:
        appender.advance(3, half=True)
        follower.refresh()
        _each_cut_equals_batch(appender, follower, fixture, clean, run, extra,
                               (7, 19, 31, 32, 36, 37, 41, 42, 57, 71, 72, 76, 77, 81), half=True)
        assert follower.incremental is not None and follower.incremental.memo.hits
    finally:
        follower.close()


@pytest.mark.parametrize("params", OPTION_SETS[:3], ids=lambda p: ",".join(p) or "defaults")
def test_a_new_extreme_rescales_the_finished_blocks(tmp_path: Path, params: dict) -> None:
    """A late episode far above (then below) everything before moves its task's normalisation
    range (and the run's): every finished block of that task is scaled anew, so none of the
    values kept for it may be reused."""
    fixture = WATCH / "rewards.csv"
    lines = fixture.read_bytes().splitlines(True)
    lines[72] = b"71,Pong,40.0\n"  # Pong's second test block
    lines[74] = b"73,Pong,-40.0\n"
    lines[79] = b"78,Breakout,-7.5\n"
    source = tmp_path / "source" / "rewards.csv"
    source.parent.mkdir()
    source.write_bytes(b"".join(lines))
    appender, follower, extra, run, clean = _follow_with(tmp_path, source, params)
    try:
        appender.advance(70)
        follower.refresh()
        _each_cut_equals_batch(appender, follower, source, clean, run, extra,
                               (72, 73, 74, 75, 79, 80, 81))
    finally:
        follower.close()


def test_a_rewritten_log_starts_a_new_memo(tmp_path: Path) -> None:
    """After a rewrite (other values in finished blocks) the next appended rows are updated
    incrementally again, from values kept for the new content, not the old: the first block's
    metrics follow the rewritten rows."""
    fixture = WATCH / "rewards.csv"
    run, clean = tmp_path / "live" / "rewards.csv", tmp_path / "clean" / "rewards.csv"
    run.parent.mkdir()
    clean.parent.mkdir()
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    lines = fixture.read_bytes().splitlines(True)
    run.write_bytes(b"".join(lines[:50]))
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True))
    try:
        with open(run, "ab") as handle:
            handle.write(b"".join(lines[50:60]))
        follower.refresh()
        assert follower.last_update == "incremental"
        rewritten = lines[:]
        for k in range(1, 31):  # the whole first block, other values
            episode, task, reward = lines[k].decode().strip().split(",")
            rewritten[k] = f"{episode},{task},{float(reward) * 0.5 + 1:.4f}\n".encode()
        run.write_bytes(b"".join(rewritten[:60]))
        follower.refresh()
        assert follower.last_update == "full"
        for cut in (65, 71, 81):
            with open(run, "ab") as handle:
                handle.write(b"".join(rewritten[len(run.read_bytes().splitlines()):cut]))
            state = follower.refresh()
            assert follower.last_update == "incremental", cut
            clean.write_bytes(b"".join(rewritten[:cut]))
            expected, error = batch(clean, *extra)
            _same(state, expected, error, clean, run)
    finally:
        follower.close()


def test_a_changed_row_renames_its_block(tmp_path: Path) -> None:
    """A row that changes an episode already read (a second row of the last episode, which
    the reader averages in) leaves every block range as it was but not its rows: the follower
    recomputes, its memo names that block's rows anew (and no other block's), and the state
    equals the batch command's."""
    fixture = WATCH / "rewards.csv"
    lines = fixture.read_bytes().splitlines(True)
    run, clean = tmp_path / "live" / "rewards.csv", tmp_path / "clean" / "rewards.csv"
    run.parent.mkdir()
    clean.parent.mkdir()
    run.write_bytes(b"".join(lines[:40]))  # episodes 0-38: block 35-39 is under way
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True))
    try:
        changed = follower.memo.changed
        with open(run, "ab") as handle:
            handle.write(b"38,Breakout,9.0\n")
        state = follower.refresh()
        assert follower.last_update == "full"
        assert follower.memo.changed == changed + 1
        clean.write_bytes(run.read_bytes())
        expected, error = batch(clean, "--syllabus", str(SYLLABUS), "--allow-partial")
        _same(state, expected, error, clean, run)
    finally:
        follower.close()


def test_l2logger_rows_and_block_folders_update_incrementally(tmp_path: Path) -> None:
    """An l2logger log followed with its syllabus is updated from the appended rows alone,
    rows added to the last block's file and new block folders alike (a folder appears with
    its header and half a row first), and equals the batch command at every cut."""
    fixture = WATCH / "l2logger_run"
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir()
    appender = Appender(fixture, run)
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True))
    try:
        appender.advance(4, half=True)
        follower.refresh()
        updates = []
        # lines count each file's header: 31 = block 0 whole, 32 = block 1's header only
        for cut in (9, 20, 31, 32, 33, 34, 38, 39, 40, 44, 45, 46, 60, 74, 75, 79, 80, 81, 82,
                    86):
            appender.advance(cut, half=True)
            state = follower.refresh()
            updates.append((cut, follower.last_update))
            materialise(fixture, clean, cut)
            expected, error = batch(clean, *extra)
            _same(state, expected, error, clean, run)
        # a new folder with its header alone is refused by the reader, so the state is that
        # refusal (recomputed); the next rows update incrementally from before it
        assert [c for c, u in updates if u != "incremental"] == [32, 38, 44, 75, 81], updates
        assert follower.memo.hits
    finally:
        follower.close()


_NEXT = "1\t33\tworker-default\ttest\twake\tpong\t{}\tcomplete\t20261126T034041.1\t2.5\n"


@pytest.mark.parametrize("rows", [
    # a row written into block 0's file after block 1 began (rows land in the middle), with
    # the next row of block 1 in the same update
    [("worker-default/0-train/data-log.tsv",
      "0\t30\tworker-default\ttrain\twake\tpong\t{}\tcomplete\t20261126T034041.1\t2.5\n"),
     ("worker-default/1-test/data-log.tsv", _NEXT)],
    # the next experience, but with parameters the syllabus does not set for it
    [("worker-default/1-test/data-log.tsv", _NEXT.replace("{}", '{"mode": 1}'))],
    # an incomplete experience: the reader drops it
    [("worker-default/1-test/data-log.tsv", _NEXT.replace("\tcomplete", "\tincomplete"))],
], ids=["earlier-file", "parameters", "incomplete"])
def test_l2logger_rows_out_of_shape_are_recomputed(tmp_path: Path,
                                                    rows: list[tuple[str, str]]) -> None:
    """Appended l2logger rows the whole-log reader (or the conformance check) has something
    to say about are not taken incrementally: the state is recomputed and equals the batch
    command's (its error, or its numbers), with the divergence when there is one."""
    fixture = WATCH / "l2logger_run"
    params = any("mode" in row for _, row in rows)
    syllabus = WATCH / "pong_breakout_params.json" if params else SYLLABUS
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.parent.mkdir()
    clean.parent.mkdir()
    materialise(fixture, run, 35)  # block 0 whole, block 1 (1-test) with three rows
    follower = Follower(run, Options(syllabus=str(syllabus), allow_partial=True))
    try:
        assert follower.incremental is not None
        for where, row in rows:
            with open(run / where, "a", encoding="utf-8") as handle:
                handle.write(row)
        state = follower.refresh()
        assert follower.last_update == "full"
        materialise(fixture, clean, 35)
        for where, row in rows:
            with open(clean / where, "a", encoding="utf-8") as handle:
                handle.write(row)
        expected, error = batch(clean, "--syllabus", str(syllabus), "--allow-partial")
        _same(state, expected, error, clean, run)
        if params:
            assert state.divergence is not None and state.divergence.episode == 33
        # and the next well-formed row is read after those rows, not in their place
        after = _NEXT.replace("\t33\t", "\t34\t")
        for target in (run, clean):
            with open(target / "worker-default/1-test/data-log.tsv", "a", encoding="utf-8") as handle:
                handle.write(after)
        state = follower.refresh()
        expected, error = batch(clean, "--syllabus", str(syllabus), "--allow-partial")
        _same(state, expected, error, clean, run)
    finally:
        follower.close()


ISCIL = FIXTURES / "iscil" / "tree" / "iscil" / "kitchen" / "exp_worked_seed0"


def test_iscil_log_is_scanned_from_its_appended_lines(tmp_path: Path) -> None:
    """A continual-imitation log is read from the lines appended since the last update (each
    byte of it scanned once in all), cut mid-phase and mid-line, and equals the batch command
    at every cut; a log replaced by a shorter one is scanned again from its start."""
    run, clean = tmp_path / "live" / ISCIL.name, tmp_path / "clean" / ISCIL.name
    run.mkdir(parents=True)
    clean.parent.mkdir()
    appender = Appender(ISCIL, run)
    follower = Follower(run, Options())
    try:
        n = len(appender.lines)
        for cut in [*_cuts(n), n]:
            appender.advance(cut, half=cut < n)
            state = follower.refresh()
            materialise(ISCIL, clean, cut)
            expected, error = batch(clean)
            _same(state, expected, error, clean, run)
        assert follower.iscil is not None
        log = run / "training_log.log"
        assert follower.iscil.fed == log.stat().st_size  # no byte scanned twice
        fed = follower.iscil.fed
        materialise(ISCIL, run, n // 2)  # replaced by a shorter log
        state = follower.refresh()
        materialise(ISCIL, clean, n // 2)
        expected, error = batch(clean)
        _same(state, expected, error, clean, run)
        assert follower.iscil.fed == fed + log.stat().st_size
    finally:
        follower.close()


def test_iscil_lines_the_reader_refuses_are_its_error(tmp_path: Path) -> None:
    """An appended evaluation line the reader cannot read is the batch command's error (with
    its file and line), and the log is scanned again once the line is gone."""
    lines = (ISCIL / "training_log.log").read_bytes().splitlines(True)
    run, clean = tmp_path / "live" / ISCIL.name, tmp_path / "clean" / ISCIL.name
    run.mkdir(parents=True)
    clean.mkdir(parents=True)
    log = run / "training_log.log"
    log.write_bytes(b"".join(lines[:20]))
    follower = Follower(run, Options())
    try:
        bad = b"[task 0] sub_goal sequence is ['microwave', 'kettle'] task GC : 75.00% (3.0x / 4)\n"
        with open(log, "ab") as handle:
            handle.write(bad)
        state = follower.refresh()
        (clean / "training_log.log").write_bytes(log.read_bytes())
        expected, error = batch(clean)
        assert error is not None and ":21" in error
        _same(state, expected, error, clean, run)
        log.write_bytes(b"".join(lines[:30]))
        state = follower.refresh()
        (clean / "training_log.log").write_bytes(log.read_bytes())
        expected, error = batch(clean)
        _same(state, expected, error, clean, run)
    finally:
        follower.close()


LEARNKIT = FIXTURES / "learnkit_sep2020" / "two_tasks-1600830032-0285285"


def test_learnkit_files_are_parsed_from_their_appended_lines(tmp_path: Path) -> None:
    """A learnkit log's data files are parsed from the lines appended since the last update
    (each byte once in all), cut mid-file and mid-line, and the state equals the batch command
    at every cut; after a data file is replaced by a shorter one the log is parsed again."""
    run, clean = tmp_path / "live" / "lk", tmp_path / "clean" / "lk"
    run.mkdir(parents=True)
    clean.parent.mkdir()
    appender = Appender(LEARNKIT, run)
    follower = Follower(run, Options())
    try:
        n = len(appender.lines)
        for cut in sorted({*_cuts(n), *range(5, n, 7), n}):
            appender.advance(cut, half=cut < n)
            state = follower.refresh()
            materialise(LEARNKIT, clean, cut)
            expected, error = batch(clean)
            _same(state, expected, error, clean, run)
        assert follower.learnkit is not None
        data = sorted(run.glob("worker-env-*/*/*/data-log.tsv"))
        assert follower.learnkit.parsed == sum(f.stat().st_size for f in data)
        parsed = follower.learnkit.parsed
        last = data[-1]
        lines = last.read_bytes().splitlines(True)
        last.write_bytes(b"".join(lines[:-2]))  # replaced by a shorter file
        (clean / last.relative_to(run)).write_bytes(b"".join(lines[:-2]))
        state = follower.refresh()
        expected, error = batch(clean)
        _same(state, expected, error, clean, run)
        # the mirror copied that file anew: every file is parsed again, once
        assert follower.learnkit.parsed == parsed + sum(f.stat().st_size for f in data)
    finally:
        follower.close()


def test_a_learnkit_line_the_reader_refuses_is_its_error(tmp_path: Path) -> None:
    """An appended data line the reader refuses (an unknown status) is the batch command's
    error naming the file's own line, not a line of the appended piece."""
    run, clean = tmp_path / "live" / "lk", tmp_path / "clean" / "lk"
    run.mkdir(parents=True)
    clean.mkdir(parents=True)
    appender = Appender(LEARNKIT, run)
    appender.advance(12)
    follower = Follower(run, Options())
    try:
        appender.advance(15)
        follower.refresh()
        data = run / appender.lines[appender.done - 1][0]  # the file written last
        assert data.name == "data-log.tsv"
        row = data.read_bytes().splitlines(True)[-1].replace(b"\tDONE\t", b"\tBROKEN\t")
        with open(data, "ab") as handle:
            handle.write(row)
        state = follower.refresh()
        shutil.rmtree(clean)
        shutil.copytree(run, clean)
        expected, error = batch(clean)
        assert error is not None and "BROKEN" in error
        _same(state, expected, error, clean, run)
    finally:
        follower.close()


def test_rows_the_schedule_refuses_are_not_skipped_by_the_next_update(tmp_path: Path) -> None:
    """l2logger rows that the fast path has read but the schedule refuses (a train block where
    the syllabus tests) make the state the batch command's error; a next block that fits the
    schedule again must not be updated onto the rows before the refused ones as if those had
    never been written: the state stays the batch command's error."""
    fixture = WATCH / "l2logger_run"
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.parent.mkdir()
    clean.parent.mkdir()
    materialise(fixture, run, 35)  # block 0 whole, block 1 (1-test) with three rows
    materialise(fixture, clean, 35)
    header = (run / "worker-default/1-test/data-log.tsv").read_text(encoding="utf-8").splitlines(True)[0]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True))
    try:
        assert follower.incremental is not None
        for folder, row in (("2-train", _NEXT.replace("1\t33\tworker-default\ttest", "2\t33\tworker-default\ttrain")),
                            ("3-test", _NEXT.replace("1\t33\t", "3\t34\t"))):
            for target in (run, clean):
                (target / "worker-default" / folder).mkdir()
                (target / "worker-default" / folder / "data-log.tsv").write_text(header + row, encoding="utf-8")
            state = follower.refresh()
            expected, error = batch(clean, "--syllabus", str(SYLLABUS), "--allow-partial")
            assert error is not None
            _same(state, expected, error, clean, run)
    finally:
        follower.close()
