"""Shared test helpers: fixture paths, and Hypothesis without its per-example deadline."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis fails an example that takes over 200 ms by default: a test that passes or fails by
# the machine's speed (the first example pays for imports and parser tables; a loaded machine
# is slower). No property here is about time, so no example has a deadline. Loaded before the
# test modules, whose own @settings(...) build on it.
settings.register_profile("sylla", deadline=None)
settings.load_profile("sylla")

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
