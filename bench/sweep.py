"""``sylla sweep`` over generated runs: one process, two processes, a two-worker Dask
LocalCluster, a re-run with nothing changed, the scheduling overhead per run, and l2metrics
3.1.0's recursive mode over (a part of) the same tree.

Generates ``--runs`` l2logger runs of ``--episodes`` episodes each (two agents, the rest seeds;
three tasks, alternating train/test), then times each sweep as a user meets it: ``sylla sweep``
in a fresh process (interpreter start-up included), every sweep into its own ``--out`` so none
reads another's cache. The Dask cluster is started, and warmed by a sweep of four small runs,
before the clock starts, since ``--dask`` is for a cluster that already exists (and has loaded
sylla, its readers and SciPy).

The three ways of running take turns, ``--rounds`` times (a fresh cluster each round, so no idle
cluster slows the local sweeps). Each round's speedups are against that round's ``--jobs 1``,
and the median round is reported with the spread: on a shared machine one sweep can take 10 %
longer than the next for no reason of its own.

    .venv/bin/python bench/sweep.py [--runs 200] [--episodes 100000] [--rounds 3] [--l2m-runs 10]
                                    [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

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


def dask_sweep(tree: Path, warm: Path, out: Path) -> tuple[float, float, str, float]:
    """A sweep on a two-worker LocalCluster started (and warmed) for it, then shut down, so
    that no idle cluster runs beside the local sweeps."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        # a cluster that already exists has run sweeps before: its workers have loaded what
        # a sweep needs (the per-run task, readers, plugins, SciPy for the summaries)
        sweep_cli(warm, out.with_name(out.name + "-warm"), "--dask", cluster.scheduler_address)
        return sweep_cli(tree, out, "--dask", cluster.scheduler_address)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of --jobs 1, --jobs 2 and LocalCluster, one after another; "
                             "each round's speedups are against its own --jobs 1, and the "
                             "median round is reported")
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
    modes = ["--jobs 1", "--jobs 2", "LocalCluster, 2 workers"]
    walls: dict[str, list[float]] = {m: [] for m in modes}
    busy: dict[str, list[float]] = {m: [] for m in modes}
    aggs: dict[str, list[float]] = {m: [] for m in modes}
    docs: set[str] = set()
    try:
        outs = base / "outs"
        shutil.rmtree(outs, ignore_errors=True)
        empty = base / "empty"
        empty.mkdir(exist_ok=True)
        fixed, _, _, _ = sweep_cli(empty, outs / "empty", "--jobs", "1")  # start-up, no runs
        warm = generate(base / "warm", 4, 2000)
        for k in range(args.rounds):
            for mode in modes:
                out = outs / f"{k}-{mode.split(',')[0].strip('-').replace(' ', '')}"
                if mode.startswith("--jobs"):
                    wall, task, doc, agg = sweep_cli(tree, out, *mode.split())
                else:
                    wall, task, doc, agg = dask_sweep(tree, warm, out)
                walls[mode].append(wall)
                busy[mode].append(task)
                aggs[mode].append(agg)
                docs.add(doc)
            print(f"round {k + 1}: " + ", ".join(f"{m.split(',')[0]} {walls[m][-1]:.2f} s"
                                                 for m in modes), flush=True)
        again, _, doc_again, _ = sweep_cli(tree, outs / "0-jobs2", "--jobs", "2")
        docs.add(doc_again)
        l2m = l2metrics_recursive(Path(args.l2m_python), tree, args.l2m_runs, base)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    one = walls["--jobs 1"]
    print(f"\n{'sweep':26} {'wall s (median, min-max)':>26} {'task s':>8} {'speedup':>18}")
    for mode in modes:
        ratios = [a / b for a, b in zip(one, walls[mode])]
        print(f"{mode:26} {median(walls[mode]):8.2f} ({min(walls[mode]):5.2f}-"
              f"{max(walls[mode]):5.2f})   {median(busy[mode]):8.2f} {median(ratios):7.2f}x "
              f"({min(ratios):.2f}-{max(ratios):.2f})")
    print(f"{'re-run, nothing changed':26} {again:8.2f}")
    n = args.runs
    print(f"\nspeedup: per round, that round's --jobs 1 wall over the mode's; median of "
          f"{args.rounds} round(s) (min-max)")
    print(f"fixed cost (a sweep of an empty folder: start-up, imports): {fixed:.2f} s")
    print("scheduling overhead per run = ((wall - fixed - summaries) x workers - time inside the "
          "tasks) / runs, medians:")
    for mode, workers in zip(modes, (1, 2, 2)):
        over = [((w - fixed - a) * workers - b) / n * 1000
                for w, b, a in zip(walls[mode], busy[mode], aggs[mode])]
        print(f"  {mode.split(',')[0]:13} {median(over):7.1f} ms "
              f"(summaries {median(aggs[mode]):.2f} s)")
    print(f"\nstdout identical across every sweep above and the cached re-run: {len(docs) == 1}")
    if l2m is None:
        print("l2metrics recursive mode: not measured (no l2metrics venv; run "
              "scripts/setup.d/20-l2metrics.sh or pass --l2m-python)")
    else:
        wall, k = l2m
        per = wall / k
        base_one = median(one)
        print(f"l2metrics 3.1.0 recursive mode: {wall:.1f} s for {k} runs = {per:.2f} s/run "
              f"-> {per * n:.0f} s for {n} runs, {per * n / base_one:.1f}x sylla --jobs 1 "
              f"({base_one / n:.2f} s/run)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
