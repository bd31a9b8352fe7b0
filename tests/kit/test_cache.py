"""Sealed marshal files (``cache.write_marshalled`` / ``read_marshalled``): what was written
is read back, and any damage reads as nothing, before ``marshal.loads`` sees the bytes."""

from __future__ import annotations

import marshal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.kit import cache

VALUE = {"pattern": "a+", "code": list(range(300)), "groups": 1}


def test_a_sealed_value_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "x.sealed"
    cache.write_marshalled(path, VALUE)
    assert cache.read_marshalled(path) == VALUE
    assert cache.read_marshalled(tmp_path / "missing.sealed") is None


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_changed_byte_reads_as_nothing(tmp_path_factory, data) -> None:
    """One byte of the file changed anywhere (in the seal or in the payload): None. Unsealed,
    some such changes make ``marshal.loads`` allocate for minutes (a length) or raise
    ``MemoryError``; here they never reach it."""
    path = tmp_path_factory.mktemp("c") / "x.sealed"
    cache.write_marshalled(path, VALUE)
    raw = bytearray(path.read_bytes())
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] ^= data.draw(st.integers(1, 255))
    path.write_bytes(bytes(raw))
    assert cache.read_marshalled(path) is None


def test_plain_marshal_and_truncated_files_read_as_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.sealed"
    for raw in (marshal.dumps(VALUE), b"", b"\xff" * 10):
        path.write_bytes(raw)
        assert cache.read_marshalled(path) is None
    cache.write_marshalled(path, VALUE)
    path.write_bytes(path.read_bytes()[:-1])
    assert cache.read_marshalled(path) is None
