"""Regenerate rewards.csv for pong_breakout.json: a learner whose reward rises while it trains a
task and slowly fades on the other one (seeded, so the file is reproducible)."""

import os

import numpy as np

from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schedule import schedule

rng = np.random.default_rng(42)
model = parse(open("pong_breakout.json").read()).model
skill = {"Pong": 0.0, "Breakout": 0.0}
lines = ["episode,task,reward"]
for block in schedule(model).blocks:
    n = block.count
    if block.learning is False:
        curve = np.full(n, skill[block.task])
    else:
        start, top = skill[block.task], skill[block.task] + 12
        curve = top - (top - start) * np.exp(-6 * np.arange(n) / n)
        skill[block.task] = top
        for other in skill:
            if other != block.task:
                skill[other] *= 0.8
    for e, r in zip(range(block.start, block.end), curve + rng.normal(0, 1.5, n)):
        lines.append(f"{e},{block.task},{r:.3f}")
open("rewards.csv", "w").write("\n".join(lines) + "\n")

# Single-task experts: each task trained alone for as many episodes as the syllabus trains it,
# one plain log per task named after it (ste/<task>.csv), for `sylla metrics --ste ste/`.
ste_rng = np.random.default_rng(7)
trained: dict[str, int] = {}
for block in schedule(model).blocks:
    if block.learning is not False:
        trained[block.task] = trained.get(block.task, 0) + block.count
for task, n in trained.items():
    curve = 24 - 24 * np.exp(-5 * np.arange(n) / n) + ste_rng.normal(0, 1.5, n)
    rows = ["episode,reward"] + [f"{e},{r:.3f}" for e, r in enumerate(curve)]
    os.makedirs("ste", exist_ok=True)
    open(f"ste/{task}.csv", "w").write("\n".join(rows) + "\n")

# A run that strays from its syllabus (strays.csv, for the demo): the agent's runner tested
# Breakout before Pong in 2.test, so `sylla metrics --syllabus pong_breakout.json strays.csv`
# stops at episode 1000, the first place where log and syllabus disagree.
rows = lines[1:]
swapped = rows[:1000] + [
    f"{1000 + i},{row.split(',', 2)[1]},{row.split(',', 2)[2]}"
    for i, row in enumerate(rows[1050:1100] + rows[1000:1050])
] + rows[1100:]
open("strays.csv", "w").write("\n".join(["episode,task,reward"] + swapped) + "\n")
