"""Where the server reads stdin on its event loop (``transport.pipe_reader``): a pipe of its
own, read to the last byte; not a pipe that also serves as stdout (making it non-blocking
would make stdout's blocking writes fail), not a socket or a regular file, and not a stream
without a descriptor. The server's own tests (``test_transport`` and the rest) run over the
first kind."""

from __future__ import annotations

import asyncio
import io
import os
import socket
import tempfile

import pytest

from sylla.lsp import transport

pytestmark = pytest.mark.asyncio


async def test_a_pipe_is_read_on_the_loop_to_its_end() -> None:
    read_fd, write_fd = os.pipe()
    message = b"Content-Length: 2\r\n\r\n{}" * 3
    with os.fdopen(read_fd, "rb") as stdin, tempfile.TemporaryFile() as stdout:
        reader = await transport.pipe_reader(stdin, stdout)
        assert isinstance(reader, asyncio.StreamReader)
        os.write(write_fd, message)
        os.close(write_fd)
        assert await reader.readline() == b"Content-Length: 2\r\n"
        assert await reader.readline() == b"\r\n"
        assert await reader.readexactly(2) == b"{}"
        rest = b"".join([await reader.readline() for _ in range(5)])
        assert rest == message[len(b"Content-Length: 2\r\n\r\n{}") :]
        assert await reader.readline() == b""  # end of input: serve() stops


async def test_a_pipe_that_is_also_stdout_a_socket_a_file_or_a_buffer_is_left_to_the_thread_reader(tmp_path) -> None:
    fifo = tmp_path / "both"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDWR)
    with os.fdopen(fd, "rb") as both_in, os.fdopen(os.dup(fd), "wb") as both_out:
        assert await transport.pipe_reader(both_in, both_out) is None
    left, right = socket.socketpair()
    with left, right, left.makefile("rb") as sock_in, tempfile.TemporaryFile() as stdout:
        assert await transport.pipe_reader(sock_in, stdout) is None
    with tempfile.TemporaryFile() as regular, tempfile.TemporaryFile() as stdout:
        assert await transport.pipe_reader(regular, stdout) is None
    assert await transport.pipe_reader(io.BytesIO(b""), io.BytesIO()) is None
