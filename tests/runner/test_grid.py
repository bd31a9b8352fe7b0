"""``sylla run --agent A --agent B --seeds ...``: one ordinary run per (agent, seed) under
OUT_DIR, through the sweep's executor, laid out so that ``sylla sweep OUT_DIR`` and ``sylla
compare`` read it with no extra flags, the agents as the groups and the seeds as replicates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sylla.runner.grid import folder

from .support import FIX, rows, sylla

SYLLABUS = FIX / "ant-minigrid.json"
AGENTS = ("random", "tabular-q")


def test_a_grid_is_read_by_sweep_and_compare_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "grid"
    proc = sylla("run", str(SYLLABUS), "--agent", AGENTS[0], "--agent", AGENTS[1], "--seeds", "0-1",
                 "-o", str(out), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    runs = sorted(p.parent for p in out.rglob("run.json"))
    assert len(runs) == 4
    for run in runs:
        meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
        assert meta["status"] == "complete"
        assert rows(run), run

    # a cell is the run `sylla run` makes alone with that agent and seed, row for row
    alone = tmp_path / "alone"
    single = sylla("run", str(SYLLABUS), "--agent", "tabular-q", "--seed", "1", "-o", str(alone))
    assert single.returncode == 0, single.stderr
    cell = [r for r in runs if json.loads((r / "run.json").read_text())["agent"] == "tabular-q"
            and json.loads((r / "run.json").read_text())["seed"] == 1]
    assert len(cell) == 1 and rows(cell[0]) == rows(alone)

    swept = tmp_path / "sweep"
    sweep = sylla("sweep", str(out), "-o", str(swept), "--format", "json", "--jobs", "1", "--no-progress")
    assert sweep.returncode == 0, sweep.stderr
    summary = json.loads(sweep.stdout)
    assert summary["groups"] == ["agent"] and summary["runs"] == 4
    assert {row["agent"] for row in summary["summary"]} == set(AGENTS)
    assert {row["n"] for row in summary["summary"] if row["metric"] == "train_perf"} == {2}

    compare = sylla("compare", str(swept), "--format", "json", "--reps", "200")
    assert compare.returncode == 0, compare.stderr
    for metric in json.loads(compare.stdout)["metrics"]:
        assert set(metric["runs"]) == set(AGENTS), metric["metric"]
        assert all(n == 2 for per_task in metric["runs"].values() for n in per_task.values())


def test_a_bad_agent_or_task_stops_the_grid_before_any_run(tmp_path: Path) -> None:
    out = tmp_path / "grid"
    proc = sylla("run", str(SYLLABUS), "--agent", "random", "--agent", "tabular-qq", "--seeds", "0-1", "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    assert 'unknown agent "tabular-qq" (did you mean "tabular-q"?)' in proc.stderr
    assert not out.exists()
    bad = FIX / "unknown-names.json"
    proc = sylla("run", str(bad), "--agent", "random", "--seeds", "0-1", "-o", str(out))
    assert proc.returncode == 2 and 'did you mean "$minigridkit:Minigrid6x6"' in proc.stderr, proc.stderr
    assert not out.exists()


def test_bad_seeds_are_usage_errors(tmp_path: Path) -> None:
    for seeds in ("4-2", "a", "0-", "1,,2"):
        proc = sylla("run", str(SYLLABUS), "--agent", "random", "--seeds", seeds, "-o", str(tmp_path / "g"))
        assert proc.returncode == 2, (seeds, proc.stderr)
        assert "--seeds" in proc.stderr and "Traceback" not in proc.stderr


def test_an_existing_cell_is_refused_and_the_others_still_run(tmp_path: Path) -> None:
    out = tmp_path / "grid"
    first = sylla("run", str(SYLLABUS), "--agent", "random", "--seeds", "0", "-o", str(out), "--jobs", "1")
    assert first.returncode == 0, first.stderr
    again = sylla("run", str(SYLLABUS), "--agent", "random", "--seeds", "0-1", "-o", str(out), "--jobs", "1")
    assert again.returncode == 2
    assert f"random seed 0: {out / 'random' / 'seed-0'}: exists; pass --resume" in again.stderr
    assert rows(out / "random" / "seed-1")


def test_an_agent_that_cannot_be_made_is_named_and_the_other_runs_finish(tmp_path: Path) -> None:
    broken = "sylla_runner_fixtures.agents:BrokenInit"
    single = sylla("run", str(SYLLABUS), "--agent", broken, "-o", str(tmp_path / "one"))
    assert single.returncode == 2 and "Traceback" not in single.stderr, single.stderr
    assert f'agent "{broken}" could not be made: RuntimeError: no GPU found' in single.stderr
    out = tmp_path / "grid"
    proc = sylla("run", str(SYLLABUS), "--agent", "random", "--agent", broken, "--seeds", "0", "-o", str(out),
                 "--jobs", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{broken} seed 0: agent" in proc.stderr and "no GPU found" in proc.stderr
    assert rows(out / "random" / "seed-0")


def test_a_dead_worker_fails_only_its_cells_and_finished_ones_keep_their_outcome(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell writes files, so it never runs twice: the worker that dies fails its own cell
    (kept for --resume), and the cell that finished on the other worker is reported as written,
    not recomputed here (it used to be, and then refused as "exists")."""
    out = tmp_path / "grid"
    dies = "sylla_runner_fixtures.agents:DiesAfter"
    monkeypatch.setenv("SYLLA_FIXTURE_DIE_AFTER", str(out / "random" / "seed-0" / "run.json"))
    proc = sylla("run", str(SYLLABUS), "--agent", "random", "--agent", dies, "--seeds", "0", "-o", str(out),
                 "--jobs", "2")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "exists" not in proc.stderr, proc.stderr
    assert f"wrote {out / 'random' / 'seed-0'} (" in proc.stderr and ", complete)" in proc.stderr
    assert f"{dies} seed 0: a worker process died" in proc.stderr and "--resume" in proc.stderr
    assert json.loads((out / "random" / "seed-0" / "run.json").read_text())["status"] == "complete"
    assert (out / folder(dies) / "seed-0" / "run.json").is_file()
