"""The whole lines appended to a file since an offset: the one tail reader of ``sylla watch``.

Why one: the mirror, the incremental follower of plain and l2logger logs, and the kept reads
of continual-imitation and learnkit logs all ask the same question ("what was appended since
I last read, and is the file still the one I read?"). Answered once here, a file that was
replaced (another inode), cut (smaller than what was read) or rewritten in place (its first
bytes changed) is told apart from one that grew the same way everywhere, and a half-written
last line is never handed out: it waits for its newline. Each caller keeps only what its own
format does with the lines.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Position:
    """How far one file has been read."""

    inode: int
    offset: int  # bytes read, always just after a newline (0: nothing yet)
    #: the file's first min(``head``, offset) bytes as read (only when the caller asks to
    #: notice a rewrite in place: `appended`'s ``head``)
    head: bytes = b""


#: nothing read yet: every byte of the file is new
START = Position(-1, 0)


@dataclass(frozen=True)
class Appended:
    """What `appended` found: the new whole lines and where reading them leaves the file."""

    #: the whole lines after ``since`` (from the file's first byte when `fresh`)
    data: bytes
    #: True when what was read before is no prefix of the file now (a new file, or one
    #: replaced, cut or rewritten in place): ``data`` then starts at byte 0
    fresh: bool
    #: the position after ``data``: the caller stores it once it has used ``data``
    position: Position
    #: the file's first line (its header), when `appended` was asked for it (``header``)
    header: bytes = b""


def appended(path: str | Path, since: Position = START, *, head: int = 0,
             header: bool = False) -> Appended:
    """The whole lines ``path`` gained after ``since``; raises `FileNotFoundError` when the file
    is gone. ``head``: bytes of the file's start to compare with those read before, to notice a
    file rewritten in place with the same or a larger size (0: the inode and size alone
    decide). ``header``: also return the file's first line (a TSV's column names)."""
    with open(path, "rb") as handle:
        stat = os.fstat(handle.fileno())
        first = handle.readline() if header else b""
        handle.seek(0)
        fresh = (since.inode != stat.st_ino or stat.st_size < since.offset
                 or (head > 0 and handle.read(len(since.head)) != since.head))
        offset = 0 if fresh else since.offset
        handle.seek(offset)
        data = handle.read(max(0, stat.st_size - offset))
    data = data[: data.rfind(b"\n") + 1]  # a cut last line waits for its newline
    kept = since.head if not fresh else b""
    if head > 0 and len(kept) < head:
        kept = (kept + data)[:head]
    return Appended(data, fresh, Position(stat.st_ino, offset + len(data), kept), first)
