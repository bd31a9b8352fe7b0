"""Garbage collection when the editor is not waiting.

A 500 KB syllabus parses into millions of objects that live as long as their version is
open. With automatic collection, a collection that happens to start between the parse and
the lint, or while a request is answered, walks all of them and adds 20-150 ms to what the
user waits for. The server therefore turns automatic collection off while it serves, and
collects once the session has been quiet for ``QUIET`` seconds after a lint (no lint, change
or request meanwhile). A session that
is never quiet for that long is still collected every ``MAX_GAP`` seconds, so memory held in
reference cycles is still returned, but only the young generations then: the objects made
since the last collection (20-30 ms for a few versions of a 500 KB syllabus). A full
collection walks every object of the open versions too, 110-140 ms of CPU (300-470 ms on a
busy machine), on the event loop right after a lint, where the requests of the next keystroke
waited for it; it runs only when quiet, or at the latest ``FULL_GAP`` seconds after the last
full one. Reference counting frees everything else at once, as always.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("sylla.lsp")

QUIET = 1.0
MAX_GAP = 30.0
#: the longest a busy session goes without a full collection (seconds)
FULL_GAP = 600.0
#: what a busy session collects: generations 0 and 1, the objects made since the last collection
YOUNG = 1


class IdleCollector:
    def __init__(self, quiet: float = QUIET, max_gap: float = MAX_GAP, full_gap: float = FULL_GAP) -> None:
        self.quiet = quiet
        self.max_gap = max_gap
        self.full_gap = full_gap
        self._last = self._last_full = time.monotonic()
        self._pending: asyncio.TimerHandle | None = None
        self.collections = 0
        self.full_collections = 0

    def start(self) -> None:
        """Stop automatic collection (the server is about to serve)."""
        gc.disable()

    def activity(self) -> None:
        """Something was linted: collect when things have been quiet for a while."""
        if self._pending is not None:
            self._pending.cancel()
        now = time.monotonic()
        if now - self._last >= self.max_gap:
            self.collect(2 if now - self._last_full >= self.full_gap else YOUNG)
            return
        try:
            self._pending = asyncio.get_running_loop().call_later(self.quiet, self.collect)
        except RuntimeError:  # no loop (in-process use): leave collection to the interpreter
            self._pending = None

    def touch(self) -> None:
        """The editor sent a change or a request: a collection waiting for quiet waits
        ``quiet`` seconds more. A lint's end alone does not say the session is quiet: after
        the long first lint of a large syllabus the quiet collection fired while the editor
        was already sending the next keystroke's requests, which waited 100+ ms for it."""
        if self._pending is None:
            return
        self._pending.cancel()
        try:
            self._pending = asyncio.get_running_loop().call_later(self.quiet, self.collect)
        except RuntimeError:  # no loop (in-process use)
            self._pending = None

    def collect(self, generation: int = 2) -> None:
        """Collect ``generation`` and the younger ones (2: all of them)."""
        self._pending = None
        self._last = time.monotonic()
        if generation >= 2:
            self._last_full = self._last
            self.full_collections += 1
        started = time.perf_counter()
        freed = gc.collect(generation)
        self.collections += 1
        log.debug("idle collection (generation %d) freed %d objects in %.0f ms", generation, freed, (time.perf_counter() - started) * 1000)
