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


REAL = FIXTURES / "learnkit_sep2020_real" / "syllabus_ANT_multiple_tasks-1600709972-1635876"


def _statuses(run) -> list[tuple[str, int, str, int]]:
    """(file, row, status, exp_num) of every row of the real run, read with the csv module."""
    import csv

    out = []
    for path in sorted(run.glob("worker-env-*/*/*/data-log.tsv")):
        with open(path, newline="") as handle:
            for i, rec in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
                out.append((str(path), i, rec["status"], int(rec["exp_num"])))
    return out


def test_real_september_2020_run_reads_its_not_done_episodes():
    """l2metrics' own example run of September 2020 (commit fab1475) has episodes cut at the
    step limit (NOT_DONE); they are read as ordinary episodes, with a note that counts them."""
    rows = _statuses(REAL)
    cut = [r for r in rows if r[2] == "NOT_DONE"]
    assert cut, "the fixture must hold NOT_DONE episodes"
    log = read_log(REAL)
    assert sorted(log.frame.episode.tolist()) == sorted({r[3] for r in rows})  # none dropped
    assert {r[3] for r in cut} <= set(log.frame.episode.tolist())
    notes = [w for w in log.warnings if "NOT_DONE" in w]
    assert len(notes) == 1 and f"{len(cut)} episode(s)" in notes[0]
    first = min(cut, key=lambda r: (r[0], r[1]))
    assert f"{first[0]}:{first[1]}" in notes[0] or "data-log.tsv:" in notes[0]


def test_real_september_2020_run_with_its_syllabus():
    syllabus = REAL / "syllabus_ANT_multiple_tasks.json"
    r = compute_metrics(REAL, syllabus, only=["avg_perf"])
    assert any("NOT_DONE" in w for w in r.warnings)
    assert r.lifetime()["avg_train_perf"] is not None


def test_a_status_other_than_done_or_not_done_is_an_error(tmp_path):
    d = tmp_path / REAL.name
    shutil.copytree(REAL, d)
    path = sorted(d.glob("worker-env-*/*/*/data-log.tsv"))[0]
    lines = path.read_text().splitlines(keepends=True)
    lines[3] = lines[3].replace("\tDONE\t", "\tCRASHED\t", 1)
    path.write_text("".join(lines))
    with pytest.raises(MetricsError, match=r"must be DONE or NOT_DONE, got 'CRASHED'") as info:
        read_log(d)
    assert str(path) in str(info.value) and ":4" in str(info.value)


ONE_WORKER = FIXTURES / "learnkit_feb2020_one_worker" / "two_tasks-1582671493-285338"


def _worker_episodes(run) -> dict[str, list[int]]:
    """Each block folder's episode counters (the ``task`` column), read with the csv module."""
    import csv

    out: dict[str, list[int]] = {}
    for path in sorted(run.glob("worker-env-*/*/*/data-log.tsv")):
        with open(path, newline="") as handle:
            numbers = {int(rec["task"]) for rec in csv.DictReader(handle, delimiter="\t")}
        out[f"{path.parent.parent.name}/{path.parent.name}"] = sorted(numbers)
    return out


def test_a_february_run_holding_one_of_its_two_workers_says_how_to_compute_it():
    """Issue 38: a February 2020 run copied without its second worker's folder could not be
    computed with --syllabus (--allow-partial did not help) and no hint was given. Refused, the
    message counts the missing episodes, names the worker folders present and says how."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", str(ONE_WORKER),
                           "--syllabus", str(ONE_WORKER / "syllabus.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "episode 1 is missing from every worker" in done.stderr
    assert "the log holds 1 worker folder(s) (worker-env-0)" in done.stderr
    assert "use --allow-partial" in done.stderr


def test_with_allow_partial_each_episode_goes_to_the_block_its_number_names():
    """--allow-partial computes it: every episode present goes to the block its global counter
    falls in, and each block that misses episodes is marked partial."""
    r = compute_metrics(ONE_WORKER, ONE_WORKER / "syllabus.json", allow_partial=True,
                        only=["saturation"])
    b = r.runs[0].blocks
    from sylla.grammar.syllabus.schedule import schedule
    from sylla.metrics.syllabus import load_syllabus

    sched = schedule(load_syllabus(ONE_WORKER / "syllabus.json"))
    present = [n for numbers in _worker_episodes(ONE_WORKER).values() for n in numbers]
    expected = [sum(bl.start <= n < bl.end for n in present) for bl in sched.blocks]
    assert b["count"].tolist() == expected
    assert b.task.tolist() == [bl.task for bl in sched.blocks]
    assert b["partial"].tolist() == [c < bl.count for c, bl in zip(expected, sched.blocks)]
    assert any("episodes are missing from the log" in w for w in r.warnings)
    assert any("each episode is placed by its number" in w for w in r.warnings)
