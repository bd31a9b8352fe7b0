"""didChange -> publishDiagnostics latency of ``sylla lsp``, beside the in-process lint time.

For syllabi of about 5 KB, 50 KB and 500 KB, a real stdio client opens the document, makes
50 edits one at a time (each waits for the diagnostics of its own version) and records the
time from sending ``didChange`` to receiving ``publishDiagnostics`` for that version. In the
same run, the same text is linted in-process, so the difference is what the server adds
(debounce window, JSON-RPC, position conversion). Target: p95 <= lint + 30 ms at 50 KB.

Usage: python bench/lsp_latency.py [--edits 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from sylla.grammar.synth import phase_pairs

SIZES = (("5 KB", 5_000), ("50 KB", 50_000), ("500 KB", 500_000))
TARGET_MS = 30.0


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


async def server_latencies(text: str, uri: str, edits: int) -> list[float]:
    client = LanguageClient("sylla-bench", "1")
    waiting: dict[int, asyncio.Future[float]] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        future = waiting.get(params.version) if params.version is not None else None
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    await client.start_io(sys.executable, "-m", "sylla", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    loop = asyncio.get_running_loop()
    waiting[0] = loop.create_future()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="json", version=0, text=text))
    )
    await asyncio.wait_for(waiting[0], 120)
    line = text.splitlines().index('    {"$repeat": {"$episode": "Pong"}, "count": 10},')
    col = len('    {"$repeat": {"$episode": "Pong"}, "count": ')
    latencies: list[float] = []
    for version in range(1, edits + 1):
        await asyncio.sleep(0.05)  # an editor's keystrokes are tens of milliseconds apart
        digit = str(version % 9 + 1)
        waiting[version] = loop.create_future()
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line, col), end=types.Position(line, col + 1)), text=digit
                    )
                ],
            )
        )
        received = await asyncio.wait_for(waiting[version], 60)
        latencies.append((received - sent) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=50)
    args = parser.parse_args()
    print(f"{'size':>7} {'lint p50':>9} {'lsp p50':>8} {'lsp p95':>8} {'p95 - lint':>11}  target (50 KB): p95 <= lint + {TARGET_MS:.0f} ms")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for label, size in SIZES:
            text = phase_pairs(min_bytes=size)
            path = Path(tmp) / f"bench-{size}.json"
            path.write_text(text, encoding="utf-8")
            lint_ms = lint_time_ms(text, str(path), runs=5 if size < 500_000 else 3)
            latencies = await server_latencies(text, path.as_uri(), args.edits)
            p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
            verdict = ""
            if size == 50_000:
                ok = p95 <= lint_ms + TARGET_MS
                verdict = "  OK" if ok else "  MISSED"
            print(f"{label:>7} {lint_ms:8.1f}ms {p50:7.1f}ms {p95:7.1f}ms {p95 - lint_ms:+10.1f}ms{verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
