"""A malformed message header costs that one message, not the session.

These tests write raw bytes to a real ``sylla lsp`` process, as a buggy client or a corrupted
pipe would: a message without ``Content-Length``, with ``Content-Length: abc`` and with a
length that is too short. After each, the next well-formed request must be answered, and the
server must say on stderr what it dropped.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest
from lsp_support import FIXTURES, fixture_text

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]


def frame(message: dict, *, header: bytes | None = None, delta: int = 0) -> bytes:
    body = json.dumps(message).encode()
    if header is None:
        header = b"Content-Length: %d\r\n" % (len(body) + delta)
    return header + b"\r\n" + body


async def read_message(stdout: asyncio.StreamReader) -> dict:
    length = None
    while True:
        line = await stdout.readline()
        if not line:
            raise AssertionError("the server closed its output")
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        elif line == b"\r\n" and length is not None:
            return json.loads(await stdout.readexactly(length))


async def answer(stdout: asyncio.StreamReader, msg_id: int, timeout: float = 60) -> dict:
    """The reply to request ``msg_id`` (``timeout`` bounds a hang: a server starting on a
    loaded machine takes many times its usual second)."""
    async def wait() -> dict:
        while True:
            message = await read_message(stdout)
            if message.get("id") == msg_id and "method" not in message:
                return message

    return await asyncio.wait_for(wait(), timeout)


def request(msg_id: int, method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def notification(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


SYMBOLS = {"textDocument": {"uri": (FIXTURES / "good.json").as_uri()}}

MALFORMED = {
    "no Content-Length": frame(request(2, "textDocument/documentSymbol", SYMBOLS), header=b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"),
    "Content-Length: abc": frame(request(2, "textDocument/documentSymbol", SYMBOLS), header=b"Content-Length: abc\r\n"),
    "a length too short": frame(request(2, "textDocument/documentSymbol", SYMBOLS), delta=-12),
}
LOGGED = {
    "no Content-Length": "without a valid Content-Length",
    "Content-Length: abc": "malformed header 'Content-Length: abc'",
    "a length too short": "not JSON",
}


@pytest.mark.parametrize("case", list(MALFORMED))
async def test_the_server_answers_after_a_malformed_header(case: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sylla", "lsp",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdin and proc.stdout and proc.stderr
    try:
        proc.stdin.write(frame(request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})))
        assert "capabilities" in (await answer(proc.stdout, 1))["result"]
        proc.stdin.write(frame(notification("initialized", {})))
        item = {"uri": SYMBOLS["textDocument"]["uri"], "languageId": "json", "version": 1, "text": fixture_text("good.json")}
        proc.stdin.write(frame(notification("textDocument/didOpen", {"textDocument": item})))
        proc.stdin.write(MALFORMED[case])
        await proc.stdin.drain()
        proc.stdin.write(frame(request(3, "textDocument/documentSymbol", SYMBOLS)))
        await proc.stdin.drain()
        reply = await answer(proc.stdout, 3)
        assert [s["name"] for s in reply["result"]] == ["1.train", "1.test", "2.train"]
        proc.stdin.write(frame(request(4, "shutdown", None)))
        await answer(proc.stdout, 4)
        proc.stdin.write(frame(notification("exit", None)))
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
        stderr = (await proc.stderr.read()).decode()
        assert LOGGED[case] in stderr, stderr
        assert "Traceback" not in stderr, stderr
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
