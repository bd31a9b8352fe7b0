"""sylla's cache directory (``$XDG_CACHE_HOME/sylla``, else ``~/.cache/sylla``).

Caches hold only what can be recomputed: the LALR tables, regex programs, the records'
compiled ``__init__`` and the digests of instructions already known to satisfy the schema.
``SYLLA_NO_CACHE=1`` turns them off.

Marshalled caches are sealed (`write_marshalled`): ``marshal.loads`` trusts its input, and a
damaged byte in a length can make it allocate for minutes or raise ``MemoryError``, so a file
is only unmarshalled when its payload matches the digest written before it.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path

from sylla.kit.atomic import replace_file
from sylla.kit.digest import blake2b
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_SEAL = 16  # bytes of blake2b digest before a marshalled payload


def enabled() -> bool:
    return os.environ.get("SYLLA_NO_CACHE", "") in ("", "0")


def directory() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sylla"


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` so that a concurrent reader sees the old file or the new one, never
    half of one; a read-only cache directory is silently left alone."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, lambda tmp: Path(tmp).write_bytes(data), prefix="tmp")
    except OSError:
        pass


def write_marshalled(path: Path, value: Any) -> None:
    """``value`` marshalled, after the digest `read_marshalled` checks, written atomically."""
    data = marshal.dumps(value)
    write_atomically(path, blake2b(data, digest_size=_SEAL).digest() + data)


def read_marshalled(path: Path) -> Any:
    """What `write_marshalled` wrote to ``path``; None when the file is missing, unreadable,
    damaged (its digest does not match) or not marshal data."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    data = raw[_SEAL:]
    if len(raw) <= _SEAL or blake2b(data, digest_size=_SEAL).digest() != raw[:_SEAL]:
        return None
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError, MemoryError):
        return None
