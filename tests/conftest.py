"""Shared test helpers: fixture paths, Hypothesis without its per-example deadline, Ctrl-C for
the processes the tests start, and the order of the modules."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis fails an example that takes over 200 ms by default: a test that passes or fails by
# the machine's speed (the first example pays for imports and parser tables; a loaded machine
# is slower). No property here is about time, so no example has a deadline. Loaded before the
# test modules, whose own @settings(...) build on it.
settings.register_profile("sylla", deadline=None)
settings.load_profile("sylla")

# A test run started in the background (``bash scripts/test.sh &`` in a script, without job
# control) inherits SIGINT ignored, and so would every process the tests start: the tests that
# stop `sylla run --watch` or `sylla watch` with Ctrl-C, as a user does, would wait forever. A
# handler of this process's own is reset, not inherited, when a child starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


#: the tiers whose modules run longest (processes, oracles, campaigns): their modules run first
COSTLY = frozenset({"editor", "parity", "dask", "packaging", "precommit", "slow", "sb3"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with a costly tier first, each module's tests kept together and in order.

    pytest-xdist hands whole modules to its workers (``--dist loadfile``, scripts/test.sh) in
    collection order (``--no-loadscope-reorder``): a long module collected last would run on
    one worker while the other has nothing left. Started first, the long modules run side by
    side, and the many short ones fill the end on both workers."""
    costly: set[str] = set()
    for item in items:
        if COSTLY.intersection(mark.name for mark in item.iter_markers()):
            costly.add(item.nodeid.split("::", 1)[0])
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in costly)
