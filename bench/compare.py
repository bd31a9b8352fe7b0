"""``sylla compare``'s bootstrap against rliable 1.2.0 on the same scores, in the same run
(issue 26: 10 agents x 10 seeds x 20 tasks, 50,000 reps; target: sylla <= 1/2 of rliable's time).

    python bench/compare.py [--agents 10] [--seeds 10] [--tasks 20] [--reps 50000]
                            [--poi-reps 2000] [--rliable .venv-rliable/bin/python]

Both sides get the same score matrices and compute the same thing: the IQM, median, mean and
optimality gap of every agent with 95 % percentile intervals from the stratified bootstrap
(rliable: ``get_interval_estimates`` with one function returning the four, as its README does),
then the probability of improvement of one pair with its interval (``--poi-reps``: rliable
calls SciPy's Mann-Whitney test per task per resample, so all 90 pairs at 50,000 reps would take
hours). rliable runs in its own venv (scripts/setup.d/25-rliable.sh) through the oracle test's
driver, which times its own work, so neither side's imports or start-up are counted. sylla is
timed before and after rliable, and the load average printed with each: on a shared machine
the ratio is the figure to read, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "metrics" / "compare" / "rliable_driver.py"


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def time_sylla(matrices: dict[str, np.ndarray], reps: int, poi_reps: int) -> tuple[float, float]:
    from sylla.metrics.compare import bootstrap as bs
    from sylla.metrics.compare import estimators as est
    from sylla.metrics.compare.scores import from_matrices

    scores = from_matrices("score", matrices)
    t0 = time.perf_counter()
    for name, g in scores.groups.items():
        flat, counts = g.flat(), g.counts()
        est.aggregates(flat, counts)
        draws = bs.aggregate_draws(flat, counts, reps, bs.generator(0, "score", name))
        for stat in est.AGGREGATES:
            bs.percentile_interval(draws[stat])
    t1 = time.perf_counter()
    a, b = list(scores.groups)[:2]
    xs, ys = scores.groups[a].values, scores.groups[b].values
    est.probability_of_improvement(xs, ys)
    bs.percentile_interval(bs.improvement_draws(xs, ys, poi_reps, bs.generator(0, a, "vs", b)))
    return t1 - t0, time.perf_counter() - t1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--tasks", type=int, default=20)
    ap.add_argument("--reps", type=int, default=50000)
    ap.add_argument("--poi-reps", type=int, default=2000)
    ap.add_argument("--rliable", default=str(ROOT / ".venv-rliable" / "bin" / "python"))
    args = ap.parse_args()
    if not Path(args.rliable).exists():
        print(f"bench: no rliable interpreter at {args.rliable}; run scripts/setup.d/25-rliable.sh",
              file=sys.stderr)
        return 2
    rng = np.random.default_rng(2021)
    matrices = {f"agent{i}": rng.normal(0.5 + 0.05 * i, 0.25, size=(args.seeds, args.tasks))
                for i in range(args.agents)}
    print(f"{args.agents} agents x {args.seeds} seeds x {args.tasks} tasks, {args.reps} reps "
          f"(probability of improvement: 1 pair, {args.poi_reps} reps); {os.cpu_count()} CPUs")
    print(f"load average {load()} (1 / 5 / 15 min) at start")
    before = time_sylla(matrices, args.reps, args.poi_reps)
    print(f"sylla (before): aggregates {before[0]:.2f} s, improvement {before[1]:.3f} s; load {load()}")
    job = {"scores": {g: m.tolist() for g, m in matrices.items()}, "pairs": [["agent0", "agent1"]],
           "reps": args.reps, "poi_reps": args.poi_reps, "seed": 0}
    done = subprocess.run([args.rliable, str(DRIVER)], input=json.dumps(job), text=True,
                          capture_output=True)
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
        return 1
    ref = json.loads(done.stdout)["seconds"]
    print(f"rliable:        aggregates {ref['aggregates']:.2f} s, improvement {ref['improvement']:.3f} s; "
          f"load {load()}")
    after = time_sylla(matrices, args.reps, args.poi_reps)
    print(f"sylla (after):  aggregates {after[0]:.2f} s, improvement {after[1]:.3f} s; load {load()}")
    agg = max(before[0], after[0]) / ref["aggregates"]
    poi = max(before[1], after[1]) / ref["improvement"]
    print(f"ratio sylla / rliable (slower of sylla's two): aggregates {agg:.4f} "
          f"({1 / agg:.0f}x faster), improvement {poi:.4f} ({1 / poi:.0f}x faster); "
          f"target <= 0.5: {'met' if agg <= 0.5 and poi <= 0.5 else 'NOT met'}")
    return 0 if agg <= 0.5 and poi <= 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
