"""Every shape l2logger writes, followed live: one worker with one row per experience, one
worker with several rows per experience, several workers; with and without STE runs.

At every step of a random split of the run into appends (a half-written line after each), the
live state equals ``sylla metrics --format json`` on the log as it stands (issue 40); and an
update of appended rows is made from those rows alone, not recomputed from the whole log."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH, batch
from .replay import Appender, events, materialise

SHAPES = ["l2logger_run", "l2logger_rows", "l2logger_workers", "l2logger_workers_rows"]
STE = [str(WATCH / "ste" / "ste_pong"), str(WATCH / "ste" / "ste_breakout")]


def _follow(tmp: Path, shape: str, ste: bool | list[str]
            ) -> tuple[Appender, Follower, list[str], Path, Path]:
    """Follow an empty run folder that the returned `Appender` writes the fixture into; the
    batch command's options for the same log. ``ste``: with the fixture's STE runs, or the
    STE paths given."""
    source = WATCH / shape
    run, clean = tmp / "live" / "run", tmp / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir(parents=True, exist_ok=True)
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    paths = ste if isinstance(ste, list) else STE if ste else []
    for path in paths:
        extra += ["--ste", path]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True, ste=paths))
    return Appender(source, run), follower, extra, run, clean


def _check(follower: Follower, source: Path, clean: Path, run: Path, cut: int,
           extra: list[str]) -> None:
    state = follower.refresh()
    materialise(source, clean, cut)
    expected, error = batch(clean, *extra)
    if error is not None:
        assert state.document is None and state.error == error.replace(str(clean), str(run))
    else:
        assert state.error is None, (cut, state.error)
        got = json.loads(json.dumps(state.document))
        assert got == json.loads(json.dumps(expected).replace(str(clean), str(run))), cut


@pytest.mark.parametrize("ste", [False, True], ids=["no-ste", "ste"])
@pytest.mark.parametrize("shape", SHAPES)
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.integers(1, 45), min_size=2, max_size=6))
def test_every_append_split_equals_batch(tmp_path_factory: pytest.TempPathFactory, shape: str,
                                         ste: bool, steps: list[int]) -> None:
    source = WATCH / shape
    total = len(events(source)[1])
    appender, follower, extra, run, clean = _follow(tmp_path_factory.mktemp(shape), shape, ste)
    try:
        cut = 0
        for step in [*steps, total]:
            cut = min(total, cut + step)
            appender.advance(cut, half=True)
            _check(follower, source, clean, run, cut, extra)
            if cut == total:
                break
    finally:
        follower.close()


def _experience_edges(source: Path) -> list[int]:
    """Line counts after which every experience written so far is whole (the next line is a
    new experience's, or a new file's header) and no file has only its header."""
    lines = events(source)[1]
    edges, seen = [], set()
    for k, (rel, line) in enumerate(lines[:-1]):
        if rel not in seen:  # this line is a header: its file has no row yet
            seen.add(rel)
            continue
        nxt = lines[k + 1][1]
        if line.split(b"\t")[1] != nxt.split(b"\t")[1]:
            edges.append(k + 1)
    return edges


@pytest.mark.parametrize("ste", [False, True], ids=["no-ste", "ste"])
@pytest.mark.parametrize("shape", SHAPES)
def test_appended_experiences_update_from_their_rows_alone(tmp_path: Path, shape: str,
                                                           ste: bool) -> None:
    """Once the run has begun, appending whole experiences (to a block's file, or in the next
    block's folder) is taken from those rows alone, in every shape: never a re-read of the
    whole log."""
    source = WATCH / shape
    appender, follower, extra, run, clean = _follow(tmp_path, shape, ste)
    try:
        edges = [e for e in _experience_edges(source) if e > 8]
        appender.advance(edges[0])
        follower.refresh()
        made = []
        for cut in edges[1::3]:
            appender.advance(cut)
            _check(follower, source, clean, run, cut, extra)
            made.append((cut, follower.last_update))
            fresh = Follower(clean, follower.options)  # the progress a full read gives
            try:
                assert follower.state.progress == fresh.state.progress, cut
            finally:
                fresh.close()
        assert [c for c, how in made if how != "incremental"] == [], made
    finally:
        follower.close()


def _rewritten(data: Path, scale: float) -> None:
    """An STE run's data file written anew with every reward times ``scale`` (same size when
    the digits allow: what a file system's times may not tell apart)."""
    head, *rows = data.read_bytes().splitlines(True)
    out = [head]
    for line in rows:
        cells = line.rstrip(b"\n").split(b"\t")
        cells[-1] = f"{float(cells[-1]) * scale:.4f}".encode()
        out.append(b"\t".join(cells) + b"\n")
    data.write_bytes(b"".join(out))


@pytest.mark.parametrize("shape", SHAPES)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.integers(1, 45), min_size=2, max_size=5),
       rewrite=st.integers(0, 4), scale=st.sampled_from([0.5, 1.5]))
