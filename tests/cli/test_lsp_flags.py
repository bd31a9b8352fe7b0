"""``sylla lsp``'s transport flags, as LSP clients and pygls pass them, each answering a real
``initialize``: ``--stdio`` (what vscode-languageclient appends), ``--tcp --host H --port P``,
the older ``--tcp HOST:PORT`` and ``--ws``; and the usage errors around them."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytestmark = pytest.mark.editor

SERVER = [sys.executable, "-m", "sylla", "lsp"]
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}}


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_frame(read) -> dict:
    """One LSP message from ``read(n)``, a function returning at most n bytes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = read(1)
        assert chunk, f"the server closed the stream after {data!r}"
        data += chunk
    headers = dict(line.split(": ", 1) for line in data.decode("ascii").strip().split("\r\n"))
    length = int(headers["Content-Length"])
    body = b""
    while len(body) < length:
        chunk = read(length - len(body))
        assert chunk, "the server closed the stream inside a message"
        body += chunk
    return json.loads(body)


def _assert_sylla_initialized(reply: dict) -> None:
    assert reply["id"] == 1
    assert reply["result"]["serverInfo"]["name"] == "sylla"
    assert "textDocumentSync" in reply["result"]["capabilities"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def _server(*flags: str) -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen([*SERVER, *flags], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _connect(port: int, proc: subprocess.Popen) -> socket.socket:
    deadline = time.monotonic() + 60  # a server start on a loaded machine; bounds a hang
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=20)
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"the server exited {proc.returncode}: {proc.stderr.read().decode()}") from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.parametrize("flags", [(), ("--stdio",)], ids=["default", "--stdio"])
def test_stdio_answers_initialize(flags: tuple[str, ...]) -> None:
    with _server(*flags) as proc:
        assert proc.stdin and proc.stdout
        proc.stdin.write(_frame(INITIALIZE))
        proc.stdin.flush()
        _assert_sylla_initialized(_read_frame(proc.stdout.read))


@pytest.mark.parametrize("form", ["--tcp --host --port", "--tcp HOST:PORT"])
def test_tcp_answers_initialize_in_both_forms(form: str) -> None:
    port = _free_port()
    flags = ("--tcp", "--host", "127.0.0.1", "--port", str(port)) if form.endswith("--port") else ("--tcp", f"127.0.0.1:{port}")
    with _server(*flags) as proc, _connect(port, proc) as conn:
        conn.sendall(_frame(INITIALIZE))
        _assert_sylla_initialized(_read_frame(conn.recv))


def test_ws_answers_initialize() -> None:
    from websockets.asyncio.client import connect

    port = _free_port()

    async def exchange() -> dict:
        deadline = time.monotonic() + 60  # a server start on a loaded machine; bounds a hang
        while True:
            try:
                async with connect(f"ws://127.0.0.1:{port}", open_timeout=20) as ws:
                    await ws.send(json.dumps(INITIALIZE))  # WebSocket frames carry bare JSON, no headers
                    return json.loads(await asyncio.wait_for(ws.recv(), 60))
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)

    with _server("--ws", "--port", str(port)):
        _assert_sylla_initialized(asyncio.run(exchange()))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--tcp", "localhost"), "--tcp wants HOST:PORT, not 'localhost'"),
        (("--tcp", "127.0.0.1:1", "--port", "2"), "either as --tcp HOST:PORT or with --host/--port"),
        (("--port", "2087"), "--host and --port go with --tcp or --ws"),
        (("--tcp", "--port", "70000"), "--port wants a number from 1 to 65535, not 70000"),
        (("--stdio", "--tcp"), "not allowed with argument"),
        (("--tcp", "--ws"), "not allowed with argument"),
    ],
)
def test_contradicting_flags_are_usage_errors(flags: tuple[str, ...], message: str) -> None:
    proc = subprocess.run([*SERVER, *flags], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
