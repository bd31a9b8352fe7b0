"""The command: outputs in every format, plots, --list, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from sylla.cli import main

from .conftest import FIXTURES, SYLLABUS

BASE = ["metrics", "--syllabus", str(SYLLABUS), "--log", str(FIXTURES / "rewards.csv")]


def test_json_shape(capsys):
    assert main(BASE + ["--format", "json", "-P", "s=0.5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"lifetime", "tasks", "blocks", "warnings"}
    assert data["tasks"]["Pong"]["saturation_value"] == 5
    assert data["blocks"][0]["metrics"]["saturation_value"] == 5
    assert data["blocks"][0]["task"] == "Pong" and data["blocks"][0]["phase"] == "1.train"
    assert data["lifetime"]["gem_acc"] == 5.5


def test_csv_and_parquet_tidy_rows(tmp_path, capsys):
    assert main(BASE + ["--format", "csv"]) == 0
    from io import StringIO

    frame = pd.read_csv(StringIO(capsys.readouterr().out))
    assert list(frame.columns) == ["run", "task", "block", "phase", "metric", "value"]
    assert main(BASE + ["--format", "parquet", "--out", str(tmp_path)]) == 0
    pq = pd.read_parquet(tmp_path / "metrics.parquet")
    assert len(pq) == len(frame)
    sel = pq[(pq.metric == "saturation_value") & (pq.block == 0)]
    assert sel.value.tolist() == [6.0]


def test_text_tables(capsys):
    assert main(BASE) == 0
    out = capsys.readouterr().out
    assert "Lifetime metrics" in out and "Per-task metrics" in out and "Pong" in out


def test_plots_written(tmp_path, capsys):
    assert main(BASE + ["--format", "json", "--out", str(tmp_path), "--plots"]) == 0
    pngs = sorted(p.name for p in (tmp_path / "plots").glob("*.png"))
    assert any("Pong_learning" in p for p in pngs) and any("transfer_matrix" in p for p in pngs)
    assert all((tmp_path / "plots" / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_list_shows_parameters(capsys):
    assert main(["metrics", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("saturation", "perf_recovery", "gem", "-P s=0.1", "-P aggregation=mean",
                 "normalization=task"):
        assert name in out


@pytest.mark.parametrize("args, code, words", [
    (["--log", str(FIXTURES / "nan.csv"), "--syllabus", str(SYLLABUS)], 1, "nan.csv:4: reward"),
    (["--log", str(FIXTURES / "missing.csv"), "--syllabus", str(SYLLABUS)], 2, "no such file"),
    (["--log", str(FIXTURES / "rewards.csv"), "--syllabus", str(SYLLABUS), "-P", "bogus=1"], 2,
     "unknown metric parameter 'bogus'"),
    (["--log", str(FIXTURES / "rewards.csv"), "--syllabus", str(FIXTURES / "rewards.csv")], 1,
     "rewards.csv:1:"),
])
def test_errors_are_one_line(capsys, args, code, words):
    assert main(["metrics", *args]) == code
    err = capsys.readouterr().err
    assert err.startswith("sylla: ") and words in err and "Traceback" not in err


def test_command_module_imports_no_heavy_libraries():
    code = ("import sys, sylla.cli; sylla.cli.build_parser(); "
            "print(sorted(m for m in ('numpy', 'pandas', 'matplotlib', 'pyarrow') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_broken_syllabus_is_named_with_line_and_column(tmp_path) -> None:
    import subprocess
    import sys

    syllabus = tmp_path / "broken.json"
    syllabus.write_text('{"instructions": [\n  {"$phase": "1.train"}\n  {"$episode": "Pong"}\n]}\n')
    log = tmp_path / "log.csv"
    log.write_text("episode,reward\n0,1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "sylla", "metrics", "--syllabus", str(syllabus), "--log", str(log)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        f"sylla: {syllabus}:3:3: expected ',' or ']' after an instruction, found '{{' (see `sylla lint {syllabus}`)"
    )
