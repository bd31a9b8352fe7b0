"""One l2logger data file given on its own (issue 38).

l2logger's examples ship one ``data-log.tsv`` without its log folder
(tests/fixtures/metrics/l2logger_lone/example_data_log.tsv, copied unchanged). Given to
``sylla metrics``, it was read as a plain log and refused for "no task and block_type columns",
which it has under l2logger's names. A file whose header holds l2logger's columns is an l2logger
data file: read as the whole-log reader reads one, when it can be read correctly (its
experiences start the log's count), and refused with the true reason and a hint when it is a
later block of a log whose earlier blocks are elsewhere.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

from sylla.metrics.readers import detect

from .conftest import FIXTURES

LONE = FIXTURES / "l2logger_lone" / "example_data_log.tsv"
LOG = FIXTURES / "simulated_two_tasks_l2logger"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    assert SYLLA is not None
    return subprocess.run([SYLLA, "metrics", *args], capture_output=True, text=True, timeout=120)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_the_example_file_is_read_as_the_block_it_holds():
    done = sylla(str(LONE), "-f", "json")
    assert done.returncode == 0, done.stderr
    rows = _rows(LONE)
    (block,) = json.loads(done.stdout)["blocks"]
    assert (block["task"], block["kind"], block["episodes"]) == (
        rows[0]["task_name"], rows[0]["block_type"], len({r["exp_num"] for r in rows}))
    assert detect(LONE) == "l2logger"


def test_a_later_block_file_alone_is_refused_with_the_true_reason(tmp_path):
    log = Path(shutil.copytree(LOG, tmp_path / LOG.name))
    file = log / "worker-default" / "3-train" / "data-log.tsv"
    first = min(int(r["exp_num"]) for r in _rows(file))
    done = sylla(str(file))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"experiences start at exp_num {first}" in done.stderr
    assert f"its log's folder: {log.resolve()}" in done.stderr
    assert "--allow-partial to compute this file alone" in done.stderr
    alone = sylla(str(file), "--allow-partial", "-f", "json")
    assert alone.returncode == 0, alone.stderr
    doc = json.loads(alone.stdout)
    assert [b["episodes"] for b in doc["blocks"]] == [len(_rows(file))]
    assert any("the metrics are of this file alone" in w for w in doc["warnings"])


def test_read_as_a_plain_log_it_is_refused_with_a_hint():
    done = sylla(str(LONE), "--log-format", "tsv")
    assert done.returncode == 1
    assert "this file has the columns of an l2logger data file" in done.stderr
    assert "--log-format l2logger" in done.stderr
