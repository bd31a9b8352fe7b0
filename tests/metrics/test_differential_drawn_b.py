"""The differential suite's last two chunks of option sets, each over its own draw of logs
(`test_differential.py` says what is compared; `differential/suite.py` why it is split)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .differential import suite

pytestmark = [pytest.mark.parity, pytest.mark.slow, suite.NEEDS_L2METRICS]

PARTS = (2, 3)


@pytest.mark.parametrize("part", PARTS)
def test_sylla_equals_l2metrics(part: int, tmp_path: Path) -> None:
    suite.drawn_chunk(part, tmp_path)
