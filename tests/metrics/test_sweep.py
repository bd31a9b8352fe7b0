"""``sylla sweep``: discovery, per-run rows, the content-keyed cache, failures and summaries,
on real run directories (tests/fixtures/metrics/sweep, see make_sweep.py there)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap

import sylla
from sylla.cli import main
from sylla.metrics import compute_metrics
from sylla.metrics.errors import MetricsError
from sylla.metrics.sweep import discover, sweep
from sylla.metrics.sweep.aggregate import RESAMPLES, SEED

from .conftest import FIXTURES

pytestmark = pytest.mark.slow

SWEEP = FIXTURES / "sweep"
PATTERN = "{agent}/seed{seed}/{name}"
FAST = ["avg_perf", "gem"]  # two plugins keep the tests quick; the full set is the same code


@pytest.fixture
def agents(tmp_path: Path) -> Path:
    """A writable copy of the six-run tree (tests change files in it)."""
    root = tmp_path / "agents"
    shutil.copytree(SWEEP / "agents", root)
    return root


def test_discovery_finds_every_format_and_its_syllabus() -> None:
    found = discover(SWEEP / "mixed")
    formats = {r.id: (r.format, Path(r.syllabus).name if r.syllabus else None) for r in found.runs}
    assert formats == {"broken": ("l2logger", None), "l2logger": ("l2logger", None),
                       "learnkit": ("learnkit", "syllabus.json"),  # the real Sep-2020 shape keeps it beside the log
                       "plain/rewards.csv": ("csv", "two_tasks.json")}
    # the syllabus beside the log is not itself taken for a log
    assert not any(r.id.endswith(".json") for r in found.runs)
    meta = dict(next(r for r in found.runs if r.id == "l2logger").groups)
    assert meta == {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom"}


def test_group_by_names_the_folder_levels() -> None:
    found = discover(SWEEP / "agents", PATTERN)
    assert found.keys[:3] == ["agent", "seed", "name"]
    groups = [dict(r.groups) for r in found.runs]
    assert [(g["agent"], g["seed"], g["name"]) for g in groups] == [
        (a, s, "run_ll") for a in ("agentA", "agentB") for s in ("0", "1", "2")]


def test_a_path_that_does_not_fit_the_pattern_is_a_problem_not_a_crash() -> None:
    found = discover(SWEEP / "agents", "{agent}/{seed}")
    assert not found.runs
    assert len(found.problems) == 6
    assert "has 3 level(s) below the root; --group-by '{agent}/{seed}' has 2" in found.problems[0][1]


@pytest.mark.parametrize("pattern, message", [
    ("{agent}//{seed}", "empty folder level"), ("{a-b}", "not a name"),
    ("{x}/{x}", "appears twice"), ("{run}/*/*", "clash with the metric columns")])
def test_bad_patterns_are_usage_errors(pattern: str, message: str) -> None:
    with pytest.raises(MetricsError, match=message) as info:
        discover(SWEEP / "agents", pattern)
    assert info.value.exit_code == 2


def test_several_syllabi_beside_a_log_need_the_log_named_like_one(tmp_path: Path) -> None:
    shutil.copytree(SWEEP / "mixed" / "plain", tmp_path / "plain")
    shutil.copy(SWEEP / "mixed" / "plain" / "two_tasks.json", tmp_path / "plain" / "other.json")
    found = discover(tmp_path)
    assert not found.runs and "several syllabi beside this log" in found.problems[0][1]
    os.rename(tmp_path / "plain" / "rewards.csv", tmp_path / "plain" / "other.csv")
    found = discover(tmp_path)
    assert [Path(r.syllabus).name for r in found.runs] == ["other.json"]


def test_a_json_file_beside_a_syllabus_is_a_log_only_as_json_lines(tmp_path: Path) -> None:
    shutil.copytree(SWEEP / "mixed" / "plain", tmp_path / "plain")
    (tmp_path / "plain" / "package.json").write_text('{\n  "name": "x"\n}\n')
    lines = "".join(f'{{"episode": {i}, "reward": {r}}}\n'
                    for i, r in enumerate([1, 2, 3, 4, 5, 6, 5, 5, 0, 2]))
    (tmp_path / "plain" / "steps.json").write_text(lines)
    found = discover(tmp_path)
    assert [r.id for r in found.runs] == ["plain/rewards.csv", "plain/steps.json"]


def test_rows_are_what_sylla_metrics_computes_for_each_run(tmp_path: Path) -> None:
    result = sweep(SWEEP / "mixed", out=tmp_path / "out", jobs=1, progress=False)
    assert set(result.rows.run) == {"l2logger", "learnkit", "plain/rewards.csv"}
    for run_id, log, syllabus in [
            ("l2logger", SWEEP / "mixed" / "l2logger", None),
            ("learnkit", SWEEP / "mixed" / "learnkit", None),
            ("plain/rewards.csv", SWEEP / "mixed" / "plain" / "rewards.csv",
             SWEEP / "mixed" / "plain" / "two_tasks.json")]:
        alone = compute_metrics(log, syllabus, progress=False).rows
        mine = result.rows[result.rows.run == run_id]
        assert len(mine) == len(alone)
        np.testing.assert_array_equal(mine.metric.to_numpy(), alone.metric.to_numpy())
        np.testing.assert_allclose(mine.value.to_numpy(), alone.value.to_numpy(), rtol=0,
                                   atol=0, equal_nan=True)
    # and the Parquet dataset under --out holds exactly those rows
    back = pd.read_parquet(tmp_path / "out" / "rows")

    def plain(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame.reset_index(drop=True).astype(object)
        return frame.where(frame.notna(), None)

    pd.testing.assert_frame_equal(plain(back), plain(result.rows))


def test_a_failing_run_is_reported_with_path_and_error_and_the_others_go_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sweep", str(SWEEP / "mixed"), "--out", str(tmp_path / "o"), "--jobs", "1",
                 "-m", "avg_perf", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1
    broken = SWEEP / "mixed" / "broken"
    # worded as `sylla metrics --log broken` words it: file and row of the empty reward
    assert (f"sylla: {broken}: {broken}/worker-default/0-train/data-log.tsv:4: reward is "
            "missing or NaN") in err
    assert re.search(r"3 computed \([\d.]+ s in the per-run tasks\), 0 from the cache, 1 failed; summaries in", err)


def test_fail_fast_stops_at_the_first_failure(tmp_path: Path) -> None:
    result = sweep(SWEEP / "mixed", out=tmp_path / "o", jobs=1, metrics=["avg_perf"],
                   fail_fast=True, progress=False)
    # runs go in path order and "broken" is first: nothing after it is computed
    assert list(result.failures.path) == [str(SWEEP / "mixed" / "broken")]
    assert result.counts["computed"] == 0 and result.rows.empty


def _cli(root: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "sylla", "sweep", str(root), "--group-by",
                           PATTERN, "--out", str(out), "--compare", "agent", "--no-progress",
                           *sum((["-m", m] for m in FAST), []), *extra],
                          capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_stdout_is_the_same_from_the_cache_as_computed_now(agents: Path, tmp_path: Path,
                                                           fmt: str) -> None:
    code, fresh, err = _cli(agents, tmp_path / "o", "--jobs", "2", "--format", fmt)
    assert code == 0 and re.search(r"6 computed \(.*\), 0 from the cache", err), err
    rows_fresh = (tmp_path / "o" / "rows" / "part-00000.parquet").read_bytes()
    code, cached, err = _cli(agents, tmp_path / "o", "--jobs", "2", "--format", fmt)
    assert code == 0 and re.search(r"0 computed \(0.00 s in the per-run tasks\), 6 from the cache", err), err
    assert cached == fresh
    assert (tmp_path / "o" / "rows" / "part-00000.parquet").read_bytes() == rows_fresh


def test_only_changed_runs_are_recomputed_and_a_changed_option_recomputes_all(
        agents: Path, tmp_path: Path) -> None:
    out = tmp_path / "o"
    first = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    assert first.counts["computed"] == 6
    data = agents / "agentB" / "seed1" / "run_ll" / "worker-default" / "2-test" / "data-log.tsv"
    # touched but not changed: hashed again, found in the cache
    os.utime(data, ns=(1, 1))
    again = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    assert again.counts == {"runs": 6, "cached": 6, "computed": 0, "failed": 0}
    # one reward changed: that run alone is computed, and its numbers move
    text = data.read_text().splitlines(keepends=True)
    cells = text[1].rstrip("\n").split("\t")
    cells[-1] = str(float(cells[-1]) + 50)
    text[1] = "\t".join(cells) + "\n"
    data.write_text("".join(text))
    changed = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    assert changed.counts["computed"] == 1 and changed.counts["cached"] == 5
    run = "agentB/seed1/run_ll"
    before = first.rows[(first.rows.run == run) & (first.rows.metric == "avg_eval_perf")]
    after = changed.rows[(changed.rows.run == run) & (changed.rows.metric == "avg_eval_perf")]
    assert not np.allclose(before.value.to_numpy(), after.value.to_numpy())
    # an option that changes the numbers changes every key
    params = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False,
                   params={"aggregation": "median"})
    assert params.counts["computed"] == 6


def test_an_interrupted_sweep_recomputes_only_what_is_missing(agents: Path, tmp_path: Path) -> None:
    out = tmp_path / "o"
    seen: list[str] = []

    def interrupt(outcome: object) -> None:
        seen.append(outcome.run_id)  # type: ignore[attr-defined]
        if len(seen) == 2:
            raise KeyboardInterrupt  # what Ctrl-C raises in the driver

    with pytest.raises(KeyboardInterrupt):
        sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False,
              on_outcome=interrupt)
    resumed = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    assert resumed.counts == {"runs": 6, "cached": 2, "computed": 4, "failed": 0}
    fresh = sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=FAST, progress=False)
    pd.testing.assert_frame_equal(resumed.rows, fresh.rows)


def test_a_damaged_cache_entry_is_recomputed_not_trusted(agents: Path, tmp_path: Path) -> None:
    out = tmp_path / "o"
    sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    entry = sorted((out / "cache").glob("??/*.parquet"))[0]
    entry.write_bytes(b"PAR1 not really")
    # with the dataset of the last sweep intact no entry is read at all; without it, they are
    shutil.rmtree(out / "rows")
    again = sweep(agents, group_by=PATTERN, out=out, jobs=1, metrics=FAST, progress=False)
    assert again.counts["computed"] == 1 and again.counts["failed"] == 0


def test_summary_statistics_by_hand(agents: Path) -> None:
    result = sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=FAST, progress=False)
    assert result.groups[:2] == ["agent", "name"]  # seed is the replicate, not a group
    rows = result.rows
    for agent in ("agentA", "agentB"):
        values = rows[(rows.agent == agent) & (rows.metric == "gem_acc")].value.to_numpy()
        assert values.size == 3  # one per seed
        cell = result.summary[(result.summary.agent == agent)
                              & (result.summary.metric == "gem_acc")].iloc[0]
        assert cell.n == 3
        assert cell["mean"] == pytest.approx(values.sum() / 3, abs=1e-12)
        assert cell["median"] == pytest.approx(sorted(values)[1], abs=1e-12)
        assert cell["std"] == pytest.approx(
            np.sqrt(((values - values.mean()) ** 2).sum() / 2), abs=1e-12)
        ci = bootstrap((values,), np.mean, n_resamples=RESAMPLES, method="BCa",
                       rng=np.random.default_rng(SEED)).confidence_interval
        assert (cell.ci_low, cell.ci_high) == pytest.approx((ci.low, ci.high), abs=1e-12)
        assert cell.ci_low <= cell["mean"] <= cell.ci_high


def test_paired_differences_pair_runs_by_seed(agents: Path) -> None:
    result = sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=FAST, progress=False,
                   compare="agent")
    rows = result.rows[(result.rows.metric == "gem_acc")].set_index(["agent", "seed"]).value
    diffs = np.array([rows["agentA", s] - rows["agentB", s] for s in ("0", "1", "2")])
    cell = result.compare[result.compare.metric == "gem_acc"].iloc[0]
    assert (cell.a, cell.b, cell.n) == ("agentA", "agentB", 3)
    assert cell["mean"] == pytest.approx(diffs.mean(), abs=1e-12)


def test_compare_needs_a_group_key(agents: Path) -> None:
    with pytest.raises(MetricsError, match="--compare colour: not a group key"):
        sweep(agents, group_by=PATTERN, out=None, compare="colour", progress=False)


def test_forest_plots_are_written(agents: Path, tmp_path: Path) -> None:
    code, _, err = _cli(agents, tmp_path / "o", "--jobs", "1", "--plots")
    assert code == 0, err
    plots = tmp_path / "o" / "plots"
    for name in ("gem_acc.png", "compare_gem_acc.png", "avg_eval_perf.png"):
        data = (plots / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000


def test_python_api_returns_tidy_frames(agents: Path) -> None:
    result = sylla.sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=["gem"],
                         progress=False, compare="agent")
    assert list(result.rows.columns[:4]) == ["run", "agent", "seed", "name"]
    assert {"n", "mean", "median", "std", "ci_low", "ci_high"} <= set(result.summary.columns)
    assert result.ok and result.failures.empty
    assert set(result.compare.a) == {"agentA"}


def test_summary_json_on_disk_is_the_stdout_document(agents: Path, tmp_path: Path) -> None:
    code, out, _ = _cli(agents, tmp_path / "o", "--jobs", "1", "--format", "json")
    assert code == 0
    assert json.loads(out) == json.loads((tmp_path / "o" / "summary.json").read_text())


def test_local_processes_give_the_rows_of_one_process(agents: Path) -> None:
    one = sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=FAST, progress=False,
                compare="agent")
    # with two jobs the bootstrap chunks of the summaries are computed by the workers too
    two = sweep(agents, group_by=PATTERN, out=None, jobs=2, metrics=FAST, progress=False,
                compare="agent")
    for a, b in ((one.rows, two.rows), (one.summary, two.summary), (one.compare, two.compare)):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def _matrix(cells: int, n: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.normal(size=(cells, n)) * rng.uniform(0.1, 10, size=(cells, 1))


def test_bootstrap_chunks_are_the_documented_scipy_call_wherever_they_run() -> None:
    """The summary intervals are scipy.stats.bootstrap (BCa, 9,999 resamples, the fixed seed,
    64 cells per vectorised call), bit for bit, computed in this process or by workers."""
    from scipy.stats import bootstrap

    from sylla.metrics.sweep import aggregate
    from sylla.metrics.sweep.execute import Executor

    values = _matrix(150, 9)
    values[5] = 3.0  # a constant cell: its interval is the constant, no resampling
    frame = pd.DataFrame({"cell": np.repeat(np.arange(150), 9), "value": values.ravel()})
    inline = aggregate.describe(frame, ["cell"])
    with Executor(2, jobs=2, dask=None) as workers:
        assert workers.pool is not None
        pooled = aggregate.describe(frame, ["cell"], mapper=workers.map)
    pd.testing.assert_frame_equal(inline, pooled, check_exact=True)
    varied = [i for i in range(150) if i != 5]
    assert (inline.ci_low[5], inline.ci_high[5]) == (3.0, 3.0)
    for start in range(0, len(varied), aggregate.CELLS_PER_CALL):
        chunk = varied[start:start + aggregate.CELLS_PER_CALL]
        ci = bootstrap((values[chunk],), np.mean, axis=-1, vectorized=True,
                       confidence_level=0.95, n_resamples=9999, batch=1000, method="BCa",
                       rng=np.random.default_rng(SEED)).confidence_interval
        np.testing.assert_array_equal(inline.ci_low.to_numpy()[chunk], ci.low)
        np.testing.assert_array_equal(inline.ci_high.to_numpy()[chunk], ci.high)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="kills workers found in /proc")
def test_summaries_fall_back_to_this_process_when_the_workers_are_gone() -> None:
    import signal
    import time

    from sylla.metrics.sweep import aggregate
    from sylla.metrics.sweep.execute import Executor

    chunks = [_matrix(4, 6, seed) for seed in range(3)]
    expected = [aggregate.bootstrap_chunk(c) for c in chunks]
    with Executor(2, jobs=2, dask=None) as workers:
        workers.map(aggregate.bootstrap_chunk, chunks[:1])  # the workers are up
        pool = workers.pool
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not pool._broken and time.monotonic() < deadline:  # the pool notices
            time.sleep(0.05)
        assert pool._broken
        got = workers.map(aggregate.bootstrap_chunk, chunks)
        assert workers.pool is None  # the broken pool is let go, not waited for
    for (low, high), (elow, ehigh) in zip(got, expected):
        np.testing.assert_array_equal(low, elow)
        np.testing.assert_array_equal(high, ehigh)


def _forkserver_started(*argv: str) -> bool:
    """Whether ``sylla sweep ARGV`` starts the workers' fork server before loading pandas."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from multiprocessing import forkserver\n"
            "from sylla.cli import build_parser\n"
            "from sylla.commands.sweep import start_workers_early\n"
            "args = build_parser().parse_args(['sweep', *sys.argv[1:]])\n"
            "start_workers_early(args)\n"
            "assert 'pandas' not in sys.modules\n"
            "print(forkserver._forkserver._forkserver_pid is not None)\n")
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip() == "True"


