"""A real browser (Debian's chromium driven by playwright) on ``sylla watch`` while the run
grows block by block, with half-written lines; and a ``sylla report`` file opened from file://
with the network cut off.

Each step waits for what the page must show (an event), with a timeout that only bounds a hang:
how fast the page follows is bench/watch.py's to measure, not a test's to assume.

Set SYLLA_SCREENSHOT=1 to refresh docs/img/watch-dashboard.png from the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import SYLLABUS, WATCH
from .replay import Appender

CHROMIUM = Path("/usr/bin/chromium")
#: milliseconds a page may take to show what it must: the bound of a hang, not a speed
LONG = 120_000
SCREENSHOT = Path(__file__).parents[3] / "docs" / "img" / "watch-dashboard.png"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"), reason="needs Debian's chromium (scripts/setup.d/50-code-server.sh installs it; in CI a missing one fails)")]


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def _data_lines(run: Path) -> int:
    """Complete data lines on disk (headers and a half-written last line not counted)."""
    total = 0
    for f in run.rglob("data-log.tsv"):
        total += max(f.read_bytes().count(b"\n") - 1, 0)
    return total


def _watch(run: Path) -> tuple[subprocess.Popen, str]:
    port = 18800  # or the next free one: the watch prints the port it listens on
    proc = subprocess.Popen([sys.executable, "-m", "sylla", "watch", str(run), "--syllabus",
                             str(SYLLABUS), "--port", str(port)], stderr=subprocess.PIPE, text=True)
    said: list[str] = []
    url = None
    while url is None:  # "port ... is in use; serving on ... instead" may come first
        line = proc.stderr.readline()
        said.append(line)
        url = re.search(r"http://\S+", line)
        assert line or url, "".join(said)  # the watch ended without a URL
    deadline = time.monotonic() + LONG / 1000
    while True:  # the line is printed before uvicorn binds
        try:
            urllib.request.urlopen(url.group(0) + "api/state", timeout=5).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    return proc, url.group(0)


def _points(page) -> int:
    return int(page.eval_on_selector("#curves", "e => Number(e.dataset.points || 0)"))


def test_new_block_points_reach_the_page(tmp_path: Path, browser) -> None:
    """The run grows in steps (new block folders, a half-written line after each), and after
    each step the page shows a point for every whole line on disk."""
    run = tmp_path / "run"
    run.mkdir()
    proc, url = _watch(run)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", timeout=LONG)
        writer = Appender(WATCH / "l2logger_run", run)
        total = len(writer.lines)  # the data lines and each block file's header
        # a block folder holding its header alone is refused by the reader, and the page
        # keeps the points it had: each step ends after a block's first row, not its header
        headers = {next(i for i, (r, _) in enumerate(writer.lines) if r == rel) + 1
                   for rel, _ in writer.lines}
        for cut in sorted({c + 1 if c in headers else c for c in [*range(1, total, 5), total]}):
            writer.advance(cut, half=cut < total)
            on_disk = _data_lines(run)
            page.wait_for_function(f"Number(document.getElementById('curves').dataset.points"
                                   f" || 0) >= {on_disk}", timeout=LONG)
        assert _points(page) == _data_lines(run) == 80
        page.wait_for_function("document.getElementById('progress-text').textContent"
                               ".startsWith('episode 80 of 80')", timeout=LONG)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_planted_wrong_task_shows_the_banner(tmp_path: Path, browser) -> None:
    run = tmp_path / "run"
    run.mkdir()
    proc, url = _watch(run)
    try:
        page = browser.new_page()
        page.set_viewport_size({"width": 1200, "height": 900})
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", timeout=LONG)
        writer = Appender(WATCH / "l2logger_run", run)
        writer.advance(49)  # episodes 0-44: conforming
        page.wait_for_function("Number(document.getElementById('curves').dataset.points"
                               " || 0) >= 45", timeout=LONG)
        rel, line = writer.lines[49]
        with open(run / rel, "ab") as handle:  # episode 45 runs Pong in a Breakout block
            handle.write(line.replace(b"breakout", b"pong"))
        page.wait_for_selector("#divergence.shown", timeout=LONG)
        writer.done = 50
        writer.advance(len(writer.lines))
        banner = page.inner_text("#divergence")
        assert page.eval_on_selector("#divergence", "e => e.dataset.episode") == "45"
        assert "episode 45" in banner and "task Breakout" in banner and "task pong" in banner
        assert f"{SYLLABUS}:15" in banner
        if os.environ.get("SYLLA_SCREENSHOT"):
            time.sleep(2)
            page.screenshot(path=str(SCREENSHOT), full_page=True)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_report_renders_from_file_without_network(tmp_path: Path, browser) -> None:
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(WATCH / "l2logger_run"),
                           "--syllabus", str(SYLLABUS), "-o", str(out)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']https?:""", html)
    context = browser.new_context(offline=True)
    requests: list[str] = []
    context.route("**/*", lambda route: (requests.append(route.request.url),
                                        route.continue_() if route.request.url.startswith("file:")
                                        else route.abort()))
    page = context.new_page()
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=LONG)
    assert _points(page) == 80
    assert page.locator("#curves svg").count() >= 2  # one chart per task
    assert page.locator("#matrix svg").count() == 1
    assert "episode 80 of 80" in page.inner_text("#progress-text")
    assert [u for u in requests if not u.startswith("file:")] == []
    context.close()


def test_sweep_report_renders_from_file_without_network(tmp_path: Path, browser) -> None:
    """``sylla report SWEEP_OUT``: one chart per task with a band per group, and the summary
    table, from file:// with every non-file request aborted."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "sylla", "sweep",
                           str(WATCH.parent / "sweep" / "agents"), "--group-by",
                           "{agent}/seed{seed}/{name}", "--jobs", "1", "--out", str(out),
                           "-m", "avg_perf", "--no-progress"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "sylla", "report", str(out), "-o", str(report)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    context = browser.new_context(offline=True)
    requests: list[str] = []
    context.route("**/*", lambda route: (requests.append(route.request.url),
                                        route.continue_() if route.request.url.startswith("file:")
                                        else route.abort()))
    page = context.new_page()
    page.goto(report.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=LONG)
    assert page.locator("#curves svg").count() == 2  # pong, breakout
    assert page.locator("#curves svg path.mark-area, #curves svg g.mark-area path").count() >= 2
    assert page.locator("#summary tbody tr").count() > 0
    assert "agentA" in page.inner_text("#curves") and "agentB" in page.inner_text("#curves")
    assert [u for u in requests if not u.startswith("file:")] == []
    context.close()
