"""Every shape l2logger writes, followed live: one worker with one row per experience, one
worker with several rows per experience, several workers; with and without STE runs.

At every step of a random split of the run into appends (a half-written line after each), the
live state equals ``sylla metrics --format json`` on the log as it stands (issue 40); and an
update of appended rows is made from those rows alone, not recomputed from the whole log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH, batch
from .replay import Appender, events, materialise

SHAPES = ["l2logger_run", "l2logger_rows", "l2logger_workers"]
STE = [str(WATCH / "ste" / "ste_pong"), str(WATCH / "ste" / "ste_breakout")]


def _follow(tmp: Path, shape: str, ste: bool) -> tuple[Appender, Follower, list[str], Path, Path]:
    source = WATCH / shape
    run, clean = tmp / "live" / "run", tmp / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir(parents=True, exist_ok=True)
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    for path in STE if ste else []:
        extra += ["--ste", path]
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True,
                                     ste=STE if ste else []))
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
