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
from typing import Iterable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa

from sylla.grammar.syllabus.model import Syllabus
from sylla.grammar.syllabus.schedule import schedule

from .feasibility import kind_of
from .synth import STANDARD_11


@dataclass(frozen=True)
class Learner:
    gain: float = 4.0
    forgetting: float = 0.1
    transfer: float = 0.1
    noise: float = 0.1
    base: float = 1.0


#: episodes made at a time: memory stays flat in the length of the schedule (a count of 10^12
#: allocated 7 TiB at once, issue 38); the episodes, and their random draws, are those of one go
CHUNK = 1 << 20


def simulate(model: Syllabus, seed: int = 0, learner: Learner = Learner()) -> pd.DataFrame:
    """One row per episode: ``episode``, ``task``, ``block_type``, ``block``, ``reward``."""
    frames = list(simulate_chunks(model, seed, learner))
    if not frames:
        return pd.DataFrame(columns=["episode", "task", "block_type", "block", "reward"])
    return pd.concat(frames, ignore_index=True)


def simulate_chunks(model: Syllabus, seed: int = 0, learner: Learner = Learner()) -> Iterator[pd.DataFrame]:
    """``simulate``'s rows in order, ``CHUNK`` episodes of one block at most at a time."""
    rng = np.random.default_rng(seed)
    blocks = schedule(model).blocks
    level: dict[str, float] = {b.task: learner.base for b in blocks}  # every task can receive transfer
    episode = 0
    for k, b in enumerate(blocks):
        n = b.end - b.start
        if n <= 0:
            continue
        kind = kind_of(b)
        now = level[b.task]
        if kind == "train":
            level[b.task] = now + learner.gain * (1 - np.exp(-5.0))
            for other in list(level):
                if other != b.task:
                    above = level[other] - learner.base
                    level[other] = learner.base + above * (1 - learner.forgetting) + learner.transfer * learner.gain
        for lo in range(0, n, CHUNK):
            hi = min(n, lo + CHUNK)
            if kind == "train":
                i = np.arange(lo, hi, dtype=float)
                curve = now + learner.gain * (1 - np.exp(-5 * (i + 1) / n))
            else:
                curve = np.full(hi - lo, now)
            reward = np.maximum(curve + rng.normal(0, learner.noise, hi - lo), 1e-3)
            yield pd.DataFrame({"episode": np.arange(episode + lo, episode + hi), "task": b.task,
                                "block_type": kind, "block": k, "reward": np.round(reward, 6)})
        episode += n


def write_csv(frames: pd.DataFrame | Iterable[pd.DataFrame], path: str | Path) -> int:
    """The log as ``episode,task,block_type,reward``, chunk by chunk; the number of episodes."""
    written = 0
    with open(path, "w", newline="", encoding="utf-8") as handle:
        for frame in _frames(frames):
            frame[["episode", "task", "block_type", "reward"]].to_csv(handle, index=False, header=not written)
            written += len(frame)
        if not written:
            handle.write("episode,task,block_type,reward\n")
    return written


def write_l2logger(frames: pd.DataFrame | Iterable[pd.DataFrame], directory: str | Path,
                   worker: str = "worker-default") -> Path:
    """An l2logger 1.1 run directory holding the simulated episodes, written chunk by chunk."""
    import pyarrow.csv as pacsv  # noqa: PLC0415 - lazy: start-up, pyarrow.csv loads only when used

    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    (root / "logger_info.json").write_text(json.dumps({"metrics_columns": ["reward"], "log_format_version": "1.1"},
                                                      indent=2))
    (root / "scenario_info.json").write_text(json.dumps(
        {"complexity": "1-low", "difficulty": "2-medium", "scenario_type": "custom", "generated_by": "sylla simulate"},
        indent=2))
    columns = STANDARD_11 + ["reward"]
    handle = None
    block, num = None, -1
    try:
        for part in _frames(frames):
            for key, piece in part.groupby("block", sort=True):
                kind = str(piece["block_type"].iat[0])
                if key != block:
                    if handle is not None:
                        handle.close()
                    block, num = key, num + 1
                    folder = root / worker / f"{num}-{kind}"
                    folder.mkdir(parents=True, exist_ok=True)
                    handle = open(folder / "data-log.tsv", "wb")  # one file per block, closed when the next begins
                    handle.write(("\t".join(columns) + "\n").encode())
                data = pd.DataFrame({
                    "block_num": num, "exp_num": piece["episode"].to_numpy(), "worker_id": worker, "block_type": kind,
                    "block_subtype": "wake", "task_name": piece["task"].to_numpy(), "task_params": "{}",
                    "exp_status": "complete", "timestamp": "20240101T000000.000000", "reward": piece["reward"].to_numpy(),
                })[columns]
                assert handle is not None
                pacsv.write_csv(pa.Table.from_pandas(data, preserve_index=False), handle, write_options=pacsv.WriteOptions(
                    delimiter="\t", quoting_style="none", include_header=False))
    finally:
        if handle is not None:
            handle.close()
    return root


def _frames(frames: pd.DataFrame | Iterable[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    if isinstance(frames, pd.DataFrame):
        yield frames
    else:
        yield from frames
