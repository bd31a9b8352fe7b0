"""Hypothesis strategies for l2logger log specs of every shape the differential suite covers.

A spec is what `l2l_write.py` turns into a real log with l2logger's ``DataLogger``. The shapes
(issue 23): uneven blocks of 1-500 experiences; 1-3 rows per experience and ``incomplete`` rows;
two workers drawing from one experience counter; formats 1.0 and 1.1 with ``sleep`` blocks;
variants of one task; a task only ever tested; logs that start or end in training,
back-to-back trainings and 1-experience blocks; names that share a prefix and names in upper or
mixed case; an ``exp_num`` that starts at 1; STE runs of several lengths, in another case than
the log's; test blocks whose tasks alternate between two workers experience by experience (each
experience a regime of its own, as in ``tests/fixtures/metrics/l2logger_workers``); task
parameters that differ between tasks, some longer than the 25 characters l2metrics' regime
table keeps.

Performance is a noisy learning curve with continuous noise, so two smoothed values of a block
are never equal in exact arithmetic (the one documented tie, docs/metrics.md, cannot occur).
"""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import strategies as st

#: task-name families: variants of one task, names sharing a prefix, case variants
FAMILIES = (
    ("alpha_v0", "beta_v0", "gamma_v0"),
    ("alpha_v0", "alpha_v1", "beta_v0"),
    ("ab_x", "abc_y", "b_z"),
    ("Alpha_V0", "BETA_v0", "gamma_V1"),
    ("Pong_a", "Breakout_b", "pong_c"),
)
PERF = ["reward", "score"]


@st.composite
def log_specs(draw: st.DrawFn, *, max_block: int = 500) -> dict[str, Any]:
    """One log spec: ``{"log": spec, "tasks": [lower-case names], "shape": {...}}``."""
    family = draw(st.sampled_from(FAMILIES))
    n_trained = draw(st.integers(1, 3 if len(family) >= 3 else 2))
    trained = list(family[:n_trained])
    tested_only = [family[n_trained]] if n_trained < len(family) and draw(st.booleans()) else []
    version = draw(st.sampled_from(["1.1", "1.1", "1.0"]))
    rows_max = draw(st.sampled_from([1, 1, 2, 3]))
    workers = draw(st.sampled_from([["worker-default"], ["worker-default"],
                                    ["worker-0", "worker-1"]]))
    incomplete = draw(st.sampled_from([0.0, 0.0, 0.05]))
    mixed_case = draw(st.booleans()) and family[0] == "alpha_v0"
    interleaved = len(workers) > 1 and draw(st.booleans())
    params = draw(st.booleans())
    seed = draw(st.integers(0, 2**31 - 1))
    size = st.one_of(st.integers(1, 40), st.integers(1, 40), st.integers(40, max_block))

    # the block plan: optional leading test, then train (+ optional test) per step
    plan: list[tuple[str, str, list[tuple[str, int]]]] = []
    all_tasks = trained + tested_only
    if draw(st.booleans()):
        plan.append(("test", "wake", [(t, draw(size)) for t in all_tasks]))
    steps = draw(st.lists(st.sampled_from(trained), min_size=1, max_size=6))
    for i, task in enumerate(steps):
        plan.append(("train", "wake", [(task, draw(size))]))
        last = i == len(steps) - 1
        if last and draw(st.booleans()):
            break  # the log ends in training
        if not last and draw(st.integers(0, 4)) == 0:
            continue  # back-to-back trainings
        tested = draw(st.lists(st.sampled_from(all_tasks), min_size=1, max_size=3, unique=True))
        plan.append(("test", "wake", [(t, draw(size)) for t in tested]))
        if version == "1.1" and draw(st.integers(0, 5)) == 0:
            plan.append(("train", "sleep", [(task, draw(st.integers(1, 20)))]))
            plan.append(("test", "wake", [(t, draw(size)) for t in tested]))
    rng = random.Random(seed)
    first_exp = draw(st.sampled_from([0, 0, 0, 1]))
    log = _spec("run", plan, rng, version, rows_max, workers, incomplete, mixed_case, first_exp,
                interleaved=interleaved, params=_params(family) if params else None)

    return {"log": log, "tasks": sorted({t.lower() for t in all_tasks}),
            "shape": {"version": version, "rows": rows_max, "workers": len(workers),
                      "incomplete": incomplete > 0, "tested_only": bool(tested_only),
                      "mixed_case": mixed_case, "blocks": len(plan), "first_exp": first_exp,
                      "interleaved": interleaved, "params": params}}