def test_local_workers_start_before_the_runs_are_found_unless_a_rerun(agents: Path,
                                                                      tmp_path: Path) -> None:
    from sylla.commands.sweep import PRELOAD
    from sylla.metrics.sweep import MARK, ROWS_DIR, execute

    assert PRELOAD == execute.PRELOAD
    out = tmp_path / "o"
    assert _forkserver_started(str(agents), "--out", str(out), "--jobs", "2")
    assert not _forkserver_started(str(agents), "--out", str(out), "--jobs", "1")
    assert not _forkserver_started(str(agents), "--out", str(out), "--dask", "tcp://127.0.0.1:9")
    code, _, err = _cli(agents, out, "--jobs", "2")
    assert code == 0, err
    assert (out / ROWS_DIR / MARK).is_file()  # a finished sweep: the next one is a re-run
    assert not _forkserver_started(str(agents), "--out", str(out), "--jobs", "2")


def _ppid(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds workers through /proc")
def test_a_killed_worker_fails_its_runs_and_a_rerun_computes_only_those(
        agents: Path, tmp_path: Path) -> None:
    import multiprocessing
    import signal

    out = tmp_path / "o"
    killed: list[int] = []

    def kill_a_worker(outcome: object) -> None:
        if not killed:
            # the workers are children of multiprocessing's fork server
            server = multiprocessing.forkserver._forkserver._forkserver_pid
            workers = [int(d.name) for d in Path("/proc").iterdir() if d.name.isdigit()
                       and _ppid(d) == server]
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])

    first = sweep(agents, group_by=PATTERN, out=out, jobs=2, metrics=FAST, progress=False,
                  on_outcome=kill_a_worker)
    assert killed
    lost = first.counts["failed"]
    assert first.counts["computed"] + lost == 6
    assert all("worker process died" in e for e in first.failures.error)
    again = sweep(agents, group_by=PATTERN, out=out, jobs=2, metrics=FAST, progress=False)
    # a worker killed after writing its entry but before answering leaves the entry behind:
    # at most the lost runs are computed again, and nothing else
    assert again.counts["failed"] == 0 and again.counts["computed"] <= lost
    assert again.counts["computed"] + again.counts["cached"] == 6
    fresh = sweep(agents, group_by=PATTERN, out=None, jobs=1, metrics=FAST, progress=False)
    pd.testing.assert_frame_equal(again.rows, fresh.rows)


