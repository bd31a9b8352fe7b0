"""What metrics and explain say about a syllabus agree; a log that disagrees with its syllabus
in block lengths is stopped at the first block where they diverge."""

from __future__ import annotations

import json

import pytest

from sylla.cli import main
from sylla.metrics import MetricsError, compute_metrics

from .conftest import FIXTURES, SYLLABUS


def test_no_phase_is_refused_like_explain_says(tmp_path, capsys):
    data = json.loads(SYLLABUS.read_text())
    data["instructions"] = [i for i in data["instructions"] if "$phase" not in i]
    path = tmp_path / "nophase.json"
    path.write_text(json.dumps(data, indent=2))
    assert main(["explain", str(path)]) in (0, 1)
    explained = capsys.readouterr().out
    assert "no $phase annotations: metrics cannot be computed" in explained
    assert main(["metrics", "--syllabus", str(path), "--log",
                 str(FIXTURES / "rewards.csv")]) == 1
    err = capsys.readouterr().err
    assert "no $phase annotations: metrics cannot be computed" in err


def test_count_mismatch_is_reported_at_the_first_divergent_block(tmp_path):
    # block 1 (Pong test) logged with 3 episodes instead of 2: 21 episodes in all
    tasks = ["Pong"] * 9 + ["Breakout"] * 8 + ["Pong"] * 2 + ["Breakout"] * 2
    lines = ["episode,task,reward"] + [f"{i},{t},1" for i, t in enumerate(tasks)]
    path = tmp_path / "log.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MetricsError) as info:
        compute_metrics(path, SYLLABUS)
    msg = info.value.message
    assert "block 0 (Pong, phase 1.train)" in msg and "schedules 8" in msg and "the log has 9" in msg
    assert info.value.row == 10  # episode 8, the first that does not fit, not the end of the log
