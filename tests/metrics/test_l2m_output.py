"""``sylla metrics --format l2metrics`` writes the files l2metrics 3.1.0 published for its example.

The fixture is l2metrics' own example folder with the two files its CLI wrote
(`tests/fixtures/metrics/l2metrics_example/README.md`). Every key must be there in l2metrics'
order and nesting, every number equal (to 1e-12: the last digit of a sum may differ), strings
and integers identical, and the lifetime part rounded as l2metrics rounds it. The one key whose
order is not compared is ``normalization_data_range``: l2metrics fills it from a ``set`` of task
names, so its order changes from one l2metrics run to the next.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from sylla.cli import main
from sylla.metrics import compute_metrics

EXAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "metrics" / "l2metrics_example"
LOG = EXAMPLE / "ll_logs" / "multi_task"
STE = EXAMPLE / "ste_logs"


def _same(mine: object, theirs: object, where: str = "", ordered: bool = True) -> None:
    if isinstance(theirs, dict):
        assert isinstance(mine, dict), where
        if ordered:
            assert list(mine) == list(theirs), (where, list(mine), list(theirs))
        else:
            assert sorted(mine) == sorted(theirs), where
        for key in theirs:
            _same(mine[key], theirs[key], f"{where}/{key}",
                  ordered=key != "normalization_data_range")
    elif isinstance(theirs, list):
        assert isinstance(mine, list) and len(mine) == len(theirs), (where, mine, theirs)
        for i, (a, b) in enumerate(zip(mine, theirs)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, float):
        assert isinstance(mine, (int, float)) and not isinstance(mine, bool), (where, mine)
        assert math.isclose(mine, theirs, rel_tol=1e-12, abs_tol=1e-12), (where, mine, theirs)
    else:
        assert type(mine) is type(theirs) and mine == theirs, (where, mine, theirs)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("l2m")
    code = main(["metrics", "--no-progress", "-l", str(LOG), "--ste", str(STE), "--perf",
                 "performance", "--format", "l2metrics", "--out", str(out)])
    assert code == 0
    return out


def test_metrics_json_matches_the_published_file_key_for_key(written: Path) -> None:
    mine = json.loads((written / "multi_task_metrics.json").read_text())
    theirs = json.loads((EXAMPLE / "results" / "multi_task_metrics.json").read_text())
    _same(mine, theirs)


def test_lifetime_values_are_rounded_as_l2metrics_rounds_them(written: Path) -> None:
    mine = json.loads((written / "multi_task_metrics.json").read_text())
    theirs = json.loads((EXAMPLE / "results" / "multi_task_metrics.json").read_text())
    for key in ("avg_train_perf", "perf_maintenance_mrlep", "ste_rel_perf", "runtime"):
        assert mine[key] == theirs[key], key  # exactly: to_json keeps 10 decimals


def test_regime_table_matches_the_published_file(written: Path) -> None:
    def rows(path: Path) -> list[list[str]]:
        with path.open(newline="") as handle:
            return list(csv.reader(handle, delimiter="\t"))

    mine = rows(written / "multi_task_regime.tsv")
    theirs = rows(EXAMPLE / "results" / "multi_task_regime.tsv")
    assert mine[0] == theirs[0]
    assert len(mine) == len(theirs)
    numeric = {"saturation", "term_perf", "avg_perf"}
    for r, (a, b) in enumerate(zip(mine[1:], theirs[1:])):
        for column, x, y in zip(theirs[0], a, b):
            if column in numeric:
                assert math.isclose(float(x), float(y), rel_tol=1e-12), (r, column, x, y)
            else:  # block numbers, names, truncated parameters, integer counts: text-identical
                assert x == y, (r, column, x, y)


def test_name_sets_the_files_base_name_and_a_learnkit_log_is_refused(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]
                                                                 ) -> None:
    assert main(["metrics", "--no-progress", "-l", str(LOG), "--perf", "performance",
                 "--format", "l2metrics", "--name", "my run", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_run_metrics.json",
                                                          "my_run_regime.tsv"]
    capsys.readouterr()
    other = (Path(__file__).resolve().parents[1] / "fixtures" / "metrics" / "learnkit_sep2020"
             / "two_tasks-1600830032-0285285")
    assert main(["metrics", "--no-progress", "-l", str(other), "--format", "l2metrics",
                 "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "l2logger" in err and "Traceback" not in err


@pytest.mark.parametrize("syllabus", ["two_tasks.json", "two_tasks_split.json"])
def test_with_a_syllabus_the_files_hold_the_logs_own_regimes(tmp_path: Path,
                                                             syllabus: str) -> None:
    """l2metrics reads no syllabus: its regimes are the log's. A syllabus that splits the
    first training into two blocks has a block more than the log has regimes (it was refused
    with exit 2); the files are the same as without the syllabus, which still checks the log."""
    fixtures = EXAMPLE.parent
    log, path = fixtures / "l2logger_v11", fixtures / syllabus
    common = ["metrics", "--no-progress", "-l", str(log), "--format", "l2metrics"]
    assert main([*common, "--out", str(tmp_path / "plain")]) == 0
    assert main([*common, "--syllabus", str(path), "--out", str(tmp_path / "checked")]) == 0
    for name in ("l2logger_v11_metrics.json", "l2logger_v11_regime.tsv"):
        assert (tmp_path / "checked" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()
    regimes = len((tmp_path / "plain" / "l2logger_v11_regime.tsv").read_text().splitlines()) - 1
    blocks = len(compute_metrics(log, path, only=["avg_perf"]).runs[0].blocks)
    assert (blocks > regimes) == (syllabus == "two_tasks_split.json")
