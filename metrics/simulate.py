"""A plausible learner's log under a syllabus (``sylla simulate``): a dry run of the pipeline.

The learner keeps a skill level per task. In a train block the task's reward rises from its
level toward ``level + gain`` along ``1 - exp(-5 i / n)`` (saturating within the block) and the
level moves there; a test block (learning off) is flat at the current level. After each train
block every other task forgets a share ``forgetting`` of its level above the base, and gains
``transfer`` times the trained task's gain (forward transfer). Gaussian noise of ``noise``
is added to every episode. Rewards stay positive (base 1), so ratio metrics are defined.

The episodes follow the syllabus schedule exactly (task, train/test from the learning flag,
block lengths), so the log passes sylla's own alignment; the l2logger shape is the one
``metrics.synth`` writes (l2logger 1.1's layout), one l2logger block per syllabus block.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sylla.grammar.model import Syllabus
from sylla.grammar.schedule import schedule

from .feasibility import kind_of
from .synth import STANDARD_11, write_tsv


@dataclass(frozen=True)
class Learner:
    gain: float = 4.0
    forgetting: float = 0.1
    transfer: float = 0.1
    noise: float = 0.1
    base: float = 1.0


def simulate(model: Syllabus, seed: int = 0, learner: Learner = Learner()) -> pd.DataFrame:
    """One row per episode: ``episode``, ``task``, ``block_type``, ``block``, ``reward``."""
    rng = np.random.default_rng(seed)
    blocks = schedule(model).blocks
    level: dict[str, float] = {b.task: learner.base for b in blocks}  # every task can receive transfer
    frames = []
    episode = 0
    for k, b in enumerate(blocks):
        n = b.end - b.start
        if n <= 0:
            continue
        kind = kind_of(b)
        now = level[b.task]
        i = np.arange(n, dtype=float)
        if kind == "train":
            curve = now + learner.gain * (1 - np.exp(-5 * (i + 1) / n))
            level[b.task] = now + learner.gain * (1 - np.exp(-5.0))
            for other in list(level):
                if other != b.task:
                    above = level[other] - learner.base
                    level[other] = learner.base + above * (1 - learner.forgetting) + learner.transfer * learner.gain
        else:
            curve = np.full(n, now)
        reward = np.maximum(curve + rng.normal(0, learner.noise, n), 1e-3)
        frames.append(pd.DataFrame({"episode": np.arange(episode, episode + n), "task": b.task,
                                    "block_type": kind, "block": k, "reward": np.round(reward, 6)}))
        episode += n
    if not frames:
        return pd.DataFrame(columns=["episode", "task", "block_type", "block", "reward"])
    return pd.concat(frames, ignore_index=True)


def write_csv(frame: pd.DataFrame, path: str | Path) -> None:
    frame[["episode", "task", "block_type", "reward"]].to_csv(path, index=False)


def write_l2logger(frame: pd.DataFrame, directory: str | Path, worker: str = "worker-default") -> Path:
    """An l2logger 1.1 run directory holding the simulated episodes."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    (root / "logger_info.json").write_text(json.dumps({"metrics_columns": ["reward"], "log_format_version": "1.1"},
                                                      indent=2))
    (root / "scenario_info.json").write_text(json.dumps(
        {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom", "generated_by": "sylla simulate"},
        indent=2))
    for num, (_, part) in enumerate(frame.groupby("block", sort=True)):
        kind = str(part["block_type"].iat[0])
        data = pd.DataFrame({
            "block_num": num, "exp_num": part["episode"].to_numpy(), "worker_id": worker, "block_type": kind,
            "block_subtype": "wake", "task_name": part["task"].to_numpy(), "task_params": "{}",
            "exp_status": "complete", "timestamp": "20240101T000000.000000", "reward": part["reward"].to_numpy(),
        })[STANDARD_11 + ["reward"]]
        folder = root / worker / f"{num}-{kind}"
        folder.mkdir(parents=True, exist_ok=True)
        write_tsv(data, folder / "data-log.tsv")
    return root
