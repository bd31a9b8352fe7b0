"""The server's fixed routes: /api/state is the metrics document plus progress and
divergence; assets come from a fixed table (no path is ever read from a request); a taken
port moves to the next free one, said in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.server import Hub, bound_port, claim_port, make_app
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH, batch


@pytest.fixture
def client():
    follower = Follower(WATCH / "l2logger_run", Options(syllabus=str(SYLLABUS)))
    try:
        with TestClient(make_app(Hub(follower))) as c:
            yield c
    finally:
        follower.close()


def test_state_is_the_metrics_document_plus_progress_and_divergence(client) -> None:
    state = client.get("/api/state").json()
    expected, _ = batch(WATCH / "l2logger_run", "--syllabus", str(SYLLABUS))
    assert {k: state[k] for k in expected} == expected
    assert state["progress"] == {"episodes_read": 80, "episodes_planned": 80,
                                 "phase": "2.test", "block": 5}
    assert state["divergence"] is None
    assert any(n.startswith("perf_recovery: needs a task with 3 train blocks")
               for n in state["feasibility"])


def test_assets_are_a_fixed_table(client) -> None:
    assert client.get("/").status_code == 200
    assert "assets/vega-embed.min.js" in client.get("/").text
    assert client.get("/assets/app.js").status_code == 200
    for name in ("..%2F..%2Fpyproject.toml", "index.html", "..%2Fserver.py", "%2Fetc%2Fpasswd"):
        assert client.get(f"/assets/{name}").status_code == 404, name
    assert client.get("/api/state/../../etc/passwd").status_code == 404
    assert client.post("/api/state").status_code == 405


def test_taken_port_gives_the_next_free_one() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with claim_port("127.0.0.1", port) as sock:
            assert bound_port(sock) > port


def test_a_claimed_port_is_held_until_served() -> None:
    """Two watches started at once from the same ``--port`` get two ports: the first listens
    from the moment it chose its port (a probe closed at once gave both the same one, and
    the second page's address led to the first watch)."""
    with claim_port("127.0.0.1", 18765) as first, claim_port("127.0.0.1", 18765) as second:
        assert bound_port(first) != bound_port(second)
        for sock in (first, second):
            with socket.create_connection(("127.0.0.1", bound_port(sock)), timeout=5):
                pass  # it listens: the connection waits in its backlog


def test_cli_says_the_port_it_moved_to_and_warns_on_other_hosts(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-m", "sylla", "watch", str(WATCH / "rewards.csv"),
                                 "--syllabus", str(SYLLABUS), "--port", str(port)],
                                stderr=subprocess.PIPE, text=True)
        try:
            lines = [proc.stderr.readline() for _ in range(2)]
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    assert lines[0].startswith(f"sylla: port {port} is in use; serving on ")
    assert "watching" in lines[1]
    proc = subprocess.Popen([sys.executable, "-m", "sylla", "watch", str(WATCH / "rewards.csv"),
                             "--host", "0.0.0.0", "--port", "18765"],
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert first.startswith("sylla: warning: serving on 0.0.0.0")


def test_check_without_syllabus_and_missing_run_are_usage_errors(tmp_path: Path) -> None:
    for argv, message in ((["watch", str(WATCH / "rewards.csv"), "--check"], "--check needs --syllabus"),
                          (["watch", str(tmp_path / "nope")], "no such file or directory")):
        done = subprocess.run([sys.executable, "-m", "sylla", *argv], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_report_usage_errors_are_one_line(tmp_path: Path) -> None:
    sweep = tmp_path / "out"
    (sweep / "rows").mkdir(parents=True)
    (sweep / "rows" / "_sweep.json").write_text("{}")
    for argv, message in ((["report", str(sweep), "-o", str(tmp_path / "r.html")], "a sweep's --out"),
                          (["report", str(tmp_path / "nope"), "-o", str(tmp_path / "r.html")],
                           "no such file or directory"),
                          (["report", str(WATCH / "rewards.csv"), "-o",
                            str(tmp_path / "missing" / "r.html")], "cannot write")):
        done = subprocess.run([sys.executable, "-m", "sylla", *argv], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_report_of_a_bad_syllabus_names_file_line_col(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"instructions": [\n  {"$repeat": {"$episode": "Pong"}, "count": "x"}\n]}\n')
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(WATCH / "rewards.csv"),
                           "--syllabus", str(bad), "-o", str(tmp_path / "r.html")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"sylla: {bad}:2:"), done.stderr


def test_report_of_bad_data_says_file_and_row_on_stderr_too(tmp_path: Path) -> None:
    lines = (WATCH / "rewards.csv").read_text().splitlines()
    episode, task, _ = lines[4].split(",")
    lines[4] = f"{episode},{task},oops"
    run = tmp_path / "rewards.csv"
    run.write_text("\n".join(lines) + "\n")
    report = tmp_path / "r.html"
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(run), "-o", str(report)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"sylla: {run}:5: reward is not a number: 'oops'"), done.stderr
    assert "wrote" in done.stderr and "oops" in report.read_text()


def test_events_carry_only_the_new_rows(tmp_path: Path) -> None:
    import asyncio
    import json as _json

    from .replay import Appender

    run = tmp_path / "rewards.csv"
    writer = Appender(WATCH / "rewards.csv", run)
    writer.advance(21)  # header + episodes 0-19
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))

    async def scenario() -> list[tuple[str, object]]:
        hub = Hub(follower)
        hub.loop = asyncio.get_running_loop()
        stream = hub.events()
        seen = [await stream.__anext__(), await stream.__anext__()]  # reset, state
        writer.advance(31, half=True)  # ten more episodes and half of the next
        follower.refresh()
        hub.announce()
        seen += [await stream.__anext__(), await stream.__anext__()]  # rows, state
        await stream.aclose()
        return [(e["event"], _json.loads(e["data"])) for e in seen]

    try:
        events = asyncio.run(scenario())
    finally:
        follower.close()
    assert [e for e, _ in events] == ["reset", "state", "rows", "state"]
    assert [p["episode"] for p in events[0][1]] == list(range(20))
    assert [p["episode"] for p in events[2][1]] == list(range(20, 30))
    assert events[3][1]["progress"]["episodes_read"] == 30


