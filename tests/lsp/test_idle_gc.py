"""The server collects garbage when the session is quiet, not in the middle of a lint.

Decided by the order of the event loop's timers, not by how long a sleep lasts: a probe
scheduled with ``call_later`` runs before every timer due later and after every timer due
earlier, however late the loop gets to them on a busy machine (asyncio runs the timers that are
due in the order of their times). A probe set between two calls that each schedule the quiet
collection falls after the first one's time and before the second's, so it sees whether the
first was called off; `until` waits for a collection that must come.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from sylla.lsp.idle_gc import IdleCollector

pytestmark = pytest.mark.asyncio


@contextmanager
def _started(collector: IdleCollector) -> Iterator[None]:
    """``collector`` started (it switches the automatic collector off), and the interpreter's
    collector as it was afterwards, whatever the test did."""
    was_enabled = gc.isenabled()
    try:
        collector.start()
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector can free it


def probe(delay: float, look: Callable[[], object]) -> asyncio.Future[object]:
    """What ``look`` returns when the loop runs the timers due ``delay`` seconds from now."""
    loop = asyncio.get_running_loop()
    seen: asyncio.Future[object] = loop.create_future()
    loop.call_later(delay, lambda: seen.set_result(look()))
    return seen


async def until(done: Callable[[], bool]) -> None:
    """Wait for ``done`` (a collection that must come); a minute is only the bound of a hang."""
    deadline = asyncio.get_running_loop().time() + 60
    while not done():
        assert asyncio.get_running_loop().time() < deadline, "no collection came"
        await asyncio.sleep(0.01)


async def test_cycles_are_freed_once_the_session_is_quiet() -> None:
    collector = IdleCollector(quiet=0.05, max_gap=60)
    with _started(collector):
        assert not gc.isenabled()
        node = _Node()
        ref = weakref.ref(node)
        del node
        collector.activity()  # a collection once quiet ...
        seen = probe(collector.quiet, lambda: (ref() is not None, collector.collections))
        collector.activity()  # ... more work: the quiet window starts again
        assert await seen == (True, 0)  # past the first window's end, before the second's
        await until(lambda: collector.collections == 1)
        assert ref() is None


async def test_a_busy_session_still_collects_after_the_longest_gap() -> None:
    collector = IdleCollector(quiet=10, max_gap=0)
    with _started(collector):
        node = _Node()
        ref = weakref.ref(node)
        del node
        collector.activity()
        assert ref() is None and collector.collections == 1


async def test_a_busy_session_leaves_the_old_objects_to_a_quiet_moment() -> None:
    """The collection a busy session gets walks only the objects made since the last one: a
    cycle that was already old when it became garbage waits for the quiet (full) collection,
    and so do the millions of live objects of the open versions."""
    collector = IdleCollector(quiet=0.05, max_gap=0, full_gap=60)
    with _started(collector):
        node = _Node()
        ref = weakref.ref(node)
        gc.collect(1)  # survives while referenced: now in the oldest generation
        del node
        collector.activity()
        assert ref() is not None and collector.collections == 1 and collector.full_collections == 0
        collector.max_gap = 60
        collector.activity()
        await until(lambda: collector.full_collections == 1)
        assert ref() is None


async def test_a_session_never_quiet_still_gets_a_full_collection_after_the_longest_gap() -> None:
    collector = IdleCollector(quiet=10, max_gap=0, full_gap=0)
    with _started(collector):
        node = _Node()
        ref = weakref.ref(node)
        gc.collect(1)
        del node
        collector.activity()
        assert ref() is None and collector.full_collections == 1


async def test_changes_and_requests_keep_the_session_from_being_quiet() -> None:
    collector = IdleCollector(quiet=0.05, max_gap=60)
    loop = asyncio.get_running_loop()
    with _started(collector):
        start = loop.time()
        collector.activity()  # a lint ended: a collection once quiet ...
        # ... but the editor keeps typing and asking: a touch every half window, each due
        # before the collection the one before it put off
        for k in range(1, 5):
            loop.call_at(start + k * collector.quiet / 2, collector.touch)
        seen = loop.create_future()
        loop.call_at(start + 2.5 * collector.quiet, lambda: seen.set_result(collector.collections))
        assert await seen == 0  # a window after the first would-be collection, none came
        await until(lambda: collector.collections == 1)
        # nothing pending: a request alone schedules nothing (a collection it scheduled would
        # be due before the probe)
        collector.touch()
        assert await probe(2 * collector.quiet, lambda: collector.collections) == 1
