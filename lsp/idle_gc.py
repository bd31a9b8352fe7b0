"""Garbage collection when the editor is not waiting.

A 500 KB syllabus parses into millions of objects that live as long as their version is
open. With automatic collection, a collection that happens to start between the parse and
the lint, or while a request is answered, walks all of them and adds 20-150 ms to what the
user waits for. The server therefore turns automatic collection off while it serves, and
collects once the session has been quiet for ``QUIET`` seconds after a lint, or at the latest
``MAX_GAP`` seconds after the previous collection, so memory held in reference cycles is still
returned. Reference counting frees everything else at once, as always.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("sylla.lsp")

QUIET = 1.0
MAX_GAP = 30.0


class IdleCollector:
    def __init__(self, quiet: float = QUIET, max_gap: float = MAX_GAP) -> None:
        self.quiet = quiet
        self.max_gap = max_gap
        self._last = time.monotonic()
        self._pending: asyncio.TimerHandle | None = None
        self.collections = 0

    def start(self) -> None:
        """Stop automatic collection (the server is about to serve)."""
        gc.disable()

    def activity(self) -> None:
        """Something was linted: collect when things have been quiet for a while."""
        if self._pending is not None:
            self._pending.cancel()
        if time.monotonic() - self._last >= self.max_gap:
            self.collect()
            return
        try:
            self._pending = asyncio.get_running_loop().call_later(self.quiet, self.collect)
        except RuntimeError:  # no loop (in-process use): leave collection to the interpreter
            self._pending = None

    def collect(self) -> None:
        self._pending = None
        self._last = time.monotonic()
        started = time.perf_counter()
        freed = gc.collect()
        self.collections += 1
        log.debug("idle collection freed %d objects in %.0f ms", freed, (time.perf_counter() - started) * 1000)
