"""``sylla lsp`` on the command line: a bad --tcp address is a usage error, and --tcp serves."""

from __future__ import annotations

import json
import socket
import subprocess
import time

import pytest
from lsp_support import SERVER_COMMAND

pytestmark = pytest.mark.editor


def test_bad_tcp_address_is_a_usage_error() -> None:
    proc = subprocess.run([*SERVER_COMMAND, "--tcp", "localhost"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "--tcp wants HOST:PORT" in proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tcp_server_answers_initialize() -> None:
    port = _free_port()
    proc = subprocess.Popen([*SERVER_COMMAND, "--tcp", f"127.0.0.1:{port}"], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60  # a server start on a loaded machine; bounds a hang
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with conn:
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
            conn.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(4096)
            header, rest = data.split(b"\r\n\r\n", 1)
            length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            while len(rest) < length:
                rest += conn.recv(4096)
            reply = json.loads(rest[:length])
        assert reply["id"] == 1
        assert reply["result"]["serverInfo"]["name"] == "sylla"
        assert reply["result"]["capabilities"]["positionEncoding"] == "utf-16"
    finally:
        proc.kill()
        proc.wait(timeout=10)
