"""Group names of ``sylla sweep`` over l2logger runs: a ``scenario_info.json`` key with the same
value in every run is left out, so the README's ``sylla compare ... --normalize steady`` finds
the group ``steady`` (issue 38: it was ``steady/sylla tests/1-low/2-medium/custom`` and the
compare was refused). Keys that differ between runs stay.

The runs are written by l2logger's own DataLogger (tests/fixtures/metrics/sweep/
make_l2logger_agents.py); the sweep and the compare run as the ``sylla`` process a user starts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sylla.metrics.sweep import discover

from .conftest import FIXTURES

pytestmark = pytest.mark.slow  # two sweeps and two compares, each its own process

SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")
AGENTS = FIXTURES / "sweep" / "l2logger_agents"
PATTERN = "{agent}/seed{seed}/*"
SCENARIO_KEYS = {"author", "complexity", "difficulty", "scenario_type"}


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    assert SYLLA is not None, "the editable install provides the sylla console script"
    return subprocess.run([SYLLA, *args], capture_output=True, text=True, timeout=300)


def sweep(root: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return sylla("sweep", str(root), "--group-by", PATTERN, "--out", str(out), "--jobs", "1",
                 "-m", "avg_perf", "--no-progress", *extra)


def _scenario(run_parent: Path) -> Path:
    (info,) = run_parent.glob("*/scenario_info.json")
    return info


def test_the_readme_compare_runs_on_a_sweep_of_l2logger_runs(tmp_path: Path) -> None:
    # the fixture really has the same scenario keys in every run, as l2logger wrote them
    infos = [json.loads(p.read_text()) for p in AGENTS.rglob("scenario_info.json")]
    assert len(infos) == 6 and set(infos[0]) == SCENARIO_KEYS
    assert all(info == infos[0] for info in infos)

    done = sweep(AGENTS, tmp_path / "sweep")
    assert done.returncode == 0, done.stderr
    rows = pd.read_parquet(tmp_path / "sweep" / "rows")
    assert not SCENARIO_KEYS & set(rows.columns)
    assert {"agent", "seed"} <= set(rows.columns)

    compared = sylla("compare", str(tmp_path / "sweep"), "-m", "avg_eval_perf", "--normalize",
                     "steady", "--reps", "1000", "--seed", "1")
    assert compared.returncode == 0, compared.stderr
    assert "normalize steady" in compared.stdout
    assert "forgetful: 3 run(s) on each of 2 task(s)" in compared.stdout


def test_a_scenario_key_that_differs_between_runs_stays_in_the_group_name(
        tmp_path: Path) -> None:
    root = tmp_path / "agents"
    shutil.copytree(AGENTS, root)
    for seed in (1, 2, 3):  # the forgetful agent's runs, on a harder scenario
        info = _scenario(root / "forgetful" / f"seed{seed}")
        data = json.loads(info.read_text())
        data["difficulty"] = "3-high"
        info.write_text(json.dumps(data, indent=2))

    done = sweep(root, tmp_path / "sweep")
    assert done.returncode == 0, done.stderr
    rows = pd.read_parquet(tmp_path / "sweep" / "rows")
    assert "difficulty" in rows.columns
    assert not (SCENARIO_KEYS - {"difficulty"}) & set(rows.columns)
    compared = sylla("compare", str(tmp_path / "sweep"), "-m", "avg_eval_perf", "--normalize",
                     "steady/2-medium", "--reps", "1000", "--seed", "1")
    assert compared.returncode == 0, compared.stderr
    assert "forgetful/3-high: 3 run(s)" in compared.stdout


def test_a_key_some_runs_lack_stays() -> None:
    """The mixed tree: only its l2logger runs have scenario keys, so they tell runs apart."""
    found = discover(FIXTURES / "sweep" / "mixed")
    l2logger = dict(next(r for r in found.runs if r.id == "l2logger").groups)
    assert l2logger == {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom"}
    assert found.constant == {}


def test_a_group_by_key_stays_even_when_constant(tmp_path: Path) -> None:
    root = tmp_path / "agents"
    shutil.copytree(AGENTS / "steady", root / "steady")
    found = discover(root, PATTERN)
    assert found.keys == ["agent", "seed"]
    assert {dict(r.groups)["agent"] for r in found.runs} == {"steady"}
    assert found.constant == {k: json.loads(_scenario(root / "steady" / "seed1").read_text())[k]
                              for k in SCENARIO_KEYS}


def test_compare_on_a_constant_key_says_why(tmp_path: Path) -> None:
    done = sweep(AGENTS, tmp_path / "sweep", "--compare", "complexity")
    assert done.returncode == 2
    assert ("--compare complexity: every run has complexity = '1-low', so it is no group key "
            "(keys: agent, seed)") in done.stderr
