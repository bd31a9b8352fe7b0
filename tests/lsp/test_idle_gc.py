"""The server collects garbage when the session is quiet, not in the middle of a lint."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from sylla.lsp.idle_gc import IdleCollector

pytestmark = pytest.mark.asyncio


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector can free it


async def test_cycles_are_freed_once_the_session_is_quiet() -> None:
    collector = IdleCollector(quiet=0.05, max_gap=60)
    was_enabled = gc.isenabled()
    try:
        collector.start()
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
    finally:
        if was_enabled:
            gc.enable()


async def test_a_busy_session_still_collects_after_the_longest_gap() -> None:
    collector = IdleCollector(quiet=10, max_gap=0)
    was_enabled = gc.isenabled()
    try:
        collector.start()
        node = _Node()
        ref = weakref.ref(node)
        del node
        collector.activity()
        assert ref() is None and collector.collections == 1
    finally:
        if was_enabled:
            gc.enable()
