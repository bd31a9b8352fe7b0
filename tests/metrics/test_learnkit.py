"""learnkit-era logs in the two shapes learnkit wrote (September and February 2020).

The fixtures (tests/fixtures/metrics/make_fixtures.py) copy the folder names, file names and
column lists of l2metrics' own 2020 examples: ``worker-env-0/<block>-<phase>_<type>/<task>/``
with ``block-report.tsv`` and ``data-log.tsv``; in February 2020 two workers share one queue and
the ``task`` column is the episode counter.
"""

from __future__ import annotations

import shutil

import pytest

from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import read_log

from .conftest import FIXTURES, REWARDS

SHAPES = ["learnkit_sep2020", "learnkit_feb2020"]


def run_dir(name: str):
    return next((FIXTURES / name).iterdir())


@pytest.mark.parametrize("name", SHAPES)
def test_reads_tasks_phases_and_episodes(name):
    log = read_log(run_dir(name))
    f = log.frame
    assert f.episode.tolist() == list(range(20))
    # the last episode of each block has two sub-task rows averaged back to its reward
    assert f.perf.tolist() == [float(r) for r in REWARDS]
    assert f.task.unique().tolist() == ["gymkit_gymkit_pong", "gymkit_gymkit_breakout"]
    assert f.phase.tolist()[:10] == ["1.train"] * 6 + ["1.test"] * 4


@pytest.mark.parametrize("name", SHAPES)
def test_without_syllabus_blocks_come_from_the_log(name):
    r = compute_metrics(run_dir(name), only=["saturation"])
    b = r.runs[0].blocks
    assert b.task.tolist() == ["gymkit_gymkit_pong", "gymkit_gymkit_pong",
                               "gymkit_gymkit_breakout", "gymkit_gymkit_breakout",
                               "gymkit_gymkit_pong", "gymkit_gymkit_breakout"]
    assert b.phase.tolist() == ["1.train", "1.test", "1.test", "2.train", "2.test", "2.test"]
    assert b["count"].tolist() == [6, 2, 2, 6, 2, 2]


@pytest.mark.parametrize("name", SHAPES)
def test_with_the_syllabus_beside_the_log(name):
    d = run_dir(name)
    r = compute_metrics(d, d / "syllabus.json", only=["saturation"])
    b = r.runs[0].blocks
    assert b.task.tolist() == ["Pong", "Pong", "Breakout", "Breakout", "Pong", "Breakout"]
    assert b["count"].tolist() == [6, 2, 2, 6, 2, 2]


def test_february_task_column_is_not_a_task(tmp_path):
    """The February ``task`` column counts episodes; reading it as task names would give one
    task per episode. It must give two tasks (checked above) and refuse a non-counter."""
    d = tmp_path / "run"
    shutil.copytree(run_dir("learnkit_feb2020"), d)
    f = d / "worker-env-0" / "1-1_train" / "gymkit_gymkit_pong" / "data-log.tsv"
    lines = f.read_text().splitlines()
    cells = lines[2].split("\t")
    cells[6] = "Pong"
    lines[2] = "\t".join(cells)
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(MetricsError) as info:
        read_log(d)
    assert info.value.file == str(f) and info.value.row == 3
    assert "'task'" in info.value.message and "'Pong'" in info.value.message


@pytest.mark.parametrize("name, column", [("learnkit_sep2020", "phase"),
                                          ("learnkit_feb2020", "regime_num"),
                                          ("learnkit_sep2020", "episode")])
def test_uninterpretable_column_is_named(tmp_path, name, column):
    d = tmp_path / "run"
    shutil.copytree(run_dir(name), d)
    f = next(d.glob("worker-env-0/*_train/*/data-log.tsv"))
    lines = f.read_text().splitlines()
    lines = [lines[0] + f"\t{column}"] + [line + "\t1" for line in lines[1:]]
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(MetricsError, match=f"column\\(s\\) {column} cannot be interpreted"):
        read_log(d)


def test_folder_and_data_disagree(tmp_path):
    d = tmp_path / "run"
    shutil.copytree(run_dir("learnkit_sep2020"), d)
    f = d / "worker-env-0" / "2-2_train" / "gymkit_gymkit_breakout" / "data-log.tsv"
    text = f.read_text().splitlines()
    text[1] = "7" + text[1][1:]
    f.write_text("\n".join(text) + "\n")
    with pytest.raises(MetricsError, match="block_num is 7 inside folder 2-2_train") as info:
        read_log(d)
    assert info.value.row == 2


def test_episode_logged_by_two_workers(tmp_path):
    d = tmp_path / "run"
    shutil.copytree(run_dir("learnkit_feb2020"), d)
    src = d / "worker-env-0" / "1-1_train" / "gymkit_gymkit_pong" / "data-log.tsv"
    dst = d / "worker-env-1" / "1-1_train" / "gymkit_gymkit_pong" / "data-log.tsv"
    dst.write_text(dst.read_text() + src.read_text().splitlines()[1] + "\n")
    with pytest.raises(MetricsError, match="episode 0 is logged by more than one worker"):
        read_log(d)


def test_missing_episode(tmp_path):
    d = tmp_path / "run"
    shutil.copytree(run_dir("learnkit_sep2020"), d)
    f = d / "worker-env-0" / "2-2_train" / "gymkit_gymkit_breakout" / "data-log.tsv"
    lines = f.read_text().splitlines()
    f.write_text("\n".join(lines[:3] + lines[4:]) + "\n")  # drop exp_num 12
    with pytest.raises(MetricsError, match=r"episode 12 is missing .* from episode 11 to 13"):
        read_log(d)
    log = read_log(d, allow_partial=True)
    assert len(log.frame) == 19 and any("episode 12 is missing" in w for w in log.warnings)