def _params(family: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Task parameters per (lower-case) task: each task its own, the first one long."""
    out: dict[str, dict[str, Any]] = {}
    for k, task in enumerate(family):
        out[task.lower()] = ({"difficulty": "hard", "speed": k} if k == 0 else {"level": k})
    return out


@st.composite
def ste_pools(draw: st.DrawFn) -> list[dict[str, Any]]:
    """STE runs for the tasks of every family (one pool per batch of logs, since l2metrics
    keeps stored STE data per process): 0-3 runs per task, of several lengths, some with
    several rows per experience, named in the log's case or lower case."""
    specs: list[dict[str, Any]] = []
    rng = random.Random(draw(st.integers(0, 2**31 - 1)))
    for task in sorted({t for family in FAMILIES for t in family}):
        for k in range(draw(st.integers(0, 3))):
            name = task.lower() if draw(st.booleans()) else task
            specs.append(_spec(f"ste-{name}-{k}", [("train", "wake", [(name, draw(
                st.integers(5, 300)))])], rng, "1.1", draw(st.sampled_from([1, 2])),
                ["worker-default"], 0.0, False, 0))
    return specs


def _spec(scenario: str, plan: list[tuple[str, str, list[tuple[str, int]]]], rng: random.Random,
          version: str, rows_max: int, workers: list[str], incomplete: float,
          mixed_case: bool, first_exp: int, *, interleaved: bool = False,
          params: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    records: list[list[Any]] = []
    skill: dict[str, float] = {}
    exp = first_exp
    for block_num, (kind, subtype, parts) in enumerate(plan):
        curves: list[Curve] = []
        for k, (task, n) in enumerate(parts):
            base = task.lower()
            level = skill.get(base, rng.uniform(-2, 2))
            gain = rng.uniform(2, 8) if kind == "train" and subtype == "wake" else 0.0
            curves.append((k, task, n, level, gain))
            skill[base] = level + gain
        lanes = len(workers) if interleaved and kind == "test" else 1
        for k, task, i, n, level, gain in _order(curves, lanes):
            mean = level + gain * (1 - math.exp(-5 * i / max(n, 1)))
            rows = [[round(mean + rng.gauss(0, 1), 6), round(2 * mean + rng.gauss(0, 3), 6)]
                    for _ in range(rng.randint(1, rows_max))]
            status = "incomplete" if incomplete and rng.random() < incomplete else "complete"
            name = task.capitalize() if mixed_case and rng.random() < 0.5 else task
            worker = workers[k % len(workers)] if interleaved and kind == "test" else \
                rng.choice(workers)
            records.append([worker, block_num, exp, kind, subtype, name, status, rows,
                            (params or {}).get(task.lower(), {})])
            exp += 1
    return {"dir": "", "scenario": scenario, "version": version, "perf": PERF,
            "records": records}


Curve = tuple[int, str, int, float, float]  # part, task, experiences, level, gain
Experience = tuple[int, str, int, int, float, float]  # part, task, index, experiences, level, gain


def _order(curves: list[Curve], lanes: int) -> list[Experience]:
    """The experiences of a block's tasks: one task after another, or (``lanes`` workers
    testing at once) worker ``k % lanes`` testing task ``k`` of the block, each worker its
    tasks one after another, the workers taking turns experience by experience while they
    last (a worker does not come back to a task it has left: sylla's readers refuse that)."""
    each = [[(k, task, i, n, level, gain) for i in range(n)] for k, task, n, level, gain in curves]
    if lanes < 2:
        return [e for one in each for e in one]
    queues = [[e for k, one in enumerate(each) if k % lanes == lane for e in one]
              for lane in range(lanes)]
    out: list[Experience] = []
    for turn in range(max(len(q) for q in queues)):
        out += [q[turn] for q in queues if turn < len(q)]
    return out


def pinned() -> list[dict[str, Any]]:
    """Logs of the shapes `log_specs` draws only now and then, every time (issue 38): two
    workers testing three tasks at once (each experience a regime) with a task only ever
    tested; two variants of a task tested in one test block, one after the other (one regime
    in variant-agnostic mode), with task parameters and incomplete experiences (the first and
    the last among them), in format 1.0; a task that trains on experience 0 alone (l2metrics'
    slope fit fails, and with it its sample efficiency for every task)."""
    rng = random.Random(3800)
    abc = [("alpha_v0", 6), ("beta_v0", 6), ("gamma_v0", 4)]
    workers = [("test", "wake", abc), ("train", "wake", [("alpha_v0", 40)]),
               ("test", "wake", abc), ("train", "wake", [("beta_v0", 40)]),
               ("test", "wake", abc), ("train", "wake", [("alpha_v0", 30)]),
               ("test", "wake", abc)]
    both = [("alpha_v0", 5), ("alpha_v1", 5), ("beta_v0", 5)]
    variants = [("test", "wake", both), ("train", "wake", [("alpha_v0", 40)]),
                ("test", "wake", both), ("train", "wake", [("alpha_v1", 30)]),
                ("test", "wake", both), ("train", "wake", [("beta_v0", 30)]),
                ("test", "wake", both)]
    pair = [("alpha_v0", 5), ("beta_v0", 5)]
    exp0 = [("train", "wake", [("alpha_v0", 1)]), ("test", "wake", pair),
            ("train", "wake", [("beta_v0", 40)]), ("test", "wake", pair)]
    out = []
    for name, plan, version, rows, who, incomplete, params in (
            ("workers", workers, "1.1", 3, ["worker-0", "worker-1"], 0.0, None),
            ("variants", variants, "1.0", 2, ["worker-default"], 0.1,
             _params(("alpha_v0", "alpha_v1", "beta_v0"))),
            ("exp0", exp0, "1.1", 1, ["worker-default"], 0.0, None)):
        log = _spec("run", plan, rng, version, rows, who, incomplete, False, 0,
                    interleaved=len(who) > 1, params=params)
        if incomplete:  # the first and last experience too: l2metrics' runtime leaves them out
            for record in (log["records"][0], log["records"][-1]):
                record[6] = "incomplete"
        tasks = sorted({t for _, _, parts in plan for t, _ in parts})
        out.append({"log": log, "tasks": tasks, "shape": {"pinned": name}})
    return out


def ties() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Logs whose values tie, and STE runs for their tasks (docs/metrics.md, "Ties"):

    - ``edge``: blocks of 15-19 experiences, where l2metrics' default window is 3, falling from
      their first experiences with a dip at the second (so the smoothed maximum is at the
      block's start, where the reflected padding makes the first and third smoothed values
      means of the same three numbers), with 1 and 3 rows per experience;
    - ``integers``: integer rewards 0-3, so that windows of equal sums tie exactly;
    - ``plateau``: curves that rise to a cap and stay there (many equal values at the maximum,
      as clamping makes them too).
    """
    rng = random.Random(3802)

    def edge(i: int, n: int, level: float) -> float:  # high first, a dip at the second
        return round(level + 4 - 0.5 * i - (1.0 if i == 1 else 0.0) + rng.gauss(0, 0.2), 6)

    def integers(i: int, n: int, level: float) -> float:
        return float(min(3, max(0, round(level / 3 + i / max(n, 1) + rng.gauss(0, 0.8)))))

    def plateau(i: int, n: int, level: float) -> float:  # the cap no binary fraction
        return round(min(level + 5.3, level + 0.53 * i), 6)

    logs = []
    for name, curve, rows, sizes in (("edge", edge, 1, (15, 19)), ("edge3", edge, 3, (15, 19)),
                                     ("integers", integers, 1, (15, 60)),
                                     ("plateau", plateau, 2, (20, 60))):
        plan = [("train", "alpha_v0"), ("test", "alpha_v0"), ("train", "beta_v0"),
                ("test", "alpha_v0"), ("test", "beta_v0"), ("train", "alpha_v0"),
                ("test", "alpha_v0"), ("test", "beta_v0")]
        records: list[list[Any]] = []
        exp = 0
        for block, (kind, task) in enumerate(plan):
            n = rng.randint(*sizes)
            level = 2.0 if task == "alpha_v0" else 5.0
            for i in range(n):
                values = [[curve(i, n, level), curve(i, n, level)]
                          for _ in range(rng.randint(1, rows))]
                records.append(["worker-default", block, exp, kind, "wake", task, "complete",
                                values])
                exp += 1
        logs.append({"log": {"dir": "", "scenario": "run", "version": "1.1", "perf": PERF,
                             "records": records},
                     "tasks": ["alpha_v0", "beta_v0"], "shape": {"ties": name}})
    stes = []
    for k, (task, curve) in enumerate((("alpha_v0", edge), ("alpha_v0", plateau),
                                       ("beta_v0", integers), ("beta_v0", plateau))):
        n = rng.randint(15, 40)
        stes.append({"dir": "", "scenario": f"ste-{task}-{k}", "version": "1.1", "perf": PERF,
                     "records": [["worker-default", 0, i, "train", "wake", task, "complete",
                                  [[curve(i, n, 3.0), curve(i, n, 3.0)]]] for i in range(n)]})
    return logs, stes
