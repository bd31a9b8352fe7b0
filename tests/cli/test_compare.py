"""``sylla compare`` as a user runs it, on a real sweep's rows: what it states, what it writes,
equal seeds giving equal bytes, and bad input as a message, never a traceback."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from sylla.cli import main

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "tests" / "fixtures" / "compare" / "sweep"
GAPS = ROOT / "tests" / "fixtures" / "compare" / "gaps"


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def sylla(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    """``sylla compare ARGS`` through the entry point, in this process (a process per call
    would pay numpy's and pandas' import each time); one test runs the real executable."""

    def call(*args: str) -> Done:
        try:
            code = main(["compare", *args])
        except SystemExit as exc:  # argparse's own refusal of an option, exit 2 as in the shell
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return Done(code, out, err)

    return call


def test_the_executable_runs_it() -> None:
    p = subprocess.run([sys.executable, "-m", "sylla", "compare", str(SWEEP), "-m", "gem_acc",
                        "--reps", "100"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "## gem_acc" in p.stdout, p.stderr


def test_text_states_runs_reps_seed_and_method(sylla: Callable[..., Done]) -> None:
    p = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "2000", "--seed", "5", "--normalize", "steady")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "2000 reps, seed 5, normalize steady" in out
    assert "stratified bootstrap (runs resampled within each task)" in out
    assert "forgetful: 3 run(s) on each of 2 task(s)" in out
    assert "steady > forgetful: 1 [1, 1]" in out
    assert "missing values: 0" in out


def test_equal_seeds_give_equal_bytes(sylla: Callable[..., Done], tmp_path: Path) -> None:
    a = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "3000", "--seed", "9", "-f", "json")
    b = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "3000", "--seed", "9", "-f", "json")
    c = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "3000", "--seed", "10", "-f", "json")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout and a.stdout != c.stdout


def test_json_document_and_missing_values_named(sylla: Callable[..., Done]) -> None:
    p = sylla(str(GAPS), "-m", "avg_eval_perf", "-m", "saturation_value", "--reps", "1000", "-f", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["reps"] == 1000 and doc["seed"] == 0 and "percentile" in doc["ci_method"]
    ev, sat = doc["metrics"]
    assert ev["runs"]["steady"] == {"Breakout": 2, "Pong": 3}
    assert {(m["group"], m["task"], m["reason"]) for m in ev["missing"]} == {
        ("forgetful", "Pong", "not finite"), ("steady", "Breakout", "no row")}
    assert sat["dropped_tasks"] == ["Breakout"] and sat["tasks"] == ["Pong"]
    assert {a["stat"] for a in ev["aggregates"]} == {"iqm", "median", "mean", "optimality_gap"}
    assert len(ev["probability_of_improvement"]) == 2
    assert "5 missing value(s)" in p.stderr


def test_csv_rows_stand_alone(sylla: Callable[..., Done]) -> None:
    p = sylla(str(SWEEP), "-m", "gem_acc", "--reps", "500", "-f", "csv")
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(rows) == 2 * 4 + 2
    assert {r["reps"] for r in rows} == {"500"} and {r["seed"] for r in rows} == {"0"}
    assert rows[0]["runs"] == "(lifetime)=3"


def test_out_writes_the_three_renderings_and_the_plots(sylla: Callable[..., Done], tmp_path: Path) -> None:
    p = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "500", "-o", str(tmp_path / "c"))
    assert p.returncode == 0, p.stderr
    names = sorted(f.relative_to(tmp_path / "c").as_posix() for f in (tmp_path / "c").rglob("*") if f.is_file())
    assert names == ["compare.csv", "compare.json", "compare.txt", "plots/avg_eval_perf-aggregates.png",
                     "plots/avg_eval_perf-profile.png"]
    assert (tmp_path / "c" / "plots" / "avg_eval_perf-profile.png").read_bytes()[:4] == b"\x89PNG"


def test_bca_intervals_when_asked(sylla: Callable[..., Done]) -> None:
    p = sylla(str(SWEEP), "-m", "avg_eval_perf", "--reps", "1000", "--bca", "-f", "json",
              "--normalize", "steady")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert "BCa" in doc["ci_method"]
    assert all("bca_low" in a for a in doc["metrics"][0]["aggregates"])


@pytest.mark.parametrize("args, message", [
    (["/nonexistent/sweep"], "no such sweep output"),
    ([str(ROOT / "examples")], "not a sweep output"),
    ([str(SWEEP), "-m", "avg_perf"], "--metric avg_perf: no run-level rows"),
    ([str(SWEEP), "--normalize", "nobody"], "--normalize nobody: not a group"),
    ([str(SWEEP), "--normalize", "ste"], "--normalize ste needs the single-task-expert runs"),
    ([str(SWEEP), "--reps", "0"], "argument --reps: wants a whole number from 1 to 10,000,000, not 0"),
])
def test_bad_input_is_a_message_not_a_traceback(sylla: Callable[..., Done], args: list[str], message: str) -> None:
    p = sylla(*args)
    assert p.returncode == 2
    assert message in p.stderr and "Traceback" not in p.stderr