def test_wider_curve_bins_resend_every_point(tmp_path: Path) -> None:
    """When the run outgrows the point budget the bins widen and the page gets a ``reset``
    with the fewer, wider points (not ``rows`` appended to points it no longer matches)."""
    import asyncio
    import json as _json

    from sylla.metrics.watch.curve import Curve

    from .replay import Appender

    run = tmp_path / "rewards.csv"
    writer = Appender(WATCH / "rewards.csv", run)
    writer.advance(6)  # header + episodes 0-4
    follower = Follower(run, Options(syllabus=str(SYLLABUS)))
    follower.curve = Curve(budget=10)  # 20 points at most: 40 episodes widen the bins
    follower.refresh(force=True)

    async def scenario() -> list[tuple[str, object]]:
        hub = Hub(follower)
        hub.loop = asyncio.get_running_loop()
        stream = hub.events()
        seen = [await stream.__anext__(), await stream.__anext__()]  # reset, state
        writer.advance(41)
        follower.refresh()
        hub.announce()
        seen += [await stream.__anext__(), await stream.__anext__()]  # reset, state
        await stream.aclose()
        return [(e["event"], _json.loads(e["data"])) for e in seen]

    try:
        events = asyncio.run(scenario())
    finally:
        follower.close()
    assert [e for e, _ in events] == ["reset", "state", "reset", "state"]
    assert [p["episode"] for p in events[0][1]] == list(range(5))
    wide = events[2][1]  # more points than were sent (so no shrinking list says "reset")
    assert 5 < len(wide) <= 20 and max(p["n"] for p in wide) > 1
    assert sum(p["n"] for p in wide) <= 40 and wide[0]["episode"] == 0