def test_the_progress_bar_counts_runs_on_a_terminal(agents: Path, tmp_path: Path) -> None:
    import pty
    import subprocess
    import sys

    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sylla", "sweep", str(agents), "--out",
                             str(tmp_path / "o"), "--jobs", "1", "-m", "gem"],
                            stdout=subprocess.DEVNULL, stderr=child_fd)
    os.close(child_fd)
    seen = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait(timeout=120) == 0
    text = seen.decode("utf-8", "replace")
    assert "runs" in text and "6/6" in text


def test_a_slow_run_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from sylla.metrics.sweep import execute

    tracker = execute.Tracker()
    tracker.start("agentA/seed0/run_ll")
    assert tracker.slowest() is None
    monkeypatch.setattr(execute, "SLOW_SECONDS", 0.0)
    assert tracker.slowest().startswith("agentA/seed0/run_ll (")
    tracker.done("agentA/seed0/run_ll")
    assert tracker.slowest() is None


def test_ste_data_is_part_of_every_key(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(SWEEP / "mixed" / "plain", root / "plain")
    ste = tmp_path / "ste"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "metrics" / "ste", ste)
    out = tmp_path / "o"
    without = sweep(root, out=out, jobs=1, progress=False, metrics=["ste_rel_perf"])
    first = sweep(root, out=out, jobs=1, progress=False, metrics=["ste_rel_perf"], ste=[ste])
    assert without.counts["computed"] == first.counts["computed"] == 1
    assert first.rows.value.notna().any() and not without.rows.value.notna().any()
    assert sweep(root, out=out, jobs=1, progress=False, metrics=["ste_rel_perf"],
                 ste=[ste]).counts["cached"] == 1
    pong = ste / "Pong.csv"
    lines = pong.read_text().splitlines(keepends=True)
    episode, reward = lines[1].strip().split(",")
    lines[1] = f"{episode},{float(reward) + 1}\n"  # one reward of the expert changed
    pong.write_text("".join(lines))
    assert sweep(root, out=out, jobs=1, progress=False, metrics=["ste_rel_perf"],
                 ste=[ste]).counts["computed"] == 1


