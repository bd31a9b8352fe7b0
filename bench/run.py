"""``sylla run --agent random`` against a bare Gymnasium loop: the same episodes of the same
environment with random actions, both as whole processes (interpreter start-up, imports and
environment creation included).

The syllabus is one train block of ``N`` episodes of ``--env`` (MiniGrid-Empty-5x5-v0 by
default). The bare loop is what a user writes without sylla: ``gymnasium.make``, one seeded
``reset`` then ``reset()`` per episode, ``int(action_space.sample())`` per step, and the
episode's return summed; it writes nothing. The ``int``: ``sample()`` returns a numpy integer, and
MiniGrid's ``step`` compares it with its action enum at 2.6x the cost of a Python int's step
(304 vs 117 us), which would flatter sylla (whose random agent returns Python ints) by far more
than its own cost. ``sylla run`` additionally seeds every episode's ``reset``,
checks every action, hands the agent its events, writes one l2logger row per episode and a
checkpoint every 100 episodes. Random episodes differ in length, so the two are compared per
step: each prints its step count (sylla's from its log), and the ratio is sylla's seconds per
step over the bare loop's. The two alternate ``--rounds`` times per size; the median round is
reported with the spread (a shared machine varies by several percent from run to run).

    .venv/bin/python bench/run.py [--sizes 1000 10000] [--rounds 3] [--env MiniGrid-Empty-5x5-v0]

Target (issue 37 §7): at most 1.10x the bare loop, per-episode cost flat across sizes. Each line
also gives both sides' milliseconds per episode, so flatness reads down a column. 100,000
episodes of MiniGrid-Empty-5x5 are about 15 CPU-minutes per side; ``--env CartPole-v1 --sizes
1000 10000 100000`` checks flatness in a minute or two, and more sharply: CartPole's steps are
so cheap that sylla's own per-episode work is a quarter of the time, where on MiniGrid it is
about 1 %.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
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
        _, reward, terminated, truncated, _ = env.step(int(env.action_space.sample()))
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


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system) of the process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out.stdout


def time_bare(script: Path, env_id: str, episodes: int, seed: int) -> tuple[float, float, int]:
    wall, cpu, out = timed([sys.executable, str(script), env_id, str(episodes), str(seed)])
    return wall, cpu, int(out.strip())


def time_sylla(path: Path, out: Path, seed: int) -> tuple[float, float, int]:
    wall, cpu, _ = timed([str(SYLLA), "run", str(path), "--agent", "random", "-o", str(out), "--seed", str(seed),
                          "--force", "--no-progress"])
    steps = 0
    for log in out.glob("worker-default/*/data-log.tsv"):
        with open(log, newline="") as fh:
            steps += sum(int(r["episode_step_count"]) for r in csv.DictReader(fh, delimiter="\t"))
    return wall, cpu, steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", "--episodes", dest="episodes", type=int, nargs="+", default=[1000, 10000],
                        help="the numbers of episodes to time (default: 1000 10000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--env", default="MiniGrid-Empty-5x5-v0")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sylla-bench-run-") as tmp:
        folder = Path(tmp)
        script = folder / "bare.py"
        script.write_text(BARE)
        print(f"{'episodes':>9} {'':>6} {'bare steps/s':>13} {'sylla steps/s':>14} {'ratio':>6} {'spread':>13} "
              f"{'bare ms/episode':>16} {'sylla ms/episode':>17}")
        for n in args.episodes:
            path = syllabus(folder, args.env, n)
            rates: dict[str, list[tuple[float, float, float]]] = {"wall": [], "CPU": []}
            per_episode: dict[str, list[tuple[float, float]]] = {"wall": [], "CPU": []}
            for r in range(args.rounds):
                bare_wall, bare_cpu, bare_steps = time_bare(script, args.env, n, r)
                run_wall, run_cpu, run_steps = time_sylla(path, folder / "run", r)
                for clock, bare_s, run_s in (("wall", bare_wall, run_wall), ("CPU", bare_cpu, run_cpu)):
                    rates[clock].append((bare_steps / bare_s, run_steps / run_s,
                                         (run_s / run_steps) / (bare_s / bare_steps)))
                    per_episode[clock].append((1000 * bare_s / n, 1000 * run_s / n))
            for clock, got in rates.items():
                ratios = [g[2] for g in got]
                print(f"{n:>9} {clock:>6} {median(g[0] for g in got):>13,.0f} {median(g[1] for g in got):>14,.0f} "
                      f"{median(ratios):>5.3f}x {min(ratios):>5.3f}-{max(ratios):.3f}x "
                      f"{median(e[0] for e in per_episode[clock]):>16.3f} "
                      f"{median(e[1] for e in per_episode[clock]):>17.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
