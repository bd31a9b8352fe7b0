"""Per-document lint scheduling: debounce bursts, drop stale work, never publish old results.

A burst of edits (typing, a paste, an editor macro) triggers one lint: each change restarts a
short quiet window, and a lint starts at the latest ``MAX_DELAY`` after the first change it
covers even if the edits keep coming. Lints run one at a time in a worker thread so the event
loop keeps answering requests; a queued lint whose document has changed since it was asked
for is skipped, and a finished lint whose version is no longer the document's is discarded,
so what the editor shows always belongs to the latest text. A lint already running when its
document changes stops at its next step (``Superseded``, raised by the computation), so that the
newer version's lint starts at once instead of behind a full lint whose outcome would be
discarded.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from .diagnostics import LintOutcome

log = logging.getLogger(__name__)

#: quiet window after the last change before linting (seconds)
DELAY = 0.005
#: a lint starts at most this long after the first change it covers (seconds)
MAX_DELAY = 0.15


class Superseded(Exception):
    """Raised by a lint's computation at one of its steps when its document has changed since
    its snapshot: the outcome would be discarded, and what it has already checked stays in the
    caches for the newer version's lint."""


@dataclass(frozen=True)
class Snapshot:
    uri: str
    version: int | None
    text: str


Snapshotter = Callable[[str], "Snapshot | None"]
Computer = Callable[[Snapshot], LintOutcome]
Publisher = Callable[[LintOutcome], None]
Failure = Callable[[Snapshot, Exception], LintOutcome]


class LintScheduler:
    """Debounced, cancellable linting of open documents."""

    def __init__(
        self,
        snapshot: Snapshotter,
        compute: Computer,
        publish: Publisher,
        delay: float = DELAY,
        max_delay: float = MAX_DELAY,
        failed: Failure | None = None,
    ) -> None:
        self._snapshot = snapshot
        self._compute = compute
        self._publish = publish
        #: what a lint that raised publishes (None: nothing, the failure is only logged)
        self._failed = failed
        self.delay = delay
        self.max_delay = max_delay
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sylla-lint")
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._first_pending: dict[str, float] = {}
        self._generation: dict[str, int] = {}
        self._outcomes: dict[str, LintOutcome] = {}
        #: number of lints actually run (tests and the benchmark read it)
        self.runs = 0

    def schedule(self, uri: str, *, immediate: bool = False) -> None:
        """(Re)start the quiet window for ``uri``; ``immediate`` lints on the next loop turn."""
        now = time.monotonic()
        first = self._first_pending.setdefault(uri, now)
        delay = 0.0 if immediate else min(self.delay, max(0.0, first + self.max_delay - now))
        generation = self._generation.get(uri, 0) + 1
        self._generation[uri] = generation
        old = self._tasks.pop(uri, None)
        if old is not None:
            old.cancel()
        task = asyncio.ensure_future(self._run(uri, delay, generation))
        self._tasks[uri] = task
        task.add_done_callback(functools.partial(self._done, uri))

    def _done(self, uri: str, task: "asyncio.Task[None]") -> None:
        if self._tasks.get(uri) is task:
            del self._tasks[uri]
        if not task.cancelled() and task.exception() is not None:
            log.error("sylla: lint of %s failed: %s", uri, task.exception())

    def cancel(self, uri: str) -> None:
        """Forget a closed document: pending work is dropped, nothing more is published."""
        self._generation[uri] = self._generation.get(uri, 0) + 1
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        self._first_pending.pop(uri, None)
        self._outcomes.pop(uri, None)

    async def _run(self, uri: str, delay: float, generation: int) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        snap = self._snapshot(uri)
        if snap is None:
            return
        self._first_pending.pop(uri, None)
        outcome = await self._in_worker(snap, generation)
        if outcome is None or not self._is_current(outcome):
            return
        self._outcomes[uri] = outcome
        self._publish(outcome)

    async def _in_worker(self, snap: Snapshot, generation: int | None) -> LintOutcome | None:
        def job() -> LintOutcome | None:
            if generation is not None and self._generation.get(snap.uri) != generation:
                return None  # superseded while queued: skip the stale lint entirely
            self.runs += 1
            try:
                return self._compute(snap)
            except Superseded:
                return None  # the document changed while it ran: the newer lint follows
            except Exception as exc:
                if self._failed is None:
                    raise
                log.exception("sylla: lint of %s failed", snap.uri)
                return self._failed(snap, exc)

        return await asyncio.get_running_loop().run_in_executor(self._pool, job)

    def _is_current(self, outcome: LintOutcome) -> bool:
        snap = self._snapshot(outcome.uri)
        return snap is not None and snap.version == outcome.version and snap.text == outcome.text

    def cached(self, uri: str) -> LintOutcome | None:
        """The last published outcome if it still matches the document."""
        outcome = self._outcomes.get(uri)
        return outcome if outcome is not None and self._is_current(outcome) else None

    async def current(self, uri: str) -> LintOutcome | None:
        """The outcome for the document's current text, linting now if needed (pull, actions);
        a lint the document changed under is made again for its newer text."""
        while True:
            cached = self.cached(uri)
            if cached is not None:
                return cached
            snap = self._snapshot(uri)
            if snap is None:
                return None
            outcome = await self._in_worker(snap, None)
            if outcome is None:
                continue  # superseded
            if self._is_current(outcome):
                self._outcomes[uri] = outcome
            return outcome

    def invalidate(self) -> None:
        """Settings changed: every cached outcome is stale."""
        self._outcomes.clear()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
