"""A path given to the wrong command is answered in one line naming the right command
(sylla.commands.hints), and ``sylla metrics`` takes its log as LOG as well as --log/-l."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sylla.cli import main

METRICS = Path(__file__).resolve().parents[1] / "fixtures" / "metrics"
SYLLABUS = METRICS / "two_tasks.json"
LOG = METRICS / "rewards.csv"


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("spelling", [[str(LOG)], ["--log", str(LOG)], ["-l", str(LOG)]])
def test_metrics_log_as_positional_or_option(spelling: list[str], capsys) -> None:
    assert main(["metrics", "--syllabus", str(SYLLABUS), "-f", "json", "-P", "s=0.5", *spelling]) == 0
    assert json.loads(capsys.readouterr().out)["tasks"]["Pong"]["saturation_value"] == 5


def test_metrics_log_given_twice_differently(capsys) -> None:
    assert main(["metrics", str(LOG), "--log", str(METRICS / "short.csv")]) == 2
    assert "given twice" in _one_line(capsys.readouterr().err)


def test_metrics_on_a_syllabus_says_so(capsys) -> None:
    assert main(["metrics", str(SYLLABUS)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "is a syllabus, not a log" in line and f"--syllabus {SYLLABUS}" in line


def test_metrics_on_a_folder_of_runs_points_to_sweep(capsys) -> None:
    root = METRICS / "sweep" / "agents"
    assert main(["metrics", str(root)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == f"sylla: {root} holds 6 runs, not one log; sylla sweep {root} computes the metrics of every run in it"


def test_metrics_on_a_folder_of_one_run_names_it(tmp_path: Path, capsys) -> None:
    shutil.copytree(METRICS / "l2logger_v11", tmp_path / "only")
    assert main(["metrics", "--log", str(tmp_path)]) == 2
    assert f"try sylla metrics {tmp_path / 'only'}" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("log", [METRICS / "l2logger_v11", METRICS / "l2logger_v10", LOG])
def test_lint_on_a_log_says_try_metrics(log: Path, capsys) -> None:
    assert main(["lint", str(log)]) == 2
    err = capsys.readouterr().err
    assert _one_line(err) == f"sylla: {log} is a log; try sylla metrics {log}"


def test_lint_on_a_log_beside_a_syllabus_lints_the_syllabus(capsys) -> None:
    assert main(["lint", str(METRICS / "l2logger_v11"), str(SYLLABUS)]) in (0, 1)
    captured = capsys.readouterr()
    assert "is a log; try sylla metrics" in captured.err and "no syllabi found" not in captured.err


def test_lint_on_an_empty_folder_keeps_the_general_warning(tmp_path: Path, capsys) -> None:
    assert main(["lint", str(tmp_path)]) == 0
    assert "no syllabi found" in capsys.readouterr().err
