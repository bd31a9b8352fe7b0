"""Latency of ``sylla lsp`` as an editor meets it, beside the in-process lint time.

Three measurements, each through a real stdio client and a real server process:

1. didChange -> publishDiagnostics. For syllabi of about 5 KB, 50 KB and 500 KB the client
   opens the document and makes ``--edits`` edits one at a time (each waits for the
   diagnostics of its own version). In the same run the same text is linted in-process, so
   the difference is what the server adds. Target: p95 <= lint + 30 ms at 50 KB and 500 KB.
2. Requests during a lint, at 500 KB: after a didChange the client sends documentSymbol,
   foldingRange, inlayHint and hover for the new version, once right away (the lint is
   parsing) and once half a lint later (the lint is checking rules), and times each answer.
   The client declares workspace/inlayHint/refresh and workspace/foldingRange/refresh, so the
   server may answer those from the previous parse; documentSymbol has no refresh in LSP, so
   it is always the new version's (parsed from the previous one when the edit stays inside an
   instruction, as this one does). Target: every answer <= 100 ms.
3. Start-up: process start -> first publishDiagnostics for a small syllabus opened right
   after initialize, beside ``python -c pass`` in the same run. Target: <= 0.8 s.

Usage: python bench/lsp_latency.py [--edits 50] [--rounds 10]; exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sylla.grammar.syllabus.synth import phase_pairs

SIZES = (("5 KB", 5_000), ("50 KB", 50_000), ("500 KB", 500_000))
TARGET_MS = 30.0
REQUEST_TARGET_MS = 100.0
START_TARGET_S = 0.8
#: what an editor declares that matters here: it re-asks for inlay hints and folding ranges when
#: the server says so (VS Code and Neovim do for inlay hints), so the server may answer them
#: from the previous parse while the new one runs
CAPABILITIES = {"workspace": {"inlayHint": {"refreshSupport": True}, "foldingRange": {"refreshSupport": True}}}
EDIT_LINE = '    {"$repeat": {"$episode": "Pong"}, "count": 10},'
EDIT_COL = len('    {"$repeat": {"$episode": "Pong"}, "count": ')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def lint_time_ms(text: str, path: str, runs: int) -> float:
    from sylla.linter import lint, load_config

    config = load_config(path, None)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        lint(text, path, config)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


class Session:
    """A bare JSON-RPC client over the server's stdio, as an editor is: it parses answers with
    ``json.loads`` and nothing more (a pygls client would add seconds of cattrs structuring of
    7,000 symbols to what it measures). Each arrival is timestamped when its bytes are read."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.waiting: dict[int, asyncio.Future[float]] = {}
        self.answers: dict[int, asyncio.Future[tuple[float, Any]]] = {}
        self.next_id = 0
        self._reader: asyncio.Task[None] | None = None
        #: request id -> when the first line of its answer arrived (before the body is read)
        self.first_line: dict[int, float] = {}
        #: request id -> when this client had also parsed its answer (``json.loads``): an
        #: editor's own cost after the answer arrived, reported beside it, not in it
        self.parsed: dict[int, float] = {}

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        while True:
            length = 0
            while True:
                line = await out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                    started = time.perf_counter()
                elif line == b"\r\n":
                    break
            body = await out.readexactly(length)
            now = time.perf_counter()
            message = json.loads(body)
            if "method" not in message:
                future = self.answers.pop(message.get("id"), None)
                if future is not None and not future.done():
                    self.first_line[message.get("id")] = started
                    self.parsed[message.get("id")] = time.perf_counter()
                    future.set_result((now, message.get("result")))
            elif "id" in message:  # a request from the server: nothing to configure
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message["method"] == "textDocument/publishDiagnostics":
                future = self.waiting.get(message["params"].get("version"))
                if future is not None and not future.done():
                    future.set_result(now)

    def request(self, method: str, params: Any) -> asyncio.Future[tuple[float, Any]]:
        self.next_id += 1
        future = self.answers[self.next_id] = asyncio.get_running_loop().create_future()
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return future

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def expect(self, version: int) -> asyncio.Future[float]:
        self.waiting[version] = asyncio.get_running_loop().create_future()
        return self.waiting[version]

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sylla", "lsp", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        self._reader = asyncio.ensure_future(self._read())
        await asyncio.wait_for(self.request("initialize", {"processId": None, "rootUri": None, "capabilities": CAPABILITIES}), 60)
        self.notify("initialized", {})

    def open(self, uri: str, text: str) -> asyncio.Future[float]:
        published = self.expect(0)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 0, "text": text}})
        return published

    def edit(self, uri: str, version: int, line: int) -> asyncio.Future[float]:
        published = self.expect(version)
        change = {
            "range": {"start": {"line": line, "character": EDIT_COL}, "end": {"line": line, "character": EDIT_COL + 1}},
            "text": str(version % 9 + 1),
        }
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        return published

    async def stop(self) -> None:
        assert self.proc is not None
        await asyncio.wait_for(self.request("shutdown", None), 60)
        self.notify("exit", None)
        await asyncio.wait_for(self.proc.wait(), 30)
        if self._reader is not None:
            self._reader.cancel()


async def change_latencies(text: str, uri: str, edits: int) -> list[float]:
    session = Session()
    await session.start()
    await asyncio.wait_for(session.open(uri, text), 120)
    line = text.splitlines().index(EDIT_LINE)
    latencies: list[float] = []
    for version in range(1, edits + 1):
        await asyncio.sleep(0.05)  # an editor's keystrokes are tens of milliseconds apart
        sent = time.perf_counter()
        received = await asyncio.wait_for(session.edit(uri, version, line), 60)
        latencies.append((received - sent) * 1000)
    await session.stop()
    return latencies


