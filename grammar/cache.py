"""sylla's cache directory (``$XDG_CACHE_HOME/sylla``, else ``~/.cache/sylla``).

Caches hold only what can be recomputed: the LALR tables and the digests of instructions
already known to satisfy the schema. ``SYLLA_NO_CACHE=1`` turns them off.
"""

from __future__ import annotations

import os
from pathlib import Path

from .atomic import replace_file


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
