"""The follower driven by the file system's real notifications (`Follower.changes`, watchfiles
on inotify): each refresh looks only at the paths the events named (`Mirror.sync`), and the
live state still equals ``sylla metrics`` on the run as it stands, rows appended to the last
block and new block folders alike, while the finished blocks' files (their stamps a minute
old, so trusted) are not looked at. Waits are on the follower's states, never on the clock:
the timeout only bounds a failure."""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from pathlib import Path

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH, batch
from .replay import Appender, materialise

OLD_NS = time.time_ns() - 60 * 1_000_000_000
FAILS_AFTER = 120.0  # seconds: bounds a failure only (a pass is decided by the states)


def _age(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(Path(folder) / name, ns=(OLD_NS, OLD_NS))
        os.utime(folder, ns=(OLD_NS, OLD_NS))


def _document(state) -> dict | None:
    return None if state.document is None else json.loads(json.dumps(state.document))


def test_the_events_paths_alone_are_looked_at_and_the_state_equals_batch(tmp_path: Path) -> None:
    fixture = WATCH / "l2logger_run"
    run, clean = tmp_path / "live" / "run", tmp_path / "clean" / "run"
    run.mkdir(parents=True)
    clean.parent.mkdir()
    extra = ["--syllabus", str(SYLLABUS), "--allow-partial"]
    appender = Appender(fixture, run)
    appender.advance(35)  # block 0 whole, block 1 begun
    _age(run)
    follower = Follower(run, Options(syllabus=str(SYLLABUS), allow_partial=True))
    # no re-sync after a silence: had one fallen between a write and its events, it would have
    # made the state, and the events would have proved nothing
    follower.resync_ms = 3_600_000
    synced: list[list[Path] | None] = []
    real_sync = follower.mirror.sync

    def observed(events=None):  # recorded once done, so a write after it is not in it
        changed = real_sync(events)
        synced.append(None if events is None else list(events))
        return changed

    follower.mirror.sync = observed  # type: ignore[method-assign]
    states: queue.Queue = queue.Queue()
    stop = threading.Event()

    def watch() -> None:  # each new state, with the events of the sync that made it
        for state in follower.changes(stop):
            states.put((_document(state), synced[-1]))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        # the watch is set up when an event comes back (a write before it raises none): the
        # run folder's stamp is touched until one does; no data changes
        deadline = time.monotonic() + FAILS_AFTER
        while not any(synced) and time.monotonic() < deadline:
            os.utime(run)
            time.sleep(0.05)
        assert any(synced), "no event reached the follower"
        for cut in (40, 46, 60, 74, 80, 86):  # rows into block 1; the blocks after begun and grown
            appender.advance(cut)
            materialise(fixture, clean, cut)
            expected, error = batch(clean, *extra)
            assert error is None, error
            expected = json.loads(json.dumps(expected).replace(str(clean), str(run)))
            got, events = None, None
            while got != expected:
                got, events = states.get(timeout=FAILS_AFTER)
            # made by a sync the events named paths for (not a re-sync, which looks at every
            # file): what they named was enough
            assert events, (cut, events)
        finished = run / "worker-default" / "0-train" / "data-log.tsv"
        assert None not in synced, "a re-sync without events ran"
        assert not any(finished in events for events in synced if events)
    finally:
        stop.set()
        watcher.join(timeout=FAILS_AFTER)
        follower.close()