def _requests(text: str, uri: str) -> dict[str, tuple[str, dict[str, Any]]]:
    doc = {"uri": uri}
    last = text.count("\n") - 4
    hover_at = {"line": last, "character": text.splitlines()[last].index("Pong")}
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 60, "character": 0}}
    return {
        "documentSymbol": ("textDocument/documentSymbol", {"textDocument": doc}),
        "foldingRange": ("textDocument/foldingRange", {"textDocument": doc}),
        "inlayHint": ("textDocument/inlayHint", {"textDocument": doc, "range": whole}),
        "hover": ("textDocument/hover", {"textDocument": doc, "position": hover_at}),
    }


async def request_latencies(text: str, uri: str, rounds: int) -> tuple[float, dict[tuple[str, str], list[float]]]:
    """The server's didChange -> diagnostics time, and each request's answer time when sent
    right after a didChange or half that time later (both while the lint of that version runs)."""
    session = Session()
    await session.start()
    await asyncio.wait_for(session.open(uri, text), 120)
    line = text.splitlines().index(EDIT_LINE)
    requests = _requests(text, uri)
    out: dict[tuple[str, str], list[float]] = {}
    lint_times = []
    for version in range(1, 4):
        sent = time.perf_counter()
        lint_times.append(await asyncio.wait_for(session.edit(uri, version, line), 60) - sent)
    lint_s = statistics.median(lint_times)
    version = 3
    for _ in range(rounds):
        for when, delay in (("at once", 0.0), ("mid-lint", lint_s / 2)):
            for name, (method, params) in requests.items():
                version += 1
                published = session.edit(uri, version, line)
                await asyncio.sleep(delay)
                sent = time.perf_counter()
                received, answer = await asyncio.wait_for(session.request(method, params), 60)
                took = (received - sent) * 1000
                assert answer, f"{name} gave no answer"
                out.setdefault((name, when), []).append(took)
                out.setdefault((name + " (first line)", when), []).append((session.first_line[session.next_id] - sent) * 1000)
                await asyncio.wait_for(published, 60)
    await session.stop()
    return lint_s * 1000, out


async def start_up(text: str, uri: str) -> float:
    session = Session()
    t0 = time.perf_counter()
    await session.start()
    published = session.open(uri, text)
    received = await asyncio.wait_for(published, 60)
    await session.stop()
    return received - t0


def python_start() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t0


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        print(f"didChange -> diagnostics (target at 50 KB and 500 KB: p95 <= lint + {TARGET_MS:.0f} ms)")
        print(f"{'size':>7} {'lint p50':>9} {'lsp p50':>8} {'lsp p95':>8} {'p95 - lint':>11}")
        lint_500 = 0.0
        for label, size in SIZES:
            text = phase_pairs(min_bytes=size)
            path = Path(tmp) / f"bench-{size}.json"
            path.write_text(text, encoding="utf-8")
            lint_ms = lint_time_ms(text, str(path), runs=5 if size < 500_000 else 3)
            latencies = await change_latencies(text, path.as_uri(), args.edits)
            p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
            verdict = ""
            if size >= 50_000:
                met = p95 <= lint_ms + TARGET_MS
                ok &= met
                verdict = "  OK" if met else "  MISSED"
            if size == 500_000:
                lint_500 = lint_ms
            print(f"{label:>7} {lint_ms:8.1f}ms {p50:7.1f}ms {p95:7.1f}ms {p95 - lint_ms:+10.1f}ms{verdict}")

        text = phase_pairs(min_bytes=500_000)
        path = Path(tmp) / "requests.json"
        path.write_text(text, encoding="utf-8")
        server_lint, during = await request_latencies(text, path.as_uri(), args.rounds)
        print(f"\nrequests during a lint at 500 KB (in-process lint {lint_500:.0f} ms, didChange -> diagnostics "
              f"{server_lint:.0f} ms; target: max <= {REQUEST_TARGET_MS:.0f} ms)")
        print(f"{'request':>15} {'sent':>9} {'n':>3} {'p50':>8} {'max':>8}")
        for (name, when), values in sorted(during.items()):
            if name.endswith("(first line)"):
                continue
            worst = max(values)
            met = worst <= REQUEST_TARGET_MS
            ok &= met
            print(f"{name:>15} {when:>9} {len(values):3d} {percentile(values, 50):7.1f}ms {worst:7.1f}ms{'  OK' if met else '  MISSED'}")

        print("  (documentSymbol is the new version's: LSP cannot ask a client to fetch symbols again)")
        firsts = during[("documentSymbol (first line)", "at once")]
        print(f"  documentSymbol at once, until its first line arrives: p50 {percentile(firsts, 50):.1f}ms, max {max(firsts):.1f}ms (the rest is this client reading and parsing the answer)")
        print(f"\nstart-up: process start -> first diagnostics (target <= {START_TARGET_S} s)")
        text = phase_pairs(min_bytes=5_000)
        path = Path(tmp) / "start.json"
        path.write_text(text, encoding="utf-8")
        starts = [await start_up(text, path.as_uri()) for _ in range(5)]
        bare = statistics.median(python_start() for _ in range(5))
        median = statistics.median(starts)
        met = median <= START_TARGET_S
        ok &= met
        print(f"  median {median:.2f} s (min {min(starts):.2f} s), python -c pass {bare:.2f} s{'  OK' if met else '  MISSED'}")
    print(f"\nload average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1 / 5 / 15 min) on {os.cpu_count()} CPUs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
