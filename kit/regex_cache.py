"""``compile_cached``: ``re.compile`` for the lexer's long pattern, its compiled program kept in
the cache directory.

The lexer joins every terminal of the grammar into one regular expression; the whole-container
terminals (``SHALLOW_*``) alone are 3,000 characters, and Python's regex compiler, written in
Python, spends 15-30 ms on them in every process: a tenth of ``sylla lint`` on a small file
(issue 24). What the compiler produces is a list of integers, the program the C matcher runs.
The first run stores it beside the pattern, keyed by the pattern, the Python version and the
matcher's ``MAGIC``; later runs hand it to the matcher directly. It is stored marshalled (as
Python stores bytecode): reading the same program as JSON cost four times as much (issue 24).

A program is stored only when the pattern built from it equals ``re.compile``'s (``Pattern``
equality compares the programs), in a sealed file (`cache.write_marshalled`: a damaged byte
fails its digest, where the matcher, which only checks that a program is well formed, could
take a changed literal), so a damaged or foreign file falls back to ``re.compile``.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # CPython's regex matcher: no stubs, the public re module does not expose programs
import re
import sys
from pathlib import Path

from sylla.kit import cache
from sylla.kit.digest import blake2b
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

try:
    from re import _compiler, _parser  # type: ignore[attr-defined]  # CPython's regex compiler: what re.compile runs, not in re's stubs
except ImportError:  # another Python: re.compile only
    _compiler = _parser = None


def compile_cached(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, with the program read from the cache when it is there."""
    if _compiler is None or not cache.enabled():
        return re.compile(pattern, flags)
    path = _path(pattern, flags)
    stored = cache.read_marshalled(path)
    try:
        if stored["pattern"] == pattern and stored["requested"] == flags:
            return _build(pattern, stored)
    except (KeyError, TypeError, ValueError, RuntimeError, OverflowError, MemoryError):
        pass  # not cached yet, damaged, or refused by the matcher: compile
    compiled = re.compile(pattern, flags)
    program = _program(pattern, flags)
    if program is not None and _build(pattern, program) == compiled:
        cache.write_marshalled(path, program)
    return compiled


def _path(pattern: str, flags: int) -> Path:
    key = f"{sys.version}\0{_sre.MAGIC}\0{flags}\0{pattern}".encode("utf-8", "surrogatepass")
    return cache.directory() / f"regex-{blake2b(key, digest_size=8).hexdigest()}.sealed"


def _program(pattern: str, flags: int) -> dict[str, Any] | None:
    """What ``re._compiler.compile`` hands the matcher, as plain values."""
    try:
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        # plain ints: the compiler's opcodes are an int subclass, which marshal refuses
        return {"pattern": pattern, "requested": int(flags), "flags": int(flags | parsed.state.flags), "code": list(map(int, code)),
                "groups": parsed.state.groups - 1, "groupindex": groupindex, "indexgroup": indexgroup}
    except (AttributeError, TypeError, ValueError):  # the compiler's internals changed
        return None


def _build(pattern: str, program: dict[str, Any]) -> re.Pattern[str]:
    pattern_object: re.Pattern[str] = _sre.compile(
        pattern, program["flags"], program["code"], program["groups"], program["groupindex"],
        tuple(program["indexgroup"]),
    )
    return pattern_object
