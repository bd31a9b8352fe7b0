"""`sylla.kit.native`: a library's local function found in its ELF symbol table, and only
called where the bytes in memory are the file's. Checked on the real ``libarrow`` pyarrow
loads, and on damaged copies and other files, where the answer must be None, never an
exception (a wrong address called would be a crash)."""

from __future__ import annotations

import ctypes
import shutil
import struct
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.kit.native import Code, address_in_memory, code_in_file
from sylla.metrics.readers.arrow_pool import MALLCTL, libarrow

LIB = libarrow()
CODE = code_in_file(LIB, MALLCTL) if LIB is not None else None
needs_symbol = pytest.mark.skipif(
    CODE is None, reason="this pyarrow's libarrow names no jemalloc mallctl in its symbol table")


@needs_symbol
def test_libarrows_mallctl_is_found_and_answers():
    import pyarrow  # noqa: F401 - maps libarrow

    assert LIB is not None and CODE is not None
    address = address_in_memory(LIB, CODE)
    assert address is not None
    mallctl = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_size_t)(address)
    version, size = ctypes.c_char_p(), ctypes.c_size_t(ctypes.sizeof(ctypes.c_char_p))
    assert mallctl(b"version", ctypes.byref(version), ctypes.byref(size), None, 0) == 0
    assert version.value is not None and version.value.startswith(b"5.")


@needs_symbol
def test_code_whose_bytes_differ_from_memory_is_not_located():
    import pyarrow  # noqa: F401 - maps libarrow

    assert LIB is not None and CODE is not None
    changed = Code(CODE.offset, bytes([CODE.data[0] ^ 0xFF]) + CODE.data[1:])
    assert address_in_memory(LIB, changed) is None
    assert address_in_memory(LIB, Code(CODE.offset + 1, CODE.data)) is None


@needs_symbol
def test_a_copy_of_the_library_is_not_the_library_in_memory(tmp_path):
    """Same bytes, another inode: not mapped in this process, so no address."""
    assert LIB is not None
    copy = tmp_path / LIB.name
    shutil.copyfile(LIB, copy)
    code = code_in_file(copy, MALLCTL)
    assert code == CODE
    assert address_in_memory(copy, code) is None


def test_files_without_the_function_give_none(tmp_path):
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    text = tmp_path / "text"
    text.write_text("je_arrow_mallctl\n")
    assert code_in_file(empty, MALLCTL) is None
    assert code_in_file(text, MALLCTL) is None
    assert code_in_file(tmp_path / "missing", MALLCTL) is None
    assert code_in_file(sys.executable, MALLCTL) is None  # an ELF file, no such function
    assert code_in_file(tmp_path, MALLCTL) is None  # a folder


@needs_symbol
@pytest.mark.parametrize("keep", [64, 4096, 1 << 20, 0x2E70000])
def test_a_library_cut_short_gives_none(tmp_path, keep):
    """Cut before, in and after its symbol and string tables: every table is checked against the
    file's length before it is read."""
    assert LIB is not None
    cut = tmp_path / "cut.so"
    with open(LIB, "rb") as whole:
        cut.write_bytes(whole.read(keep))
    assert code_in_file(cut, MALLCTL) is None


def tiny_elf(name: bytes, code: bytes) -> bytes:
    """A minimal ELF64 little-endian file with one local function ``name`` of ``code`` in an
    executable section, laid out as the ELF specification says (header, ``.text``, ``.strtab``,
    ``.symtab``, section headers): small enough that every byte of it can be damaged."""
    strtab = b"\0" + name + b"\0"
    text_at, str_at = 64, 64 + len(code)
    sym_at = (str_at + len(strtab) + 7) & ~7
    symtab = bytes(24) + struct.pack("<IBBHQQ", 1, 0x02, 0, 1, 0x1000, len(code))
    sh_at = sym_at + len(symtab)
    header = (b"\x7fELF\x02\x01\x01" + bytes(9)
              + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sh_at, 0, 64, 56, 0, 64, 4, 0))
    sections = (bytes(64)
                + struct.pack("<IIQQQQIIQQ", 0, 1, 0x6, 0x1000, text_at, len(code), 0, 0, 16, 0)
                + struct.pack("<IIQQQQIIQQ", 0, 2, 0, 0, sym_at, len(symtab), 3, 1, 8, 24)
                + struct.pack("<IIQQQQIIQQ", 0, 3, 0, 0, str_at, len(strtab), 0, 0, 1, 0))
    body = header + code + strtab
    return body + bytes(sym_at - len(body)) + symtab + sections


CODE_BYTES = bytes(range(0x40, 0x50))


def test_a_tiny_elf_files_function_is_found(tmp_path):
    path = tmp_path / "tiny.so"
    path.write_bytes(tiny_elf(MALLCTL.encode(), CODE_BYTES))
    assert code_in_file(path, MALLCTL) == Code(64, CODE_BYTES)
    assert code_in_file(path, "je_arrow_mallct") is None  # a name is matched whole
    assert address_in_memory(path, Code(64, CODE_BYTES)) is None  # not mapped


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 511), st.integers(0, 255)), min_size=1,
                      max_size=8),
       cut=st.integers(0, 512))
def test_damaged_elf_files_never_raise(tmp_path: Path, edits: list[tuple[int, int]], cut: int):
    """Any byte of the header or the tables changed, any length: None or code the file really
    holds at the offset given, never an exception."""
    data = bytearray(tiny_elf(MALLCTL.encode(), CODE_BYTES)[:cut])
    for at, value in edits:
        if at < len(data):
            data[at] = value
    damaged = tmp_path / "damaged.so"
    damaged.write_bytes(bytes(data))
    found = code_in_file(damaged, MALLCTL)
    assert found is None or bytes(data[found.offset:found.offset + len(found.data)]) == found.data
