"""Synthetic l2logger logs (format 1.0 or 1.1) for tests, the benchmark and the example.

Writes exactly what l2logger's ``DataLogger`` writes (same directory layout, columns, JSON info
files), but vectorised, so the benchmark can produce ten million episodes in seconds.
Rewards rise during training and sit near a task-specific level in tests, with noise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

STANDARD_11 = ["block_num", "exp_num", "worker_id", "block_type", "block_subtype", "task_name",
               "task_params", "exp_status", "timestamp"]

# A block: (block_type, [(task, episodes), ...]); test blocks often hold several tasks.
Plan = Sequence[tuple[str, Sequence[tuple[str, int]]]]


def alternating_plan(tasks: Sequence[str], train: int, test: int, cycles: int = 1) -> list:
    """Test all tasks, then for each task: train it, test all tasks; repeated ``cycles`` times."""
    plan: list = [("test", [(t, test) for t in tasks])]
    for _ in range(cycles):
        for t in tasks:
            plan.append(("train", [(t, train)]))
            plan.append(("test", [(u, test) for u in tasks]))
    return plan


def write_l2logger(directory: str | Path, plan: Plan, seed: int = 0, version: str = "1.1",
                   worker: str = "worker-default", perf: str = "reward",
                   rows_per_exp: int = 1, workers: int = 1, deal: str = "random") -> Path:
    """Write an l2logger run directory and return it.

    ``rows_per_exp > 1`` gives each experience between 1 and that many records (with their own
    noise), as agents that log per step or per evaluation episode do. ``workers > 1`` deals
    each experience to one of that many workers (``worker-0``, ``worker-1``, ...) at random, as
    parallel workers sharing one experience counter log them: each worker writes its
    experiences of a block in its own ``<worker>/<block_num>-<type>`` folder, and a worker that
    got none of a block has no folder for it. ``deal="turns"`` deals each task's experiences of
    a block to the workers in turn instead, so each worker's share is what a syllabus with one
    ``$repeat`` per task and block schedules for it (`sylla.grammar.syllabus.schedule.share`)."""
    rng = np.random.default_rng(seed)
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    info = {"metrics_columns": [perf], "log_format_version": version}
    (root / "logger_info.json").write_text(json.dumps(info, indent=2))
    (root / "scenario_info.json").write_text(json.dumps(
        {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom"}, indent=2))
    skill: dict[str, float] = {}
    exp = 0
    columns = STANDARD_11 if version == "1.1" else [c for c in STANDARD_11 if c != "block_subtype"]
    for block_num, (block_type, parts) in enumerate(plan):
        frames = []
        for task, n in parts:
            level = skill.get(task, 0.0)
            i = np.arange(n, dtype=float)
            if block_type == "train":
                gain = 5.0 + rng.uniform(0, 3)
                curve = level + gain * (1 - np.exp(-5 * i / max(n, 1)))
                skill[task] = level + gain
            else:
                curve = np.full(n, level)
                # forgetting: other tasks' skills decay a little while this one is tested
            reward = curve + rng.normal(0, 1.0, n)
            frame = pd.DataFrame({
                "block_num": block_num, "exp_num": np.arange(exp, exp + n),
                "worker_id": (worker if workers == 1 else
                              np.array([f"worker-{k}" for k in range(workers)])[
                                  np.arange(n) % workers if deal == "turns"
                                  else rng.integers(0, workers, n)]), "block_type": block_type, "block_subtype": "wake",
                "task_name": task, "task_params": "{}", "exp_status": "complete",
                "timestamp": "20240101T000000.000000", perf: np.round(reward, 6),
            })
            if rows_per_exp > 1:
                k = rng.integers(1, rows_per_exp + 1, n)
                frame = frame.loc[np.repeat(frame.index, k)].reset_index(drop=True)
                frame[perf] = np.round(frame[perf].to_numpy() + rng.normal(0, 0.5, len(frame)), 6)
            frames.append(frame)
            exp += n
        if block_type == "train":
            for t in list(skill):
                if t != parts[0][0]:
                    skill[t] *= 0.9
        data = pd.concat(frames, ignore_index=True)[columns + [perf]]
        for name, part in ([(worker, data)] if workers == 1 else
                           data.groupby("worker_id", sort=True)):
            folder = root / str(name) / f"{block_num}-{block_type}"
            folder.mkdir(parents=True, exist_ok=True)
            write_tsv(part.reset_index(drop=True), folder / "data-log.tsv")
    return root


def write_tsv(frame: pd.DataFrame, path: Path) -> None:
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow.csv loads only when used

    table = pa.Table.from_pandas(frame, preserve_index=False)
    with open(path, "wb") as handle:
        handle.write(("\t".join(frame.columns) + "\n").encode())
        pacsv.write_csv(table, handle, write_options=pacsv.WriteOptions(
            delimiter="\t", quoting_style="none", include_header=False))
