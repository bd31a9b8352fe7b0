"""``write_bytes`` / ``write_text``: the one way sylla rewrites a user's file (``lint --fix`` and ``fmt``).

A rewrite must not be a surprise to the file system: it lands on the file a symlink points
to (and the link stays a link), it keeps the file's mode bits and owner, it does not split a
hard link, and it refuses a file its owner made read-only. A plain file is replaced
atomically (temp file in the same folder, fsync, rename), so a crash leaves the old bytes.

The permission checks look at the mode bits as well as ``os.access``: under root
``os.access`` is always true and ``rename`` never needs write permission on the file it
replaces, so without them a 0444 file would be silently rewritten.
"""

from __future__ import annotations

import errno
import os
import stat

from sylla.kit.atomic import replace_file, write_synced

BOM = b"\xef\xbb\xbf"


class WriteError(OSError):
    """A file sylla will not or cannot write; ``str()`` is the reason for a person."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(errno.EACCES, reason, path)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def encode_utf8_like(original: bytes, text: str) -> bytes:
    """``text`` as UTF-8, with the byte-order mark ``original`` had (the parser drops it from
    the text it returns, and a rewrite must not drop it from the file). The bytes of a
    syllabus or a trial file; a language with other encodings says so in its descriptor
    (``LanguageSpec.encode``: a Science Birds config keeps the encoding the game wrote)."""
    data = text.encode("utf-8")
    if original.startswith(BOM) and not data.startswith(BOM):
        return BOM + data
    if not original.startswith(BOM) and data.startswith(BOM):
        return data[len(BOM):]
    return data


def _writable(st: os.stat_result, path: str) -> bool:
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return False
    return os.access(path, os.W_OK)


def write_text(path: str, original: bytes, text: str) -> None:
    """Replace the contents of ``path`` (read as ``original``) with ``text`` in UTF-8 (``sylla fmt``).

    Raises ``WriteError`` (an ``OSError``) with a short reason such as ``Permission denied``;
    the file is then untouched.
    """
    write_bytes(path, encode_utf8_like(original, text))


def write_bytes(path: str, data: bytes) -> None:
    """Replace the contents of ``path`` with ``data`` (``lint --fix``: the bytes its language's
    descriptor encoded); raises ``WriteError`` as ``write_text`` does."""
    target = os.path.realpath(path)  # through every symlink: the link itself stays
    try:
        st = os.stat(target)
    except OSError as exc:
        raise WriteError(path, exc.strerror or str(exc)) from exc
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(path, "not a regular file")
    if not _writable(st, target):
        raise WriteError(path, "Permission denied")
    if st.st_nlink > 1:
        _write_in_place(path, target, data)
        return
    folder = os.path.dirname(target)
    try:
        folder_st = os.stat(folder)
    except OSError as exc:  # pragma: no cover - the file was just found in it
        raise WriteError(path, exc.strerror or str(exc)) from exc
    if not _writable(folder_st, folder):
        raise WriteError(path, f"Permission denied (folder {folder} is read-only)")
    _replace_atomically(path, target, data, st)


def _write_in_place(path: str, target: str, data: bytes) -> None:
    """A file with other hard links: a rename would give this name a new inode and leave the
    other names with the old text, so the bytes are rewritten in the same inode."""
    try:
        with open(target, "r+b") as fh:
            fh.write(data)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise WriteError(path, exc.strerror or str(exc)) from exc


def _replace_atomically(path: str, target: str, data: bytes, st: os.stat_result) -> None:
    try:
        replace_file(target, write_synced(data), mode=stat.S_IMODE(st.st_mode), owner=(st.st_uid, st.st_gid))
    except OSError as exc:
        raise WriteError(path, exc.strerror or str(exc)) from exc
