"""A function that a loaded shared library holds but does not export, found through the
library's ELF symbol table and checked byte for byte before it may be called.

sylla needs one such function: the ``mallctl`` of the jemalloc that pyarrow's wheels link into
``libarrow`` (`sylla.metrics.readers.arrow_pool`). Arrow keeps jemalloc's symbols local, and
the one purge pyarrow offers (``MemoryPool.release_unused``) asks for an arena jemalloc does not
know, so it frees nothing. The symbol table (``.symtab``, which the wheels keep) still names the
function and its bytes.

Calling into memory by address is only safe when the address is right, so nothing here
assumes a load address: the function's bytes are located in the file (its section's file
offset), the executable mapping of that same file (same inode) that holds those bytes is
found in ``/proc/self/maps``, and the bytes in memory are compared with the bytes in the file.
Anything unexpected (another platform, a 32-bit or big-endian file, no symbol table, a
stripped or truncated file, a file not mapped, bytes that differ) gives None, never an
exception, and the caller keeps its fallback.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import struct
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

_SHT_SYMTAB = 2
_SHT_PROGBITS = 1
_SHF_EXECINSTR = 0x4
_STT_FUNC = 2
_SECTION = np.dtype([("name", "<u4"), ("type", "<u4"), ("flags", "<u8"), ("addr", "<u8"),
                     ("offset", "<u8"), ("size", "<u8"), ("link", "<u4"), ("info", "<u4"),
                     ("align", "<u8"), ("entsize", "<u8")])
_SYMBOL = np.dtype([("name", "<u4"), ("info", "u1"), ("other", "u1"), ("shndx", "<u2"),
                    ("value", "<u8"), ("size", "<u8")])


class Code(NamedTuple):
    """A function's machine code in its file: where it starts and its bytes."""

    offset: int
    data: bytes


def code_in_file(path: "str | Path", name: str) -> "Code | None":
    """The machine code of the function ``name`` in the ELF64 little-endian file at ``path``,
    from its symbol table (local symbols included), or None when the file is not such a file,
    has no symbol table, names no such function, or is cut short."""
    try:
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0,
                                                   access=mmap.ACCESS_READ) as data:
            return _code(data, name.encode())
    except (OSError, ValueError, struct.error):
        return None


def _code(data: mmap.mmap, name: bytes) -> "Code | None":
    size = len(data)
    if size < 64 or data[:6] != b"\x7fELF\x02\x01":  # ELF, 64-bit, little-endian
        return None
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    if shentsize != _SECTION.itemsize or shnum == 0 or shoff + shnum * shentsize > size:
        return None
    sections = np.frombuffer(data[shoff:shoff + shnum * shentsize], dtype=_SECTION)
    for index in np.flatnonzero(sections["type"] == _SHT_SYMTAB):
        table = sections[index]
        if table["entsize"] != _SYMBOL.itemsize or table["link"] >= shnum:
            continue
        strings = sections[table["link"]]
        s_lo, s_hi = int(strings["offset"]), int(strings["offset"] + strings["size"])
        t_lo, t_hi = int(table["offset"]), int(table["offset"] + table["size"])
        if s_hi > size or t_hi > size or (t_hi - t_lo) % _SYMBOL.itemsize:
            continue
        at = data.find(b"\0" + name + b"\0", s_lo, s_hi)
        if at < 0:
            continue
        symbols = np.frombuffer(data[t_lo:t_hi], dtype=_SYMBOL)
        hits = symbols[(symbols["name"] == at + 1 - s_lo) & (symbols["info"] & 0xF == _STT_FUNC)
                       & (symbols["size"] > 0)]
        if len(hits) != 1 or hits["shndx"][0] >= shnum:
            continue
        value, length = int(hits["value"][0]), int(hits["size"][0])
        home = sections[hits["shndx"][0]]
        if home["type"] != _SHT_PROGBITS or not home["flags"] & _SHF_EXECINSTR:
            continue
        offset = int(home["offset"]) + value - int(home["addr"])
        if not int(home["addr"]) <= value < value + length <= int(home["addr"] + home["size"]) \
                or offset + length > size:
            continue
        return Code(offset, bytes(data[offset:offset + length]))
    return None


def address_in_memory(path: "str | Path", code: Code) -> "int | None":
    """Where ``code`` of the file at ``path`` sits in this process: in an executable mapping of
    that very file (same device and inode) whose file range holds it, and only if the bytes
    there are the file's. None when the file is not mapped so, or the bytes differ."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        stat = os.stat(path)
        with open("/proc/self/maps") as maps:
            lines = maps.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) < 6 or "r" not in fields[1] or "x" not in fields[1]:
            continue
        try:
            inode, start, end = int(fields[4]), *(int(x, 16) for x in fields[0].split("-"))
            major, minor = (int(x, 16) for x in fields[3].split(":"))
            offset = int(fields[2], 16)
        except ValueError:
            continue
        if inode != stat.st_ino or (major, minor) != (os.major(stat.st_dev),
                                                       os.minor(stat.st_dev)):
            continue
        if offset <= code.offset and code.offset + len(code.data) <= offset + end - start:
            address = start + code.offset - offset
            if ctypes.string_at(address, len(code.data)) == code.data:
                return address
    return None
