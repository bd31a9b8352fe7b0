"""Compiled generated code kept across runs: the ``__init__`` of each record (``record.py``).

A record's ``__init__`` is generated from its fields and compiled on its first construction,
as ``@dataclass`` does. Python's compiler spent 0.6-2.4M instructions on each of those few
lines, 12.5M for the 20 records a small ``sylla lint`` builds: a tenth of its start-up
(issue 24). The code objects only depend on the source text and the interpreter, so they are
kept in the cache directory, marshalled as Python keeps its own bytecode in ``__pycache__``,
in one file per interpreter, read once per process (on the first record built) and written at
exit when a run compiled something new. A damaged or foreign file is ignored: the source is
compiled, as without the cache.
"""

from __future__ import annotations

import marshal
import sys
from pathlib import Path
from types import CodeType

from sylla.kit import cache
from sylla.kit.digest import blake2b

#: the file starts over past this many sources (records are a few dozen; this bounds a cache
#: that old versions of sylla kept adding to)
_LIMIT = 2_000

_codes: dict[str, CodeType] | None = None
_new: dict[str, CodeType] = {}


def cached(source: str) -> CodeType | None:
    """The code compiled from ``source`` in an earlier run (or this one), else None."""
    return _load().get(source)


def keep(source: str, code: CodeType) -> None:
    """Remember ``code`` for ``source``; the file is written when the process ends."""
    codes = _load()
    codes[source] = code
    if not cache.enabled():
        return
    if not _new:
        import atexit  # noqa: PLC0415 - lazy: only a run that compiled something new writes the file

        atexit.register(_write)
    _new[source] = code


def _path() -> Path:
    key = f"{sys.version}\0{sys.implementation.cache_tag}\0{marshal.version}".encode()
    return cache.directory() / f"code-{blake2b(key, digest_size=8).hexdigest()}.sealed"


def _read() -> dict[str, CodeType]:
    stored = cache.read_marshalled(_path())
    if not isinstance(stored, dict):
        return {}
    return {k: v for k, v in stored.items() if isinstance(k, str) and isinstance(v, CodeType)}


def _load() -> dict[str, CodeType]:
    global _codes
    if _codes is None:
        _codes = _read() if cache.enabled() else {}
    return _codes


def _write() -> None:
    """The file as it is now (another run may have added to it since this one read it) with
    this run's new code, atomically."""
    stored = _read()
    if len(stored) + len(_new) > _LIMIT:
        stored = {}
    stored.update(_new)
    _new.clear()
    cache.write_marshalled(_path(), stored)