def test_each_continual_imitation_experiment_is_a_run_counted_once() -> None:
    """An experiment folder holding ``training_log.log`` is one run (as the reference script
    reads them), the folders above it only hold runs, and the pooled row `sylla metrics` adds
    across a log's experiments is not a run: the sweep's own mean over the four experiments is
    that pooled value."""
    tree = FIXTURES / "iscil" / "tree"
    found = discover(tree, "*/{env}/{name}_seed{seed}")
    assert [r.id for r in found.runs] == [
        "iscil/kitchen/ablation_oldstyle_seed0", "iscil/kitchen/exp_other_seed1",
        "iscil/kitchen/exp_worked_seed0", "iscil/kitchen/exp_zthird_seed2"]
    assert {r.format for r in found.runs} == {"iscil"}
    result = sweep(tree, group_by="*/{env}/*", out=None, jobs=1, metrics=["iscil"],
                   progress=False)
    assert result.ok
    assert set(result.rows.run) == {r.id for r in found.runs}  # no "#pooled" pseudo-run
    pooled = compute_metrics(tree, None, only=["iscil"], progress=False).rows
    for k in ("bwt", "fwt", "auc"):
        cell = result.summary[(result.summary.metric == f"iscil_{k}")
                              & result.summary.task.isna()]
        assert cell.n.tolist() == [4]
        want = pooled[(pooled.run == "pooled") & (pooled.metric == f"iscil_{k}")].value
        assert cell["mean"].iloc[0] == pytest.approx(float(want.iloc[0]), abs=1e-12)
