"""``sylla run --watch``: the run and the ``sylla watch`` page of its folder together. The page
is up before the first episode and follows the rows as the run writes them: a test agent holds
the run at an episode until the test releases it through a named pipe, so the page is seen
first at that episode, then at the end of the schedule (events, no clock)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
from pathlib import Path
from typing import IO, Iterator
from urllib.request import urlopen

import pytest

from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import schedule

from .support import FIX, start

pytest.importorskip("watchfiles", reason="the watch extra is not installed (pip install 'sylla[watch]')")

SYLLABUS = FIX / "ant-minigrid.json"
HOLD_AT = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def states(stream: IO[bytes]) -> Iterator[dict]:
    """The ``state`` documents of the page's event stream, as they come."""
    event, data = None, []
    for raw in stream:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line:
            if event == "state" and data:
                yield json.loads("\n".join(data))
            event, data = None, []


def line_until(stderr: IO[str], pattern: str) -> re.Match[str]:
    seen = []
    for line in stderr:
        seen.append(line)
        m = re.search(pattern, line)
        if m:
            return m
    raise AssertionError(f"the run ended without {pattern!r}:\n{''.join(seen)}")


def test_the_page_follows_the_run_as_it_writes(tmp_path: Path) -> None:
    planned = schedule(parse(SYLLABUS.read_bytes(), str(SYLLABUS)).model).episodes
    fifo = tmp_path / "release"
    os.mkfifo(fifo)
    run_dir = tmp_path / "run"
    proc = start("run", str(SYLLABUS), "--agent", "sylla_runner_fixtures.agents:Held", "--agent-arg", f"fifo={fifo}",
                 "--agent-arg", f"hold_at={HOLD_AT}", "-o", str(run_dir), "--watch", "--port", str(free_port()),
                 "--no-progress")
    try:
        assert proc.stderr is not None
        url = line_until(proc.stderr, r"watching .* on (http://\S+/)").group(1)
        with urlopen(url + "api/events", timeout=300) as events:
            seen = []
            for state in states(events):
                seen.append(state["progress"]["episodes_read"])
                if seen[-1] == HOLD_AT:
                    with open(fifo, "w", encoding="utf-8") as release:
                        release.write("go")
                if seen[-1] == planned:
                    break
        assert seen[-1] == planned and HOLD_AT in seen, seen
        assert all(a <= b for a, b in zip(seen, seen[1:])), seen
        line_until(proc.stderr, r"the page stays on")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_is_for_one_run(tmp_path: Path) -> None:
    proc = start("run", str(SYLLABUS), "--agent", "random", "--seeds", "0-1", "-o", str(tmp_path / "g"), "--watch")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2 and "--watch follows one run" in err