def test_an_ste_file_rewritten_between_updates_is_read_again(
        tmp_path_factory: pytest.TempPathFactory, shape: str, steps: list[int], rewrite: int,
        scale: float) -> None:
    """The STE runs are read once, not at every update; one of their files rewritten between
    two updates is read again, and every state still equals the batch command's on the
    files as they stand."""
    tmp = tmp_path_factory.mktemp(shape)
    ste = []
    for path in STE:
        shutil.copytree(path, tmp / "ste" / Path(path).name)
        ste.append(str(tmp / "ste" / Path(path).name))
    source = WATCH / shape
    total = len(events(source)[1])
    appender, follower, extra, run, clean = _follow(tmp, shape, ste)
    try:
        cut = 0
        for k, step in enumerate([*steps, total]):
            if k == min(rewrite, len(steps)):
                _rewritten(next(Path(ste[k % 2]).rglob("data-log.tsv")), scale)
            cut = min(total, cut + step)
            appender.advance(cut, half=True)
            _check(follower, source, clean, run, cut, extra)
            if cut == total:
                break
    finally:
        follower.close()


@pytest.mark.parametrize("shape", SHAPES)
def test_the_ste_runs_are_read_once(tmp_path: Path, shape: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Following a run with STE runs reads their files when the follower starts, not again at
    each update while they are unchanged (issue 40: a fifth of a full run per update)."""
    from sylla.metrics import ste as ste_module

    read: list[str] = []
    real = ste_module.read_log
    monkeypatch.setattr(ste_module, "read_log",
                        lambda path, *a, **k: read.append(str(path)) or real(path, *a, **k))
    source = WATCH / shape
    appender, follower, extra, run, clean = _follow(tmp_path, shape, True)
    try:
        edges = [e for e in _experience_edges(source) if e > 8]
        appender.advance(edges[0])
        follower.refresh()
        first = len(read)
        for cut in edges[1::4]:
            appender.advance(cut)
            _check(follower, source, clean, run, cut, extra)
            assert follower.last_update == "incremental", cut
        # the batch runs `_check` compares with read them, once each
        assert len(read) - first == len(edges[1::4]) * len(STE)
    finally:
        follower.close()


def test_several_workers_keep_the_values_of_blocks_whose_rows_did_not_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several workers append inside the last blocks of align's order, not at its end: an
    update computes the regime values of the blocks whose rows changed, and takes every other
    block's from what the last computation kept (issue 40: the memo was cleared instead).
    Without normalisation, so that a task's range moved by the new rows rescales no block."""
    from sylla.metrics.plugins import l2m

    computed: list[tuple[int, int]] = []
    real = l2m._regime
    monkeypatch.setattr(l2m, "_regime", lambda means, a, z, *rest: computed.append((a, z))
                        or real(means, a, z, *rest))
    source = WATCH / "l2logger_workers"
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir(parents=True)
    appender = Appender(source, run)
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial", "-P", "normalization=none"]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True,
                                     params={"normalization": "none"}))
    try:
        edges = _experience_edges(source)
        appender.advance(edges[len(edges) // 2])
        follower.refresh()
        blocks = _block_rows(run)
        for cut in edges[len(edges) // 2 + 1::3]:
            computed.clear()
            appender.advance(cut)
            state = follower.refresh()
            assert follower.last_update == "incremental" and state.error is None, cut
            now = _block_rows(run)
            changed = sum(1 for b, rows in now.items() if blocks.get(b) != rows)
            assert len(now) > changed and len(computed) == changed, (cut, computed)
            blocks = now
        materialise(source, clean, cut)
        expected, error = batch(clean, *extra)
        assert error is None and json.loads(json.dumps(state.document)) == json.loads(
            json.dumps(expected).replace(str(clean), str(run)))
    finally:
        follower.close()


def _block_rows(log: Path) -> dict[int, bytes]:
    """Each block's values and experience numbers in the run the batch path aligns."""
    from sylla.metrics.result import compute_metrics

    run = compute_metrics(log, str(SYLLABUS), allow_partial=True, only=["gem"],
                          progress=False).runs[0]
    return {int(b): run.perf[a:z].tobytes() + run.exp[a:z].tobytes() for b, a, z in zip(
        run.blocks["block"], run.blocks["start"], run.blocks["stop"])}


@pytest.mark.parametrize("shape", ["l2logger_run", "l2logger_rows"])
def test_the_ste_curves_are_not_read_again_while_their_values_stand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    """The STE runs do not change while the log grows: an update whose rows move no task's
    range (no normalisation here) takes each STE curve's saturation and sums from what the
    last computation kept, instead of gathering the curves again (issue 40: every update
    gathered, averaged and smoothed them); and it still equals the batch command."""
    from sylla.metrics.plugins import l2m

    gathered: list[int] = []
    real = l2m.gather
    monkeypatch.setattr(l2m, "gather", lambda values, ranges: gathered.append(id(values))
                        or real(values, ranges))
    source = WATCH / shape
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir(parents=True)
    appender = Appender(source, run)
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial", "-P", "normalization=none"]
    for path in STE:
        extra += ["--ste", path]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True, ste=STE,
                                     params={"normalization": "none"}))
    try:
        edges = [e for e in _experience_edges(source) if e > 8]
        appender.advance(edges[0])
        follower.refresh()
        assert follower.ste is not None
        ste_exp = [id(s.logged.exp) for runs in follower.ste.runs().values() for s in runs]
        mine = list(gathered)
        for cut in edges[1::2]:
            gathered.clear()
            appender.advance(cut)
            follower.refresh()
            mine += gathered
            assert follower.last_update == "incremental", cut
            _check(follower, source, clean, run, cut, extra)
        # each curve gathered once: the first computation that has its task's training
        assert sorted(mine.count(e) for e in ste_exp) == [1] * len(ste_exp), mine
    finally:
        follower.close()


def test_a_moved_range_groups_no_finished_blocks_rows_again(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each block's grouping of its rows by experience depends on its experience numbers
    alone: it is kept while they stand, through updates that did not need it, so a new
    extreme that rescales every block of its task groups the rows of the growing block only
    (issue 40). The state still equals the batch command's."""
    from sylla.metrics.plugins import l2m

    shape = "l2logger_rows"
    source = WATCH / shape
    appender, follower, extra, run, clean = _follow(tmp_path, shape, False)
    try:
        edges = [e for e in _experience_edges(source) if e > 8]
        for cut in edges[-6:-3]:  # a first read in the last blocks, then two updates
            appender.advance(cut)
            follower.refresh()
        grouped: list[int] = []
        real = l2m.exp_groups

        def counted(exp):
            grouped.append(len(exp))
            return real(exp)

        monkeypatch.setattr(l2m, "exp_groups", counted)
        data = sorted(run.rglob("data-log.tsv"))[-1]
        last = data.read_bytes().splitlines()[-1].split(b"\t")
        last[1] = str(int(last[1]) + 1).encode()  # the next experience, far above the rest
        last[-1] = b"1000.0"
        with open(data, "ab") as handle:
            handle.write(b"\t".join(last) + b"\n")
        state = follower.refresh()
        assert follower.last_update == "incremental"
        assert len(grouped) == 1, grouped  # the growing block's rows alone
        shutil.rmtree(clean, ignore_errors=True)
        shutil.copytree(run, clean)
        expected, error = batch(clean, *extra)
        assert error is None and state.error is None, (error, state.error)
        assert json.loads(json.dumps(state.document)) == json.loads(
            json.dumps(expected).replace(str(clean), str(run)))
    finally:
        follower.close()
