"""``sylla sweep`` over generated runs: one process, two processes, a two-worker Dask
LocalCluster, a re-run with nothing changed, the scheduling overhead per run, and l2metrics
3.1.0's recursive mode over (a part of) the same tree.

Generates ``--runs`` l2logger runs of ``--episodes`` episodes each (two agents, the rest seeds;
three tasks, alternating train/test), then times each sweep as a user meets it: ``sylla sweep``
in a fresh process (interpreter start-up included), every sweep into its own ``--out`` so none
reads another's cache. The Dask cluster is started, and warmed by a sweep of four small runs,
before the clock starts, since ``--dask`` is for a cluster that already exists (and has loaded
sylla, its readers and SciPy).

Ratios are against ``--jobs 1`` measured in the same run. On a shared machine the numbers are
noisy: run it twice and read the spread.

    .venv/bin/python bench/sweep.py [--runs 200] [--episodes 100000] [--l2m-runs 10] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]
PATTERN = "{agent}/{seed}/{name}"


def generate(base: Path, runs: int, episodes: int) -> Path:
    """``base/tree/agent{A,B}/seed{k}/run_ll``; reused when ``base`` already holds them."""
    from sylla.metrics.synth import alternating_plan, write_l2logger

    tree = base / "tree"
    stamp = tree / f".made-{runs}x{episodes}"
    if stamp.exists():
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    train = max(10, int(episodes * 0.8 / 9))
    test = max(5, (episodes - 9 * train) // 30)
    plan = alternating_plan(TASKS, train, test, cycles=3)
    for i in range(runs):
        agent = "agentA" if i % 2 == 0 else "agentB"
        write_l2logger(tree / agent / f"seed{i // 2}" / "run_ll", plan, seed=i)
    stamp.write_text("")
    return tree


def sweep_cli(tree: Path, out: Path, *extra: str) -> tuple[float, float, str, float]:
    """Wall seconds, seconds inside the per-run tasks and summarising (from the stderr
    summary), stdout."""
    sylla = str(Path(sys.executable).with_name("sylla"))
    cmd = [sylla, "sweep", str(tree), "--group-by", PATTERN, "--out", str(out), "--compare",
           "agent", "--format", "json", "--no-progress", *extra]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"sweep failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    m = re.search(r"computed \(([\d.]+) s in the per-run tasks\)", proc.stderr)
    agg = re.search(r"summaries in ([\d.]+) s", proc.stderr)
    return (wall, float(m.group(1)) if m else float("nan"), proc.stdout,
            float(agg.group(1)) if agg else float("nan"))


def l2metrics_recursive(l2m_py: Path, tree: Path, runs: int, work: Path) -> tuple[float, int] | None:
    """l2metrics' recursive mode over a tree of the first ``runs`` runs (it reads l2logger
    directories only, which is all this tree holds)."""
    if not l2m_py.exists():
        return None
    sub = work / "l2m-tree"
    shutil.rmtree(sub, ignore_errors=True)
    chosen = sorted(tree.glob("agent*/seed*/run_ll"))[:runs]
    for run in chosen:  # copies: its directory walk does not follow links
        shutil.copytree(run, sub / "_".join(run.relative_to(tree).parts))
    out = work / "l2m-out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    # numpy 2 removed np.NaN, which l2metrics 3.1.0 still uses; restore the alias only
    # (as tests/metrics/l2m_driver.py does), then run its own command line
    shim = ("import sys, runpy, numpy as np\n"
            "np.NaN = getattr(np, 'NaN', np.nan)\n"
            "sys.argv = ['l2metrics'] + sys.argv[1:]\n"
            "runpy.run_module('l2metrics', run_name='__main__')\n")
    cmd = [str(l2m_py), "-c", shim, "-l", str(sub), "-R", "-O", str(out), "--no-plot"]
    env = dict(os.environ, L2DATA=str(work / "l2data"))
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=out, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode:
        print(f"l2metrics recursive mode failed ({proc.returncode}):\n{proc.stderr[-2000:]}",
              file=sys.stderr)
        return None
    return wall, len(chosen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--l2m-runs", type=int, default=10,
                        help="runs for l2metrics' recursive mode (it is slow; scaled per run)")
    parser.add_argument("--l2m-python", default=str(ROOT / ".venv-l2m" / "bin" / "python"))
    parser.add_argument("--keep", help="generate the runs here and keep them")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="sylla-sweep-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    t0 = time.perf_counter()
    tree = generate(base, args.runs, args.episodes)
    size = sum(f.stat().st_size for f in tree.rglob("*") if f.is_file())
    print(f"runs: {args.runs} x {args.episodes:,} episodes, {size / 1e9:.2f} GB "
          f"(generated/reused in {time.perf_counter() - t0:.1f} s)")
    rows = []
    try:
        outs = base / "outs"
        shutil.rmtree(outs, ignore_errors=True)
        empty = base / "empty"
        empty.mkdir(exist_ok=True)
        fixed, _, _, _ = sweep_cli(empty, outs / "empty", "--jobs", "1")  # start-up, no runs
        one, busy1, doc1, agg1 = sweep_cli(tree, outs / "jobs1", "--jobs", "1")
        rows.append(("--jobs 1", one, busy1, 1.0))
        two, busy2, doc2, agg2 = sweep_cli(tree, outs / "jobs2", "--jobs", "2")
        rows.append(("--jobs 2", two, busy2, one / two))
        from distributed import LocalCluster

        warm = generate(base / "warm", 4, 2000)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            # a cluster that already exists has run sweeps before: its workers have loaded
            # what a sweep needs (the per-run task, readers, plugins, SciPy for the summaries)
            sweep_cli(warm, outs / "warm", "--dask", cluster.scheduler_address)
            dk, busyd, docd, aggd = sweep_cli(tree, outs / "dask", "--dask", cluster.scheduler_address)
        rows.append(("LocalCluster, 2 workers", dk, busyd, one / dk))
        again, _, doc_again, _ = sweep_cli(tree, outs / "jobs2", "--jobs", "2")
        rows.append(("re-run, nothing changed", again, 0.0, one / again))
        same = doc1 == doc2 == docd == doc_again
        l2m = l2metrics_recursive(Path(args.l2m_python), tree, args.l2m_runs, base)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(f"\n{'sweep':28} {'wall s':>8} {'task s':>8} {'speedup':>8}")
    for name, wall, busy, ratio in rows:
        print(f"{name:28} {wall:8.2f} {busy:8.2f} {ratio:7.2f}x")
    n = args.runs
    print(f"\nfixed cost (a sweep of an empty folder: start-up, imports): {fixed:.2f} s")
    print("scheduling overhead per run = ((wall - fixed - summaries) x workers - time inside the "
          "tasks) / runs:")
    for name, wall, busy, agg, workers in (("--jobs 1", one, busy1, agg1, 1),
                                           ("--jobs 2", two, busy2, agg2, 2),
                                           ("LocalCluster", dk, busyd, aggd, 2)):
        print(f"  {name:13} {((wall - fixed - agg) * workers - busy) / n * 1000:7.1f} ms "
              f"(summaries {agg:.2f} s)")
    print(f"\nstdout identical across --jobs 1, --jobs 2, Dask and the cached re-run: {same}")
    if l2m is None:
        print("l2metrics recursive mode: not measured (no l2metrics venv; run "
              "scripts/setup.d/20-l2metrics.sh or pass --l2m-python)")
    else:
        wall, k = l2m
        per = wall / k
        print(f"l2metrics 3.1.0 recursive mode: {wall:.1f} s for {k} runs = {per:.2f} s/run "
              f"-> {per * n:.0f} s for {n} runs, {per * n / one:.1f}x sylla --jobs 1 "
              f"({one / n:.2f} s/run)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
