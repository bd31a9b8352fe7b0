"""``sylla run --agent random`` against a bare Gymnasium loop: the same episodes of the same
environment with random actions, both as whole processes (interpreter start-up, imports and
environment creation included).

The syllabus is one train block of ``N`` episodes of ``--env`` (MiniGrid-Empty-5x5-v0 by
default). The bare loop is what a user writes without sylla: ``gymnasium.make``, one seeded
``reset`` then ``reset()`` per episode, ``action_space.sample()`` per step, and the episode's
return summed; it writes nothing. ``sylla run`` additionally seeds every episode's ``reset``,
checks every action, hands the agent its events, writes one l2logger row per episode and a
checkpoint every 100 episodes. Random episodes differ in length, so the two are compared per
step: each prints its step count (sylla's from its log), and the ratio is sylla's seconds per
step over the bare loop's. The two alternate ``--rounds`` times per size; the median round is
reported with the spread (a shared machine varies by several percent from run to run).

    .venv/bin/python bench/run.py [--episodes 1000 10000] [--rounds 3] [--env MiniGrid-Empty-5x5-v0]

Target (issue 37 §7): at most 1.10x the bare loop, per-episode cost flat across sizes.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
SYLLA = Path(sys.executable).parent / "sylla"

BARE = """
import sys
import gymnasium
import minigrid  # registers the MiniGrid ids

env_id, episodes, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = gymnasium.make(env_id)
env.action_space.seed(seed)
env.reset(seed=seed)
steps = 0
for _ in range(episodes):
    env.reset()
    total = 0.0
    while True:
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += reward
        steps += 1
        if terminated or truncated:
            break
print(steps)
"""


def syllabus(folder: Path, env_id: str, episodes: int) -> Path:
    path = folder / f"bench-{episodes}.json"
    path.write_text(json.dumps({
        "name": f"{episodes} episodes of {env_id}", "author": "bench/run.py", "contains": "episodes",
        "instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": env_id}, "count": episodes}],
    }))
    return path


def time_bare(script: Path, env_id: str, episodes: int, seed: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, str(script), env_id, str(episodes), str(seed)], capture_output=True,
                         text=True, check=True)
    return time.perf_counter() - t0, int(out.stdout.strip())


def time_sylla(path: Path, out: Path, seed: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    subprocess.run([str(SYLLA), "run", str(path), "--agent", "random", "-o", str(out), "--seed", str(seed),
                    "--force", "--no-progress"], capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - t0
    steps = 0
    for log in out.glob("worker-default/*/data-log.tsv"):
        with open(log, newline="") as fh:
            steps += sum(int(r["episode_step_count"]) for r in csv.DictReader(fh, delimiter="\t"))
    return elapsed, steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--env", default="MiniGrid-Empty-5x5-v0")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sylla-bench-run-") as tmp:
        folder = Path(tmp)
        script = folder / "bare.py"
        script.write_text(BARE)
        print(f"{'episodes':>9} {'bare steps/s':>13} {'sylla steps/s':>14} {'ratio':>6} {'spread':>13} "
              f"{'sylla ms/episode':>17}")
        for n in args.episodes:
            path = syllabus(folder, args.env, n)
            ratios, bare_rates, sylla_rates, per_episode = [], [], [], []
            for r in range(args.rounds):
                bare_s, bare_steps = time_bare(script, args.env, n, r)
                run_s, run_steps = time_sylla(path, folder / "run", r)
                bare_rates.append(bare_steps / bare_s)
                sylla_rates.append(run_steps / run_s)
                ratios.append((run_s / run_steps) / (bare_s / bare_steps))
                per_episode.append(1000 * run_s / n)
            print(f"{n:>9} {median(bare_rates):>13,.0f} {median(sylla_rates):>14,.0f} {median(ratios):>5.3f}x "
                  f"{min(ratios):>5.3f}-{max(ratios):.3f}x {median(per_episode):>16.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
