"""The block table an incremental update builds from the table it keeps equals align's
(`schedule_blocks`) for every episode count, column for column and type for type."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sylla.metrics.data import BLOCK_COLUMNS
from sylla.metrics.scheduled import schedule_blocks
from sylla.metrics.watch.follow import Follower
from sylla.metrics.watch.state import Options

from .conftest import SYLLABUS, WATCH
from .replay import materialise


@pytest.mark.parametrize("syllabus", [SYLLABUS, WATCH / "pong_breakout_params.json"])
def test_kept_block_table_equals_aligns_at_every_count(tmp_path: Path, syllabus: Path) -> None:
    run = tmp_path / "rewards.csv"
    materialise(WATCH / "rewards.csv", run, 20)
    follower = Follower(run, Options(syllabus=str(syllabus)))
    try:
        inc = follower.incremental
        assert inc is not None
        for n in range(1, inc.sched.episodes + 1):
            partial = inc._partial_blocks([n])
            present = np.array([max(0, min(n, b.end) - b.start) for b in inc.sched.blocks])
            frame = schedule_blocks(inc.sched, present, partial)
            got = inc._blocks(present, partial)
            for c in BLOCK_COLUMNS:
                want = np.asarray(frame[c])
                assert got[c].dtype == want.dtype and np.array_equal(got[c], want), (n, c)
    finally:
        follower.close()
