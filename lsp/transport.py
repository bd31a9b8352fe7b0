"""Reading LSP messages from a byte stream, recovering from a malformed header.

pygls 2.1's reader only recognises an exact ``Content-Length: N\\r\\n`` line and never
resynchronises: after one message with no ``Content-Length``, ``Content-Length: abc`` or a
length that is too short, the rest of that message is read as a header line together with the
next message's real header, which no longer matches either, and so on for every message that
follows. The server stays alive and never answers again, and the editor waits forever.

This reader treats a ``Content-Length:`` found anywhere in a header line as the start of the
next message (whatever came before it on that line is dropped), so the message with the bad
header is lost, logged with the reason, and the next well-formed message is answered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import stat
import sys
import threading
from typing import Any, Awaitable, BinaryIO, Protocol

log = logging.getLogger("sylla.lsp")

_CONTENT_LENGTH = re.compile(rb"content-length:[ \t]*([^\r\n]*)", re.IGNORECASE)
_OTHER_HEADER = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r?\n?$")
_SHOWN = 60


class Reader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


class MessageHandler(Protocol):
    def structure_message(self, data: dict[str, Any]) -> Any: ...

    def handle_message(self, message: Any) -> None: ...


#: no limit on a header line in practice (the threaded reader had none): a line past
#: ``StreamReader``'s limit raises instead of being read and dropped as garbage
_LINE_LIMIT = 1 << 30


async def pipe_reader(stdin: BinaryIO, stdout: BinaryIO) -> Reader | None:
    """A reader of ``stdin`` on the event loop itself, or None where that is not safe.

    pygls reads stdin in a worker thread, a hand-over for every header line and body: right
    after a change, while the change's parse holds the GIL, each one waits for it, and the
    requests an editor sends with the change (outline, hover, completion) reached the server
    5-10 ms late, after the lint's parse had started without them. Read on the loop, a request
    that arrived with the change is handled right after it.

    Only for a pipe (editors start servers with pipes) that is not also stdout:
    ``connect_read_pipe`` makes the file non-blocking, which a shared file description (a
    socket or terminal on both) would pass on to stdout's blocking writes. Not on Windows,
    whose event loop reads pipes differently."""
    if sys.platform == "win32":
        return None
    try:
        fd = stdin.fileno()
        info = os.fstat(fd)
        out = os.fstat(stdout.fileno())
    except (AttributeError, OSError, ValueError):  # not a real file (a test's BytesIO, a closed stream)
        return None
    if not stat.S_ISFIFO(info.st_mode) or (info.st_dev, info.st_ino) == (out.st_dev, out.st_ino):
        return None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=_LINE_LIMIT, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), stdin)
    return reader


def _show(data: bytes) -> str:
    text = data[:_SHOWN].decode("utf-8", "replace")
    return repr(text + ("..." if len(data) > _SHOWN else ""))


async def _read_body(reader: Reader, length: int) -> bytes:
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:  # asyncio streams (TCP) at end of input
        return exc.partial


async def serve(stop_event: threading.Event, reader: Reader, protocol: MessageHandler) -> None:
    """Read messages until end of input (or ``stop_event``) and hand each to ``protocol``."""
    length: int | None = None
    while not stop_event.is_set():
        line = await reader.readline()
        if not line:
            return
        header = _CONTENT_LENGTH.search(line)
        if header is not None:
            if header.start() > 0:
                log.warning("skipped %d bytes that were not part of a message: %s", header.start(), _show(line[: header.start()]))
            value = header.group(1).strip()
            if value.isdigit():
                length = int(value)
            else:
                log.warning("malformed header %s: the message is dropped", _show(line[header.start() :].rstrip()))
                length = None
            continue
        if not line.strip():
            if length is None:
                log.warning("a message header without a valid Content-Length: the message is dropped")
                continue
            body = await _read_body(reader, length)
            length = None
            if not body:
                return
            _dispatch(protocol, body)
            continue
        if _OTHER_HEADER.match(line):
            continue  # Content-Type and any header LSP may add later
        log.warning("skipped a line that is not a message header: %s", _show(line))


def _dispatch(protocol: MessageHandler, body: bytes) -> None:
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except ValueError as exc:
        log.warning("a message body that is not JSON (Content-Length too short or too long?) was dropped: %s", exc)
        return
    try:
        protocol.handle_message(message)
    except Exception:
        log.exception("unable to handle a message")
