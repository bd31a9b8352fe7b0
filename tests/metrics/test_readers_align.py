"""Readers for every format give the same episodes; bad input gives a located message."""

from __future__ import annotations

import numpy as np
import pytest

from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import detect, read_log

from .conftest import FIXTURES, REWARDS, SYLLABUS


@pytest.mark.parametrize("name", ["rewards.csv", "rewards_steps.tsv", "rewards.jsonl",
                                  "rewards.parquet", "l2logger_v10", "l2logger_v11",
                                  "learnkit_sep2020", "learnkit_feb2020"])
def test_every_format_reads_the_same_rewards(name):
    path = FIXTURES / name
    if name.startswith("learnkit"):
        path = next(path.iterdir())
    log = read_log(path)
    assert log.frame["perf"].tolist() == [float(r) for r in REWARDS]


def test_detection():
    assert detect(FIXTURES / "rewards.csv") == "csv"
    assert detect(FIXTURES / "l2logger_v10") == "l2logger"
    assert detect(next((FIXTURES / "learnkit_sep2020").iterdir())) == "learnkit"


@pytest.mark.parametrize("name", ["rewards.csv", "l2logger_v11", "learnkit_sep2020",
                                  "learnkit_feb2020"])
def test_same_metrics_with_syllabus(name):
    path, syllabus = FIXTURES / name, SYLLABUS
    if name.startswith("learnkit"):  # learnkit logs keep their syllabus beside them
        path = next(path.iterdir())
        syllabus = path / "syllabus.json"
    r = compute_metrics(path, syllabus, only=["saturation"])
    sel = r.rows[(r.rows.metric == "saturation_value") & r.rows.block.notna()]
    assert sel.value.tolist() == [6, 5, 2, 8, 4, 8]


def test_l2logger_without_syllabus_uses_its_blocks():
    r = compute_metrics(FIXTURES / "l2logger_v10", only=["saturation"])
    blocks = r.runs[0].blocks
    assert blocks.task.tolist() == ["pong", "pong", "breakout", "breakout", "pong", "breakout"]
    assert blocks.kind.tolist() == ["train", "test", "test", "train", "test", "test"]
    assert blocks.phase.tolist() == ["1.train", "1.test", "1.test", "2.train", "2.test", "2.test"]


@pytest.mark.parametrize("name, where, words", [
    ("nan.csv", 4, "reward is missing or NaN"),
    ("text.csv", 3, "not a number: 'oops'"),
    ("inf.tsv", 3, "not finite"),
])
def test_bad_values_name_file_and_row(name, where, words):
    with pytest.raises(MetricsError) as info:
        read_log(FIXTURES / name)
    assert info.value.file.endswith(name) and info.value.row == where
    assert words in info.value.message


def test_missing_column_and_empty_file():
    with pytest.raises(MetricsError, match="no performance column 'reward'.*episode, score"):
        read_log(FIXTURES / "no_reward.csv")
    with pytest.raises(MetricsError, match="empty") as info:
        read_log(FIXTURES / "empty.csv")
    assert info.value.exit_code == 1


def test_l2logger_bad_reward_names_data_file(tmp_path):
    import shutil

    d = tmp_path / "log"
    shutil.copytree(FIXTURES / "l2logger_v11", d)
    f = d / "worker-default" / "2-train" / "data-log.tsv"
    lines = f.read_text().splitlines()
    lines[3] = lines[3].rsplit("\t", 1)[0] + "\tbroken"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(MetricsError) as info:
        read_log(d)
    assert info.value.file == str(f) and info.value.row == 4
    assert "not a number: 'broken'" in info.value.message


def test_short_log_needs_allow_partial():
    with pytest.raises(MetricsError, match=r"ends after 13 episodes.*block 3 \(Breakout"):
        compute_metrics(FIXTURES / "short.csv", SYLLABUS)
    r = compute_metrics(FIXTURES / "short.csv", SYLLABUS, allow_partial=True, only=["saturation"])
    b = r.runs[0].blocks
    assert b.partial.tolist() == [False, False, False, True]
    assert b["count"].tolist() == [6, 2, 2, 3]
    partial_rows = r.rows[r.rows.partial]
    assert set(partial_rows.block.dropna()) == {3} and partial_rows.block.isna().any()
    assert any("partial" in w for w in r.warnings)


def test_long_log_names_first_extra_episode():
    with pytest.raises(MetricsError, match="21 episodes but the syllabus schedules 20") as info:
        compute_metrics(FIXTURES / "long.csv", SYLLABUS)
    assert info.value.row == 22


def test_task_mismatch_names_episode_block_and_both_values():
    with pytest.raises(MetricsError) as info:
        compute_metrics(FIXTURES / "wrong_task.csv", SYLLABUS)
    msg = info.value.message
    assert "episode 8 (block 2" in msg and "'Breakout'" in msg and "'Pong'" in msg
    assert info.value.row == 10


def test_plain_log_without_syllabus_is_refused():
    with pytest.raises(MetricsError, match="--syllabus"):
        compute_metrics(FIXTURES / "rewards.csv")


def test_workers_share_the_schedule(tmp_path):
    # two workers: each runs half of every block (engines give count//K, remainder first)
    from sylla.grammar.syllabus.parse import parse
    from sylla.grammar.syllabus.schedule import schedule

    model = parse(SYLLABUS.read_text()).model
    lines = ["worker,episode,reward"]
    for w in range(2):
        s = schedule(model, workers=2, worker=w)
        for b in s.blocks:
            for e in range(b.start, b.end):
                lines.append(f"{w},{e},{b.ordinal}")
    path = tmp_path / "workers.csv"
    path.write_text("\n".join(lines) + "\n")
    r = compute_metrics(path, SYLLABUS, only=["normalized_integral"])
    run = r.runs[0]
    assert run.blocks["count"].tolist() == [6, 2, 2, 6, 2, 2]
    for block, a, z in zip(run.blocks.block, run.blocks.start, run.blocks.stop):
        assert np.all(run.perf[a:z] == block)
