"""The server collects garbage when the session is quiet, not in the middle of a lint."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
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


async def test_cycles_are_freed_once_the_session_is_quiet() -> None:
    collector = IdleCollector(quiet=0.05, max_gap=60)
    with _started(collector):
        assert not gc.isenabled()
        node = _Node()
        ref = weakref.ref(node)
        del node
        collector.activity()
        await asyncio.sleep(0.02)
        collector.activity()  # more work: the quiet window starts again
        await asyncio.sleep(0.02)
        assert ref() is not None and collector.collections == 0
        await asyncio.sleep(0.1)
        assert ref() is None and collector.collections == 1


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
        await asyncio.sleep(0.15)
        assert ref() is None and collector.full_collections == 1


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
    with _started(collector):
        collector.activity()  # a lint ended: a collection once quiet ...
        for _ in range(4):
            await asyncio.sleep(0.03)
            collector.touch()  # ... but the editor keeps typing and asking
        assert collector.collections == 0
        await asyncio.sleep(0.1)
        assert collector.collections == 1
        collector.touch()  # nothing pending: a request alone schedules nothing
        await asyncio.sleep(0.1)
        assert collector.collections == 1
