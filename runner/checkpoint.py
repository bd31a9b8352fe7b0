"""Checkpoints: the agent's state, the next episode and the log's file sizes, kept atomically.

A checkpoint is a folder ``.sylla-run/ckpt-<episode>/`` (the agent's `save` output) plus the
pointer ``.sylla-run/checkpoint.json`` naming it, replaced in one ``os.replace``. A run killed
at any moment leaves either the old pointer or the new one, each naming a complete folder; a
folder without a pointer is a half-written checkpoint and is removed on resume.

Environments need no state here: each episode resets its environment with a seed derived from
the run's seed and the episode number (`episode_seed`), so an episode is the same whichever
process runs it.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

import numpy as np

if TYPE_CHECKING:
    from .agents.base import Agent

STATE_DIR = ".sylla-run"
POINTER = "checkpoint.json"


@dataclass(frozen=True)
class Checkpoint:
    #: the next episode to run
    episode: int
    #: log file (relative to RUN_DIR) -> its size in bytes at the checkpoint
    log_sizes: Mapping[str, int]
    #: the agent's folder (relative to RUN_DIR), None before the first episode
    agent_dir: str | None


def state_dir(run_dir: Path) -> Path:
    return run_dir / STATE_DIR


def write(run_dir: Path, episode: int, log_sizes: Mapping[str, int], agent: "Agent") -> Checkpoint:
    """Save the agent and point at it; the previous checkpoint's folder is removed after."""
    home = state_dir(run_dir)
    home.mkdir(exist_ok=True)
    folder = home / f"ckpt-{episode:09d}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    agent.save(folder)
    old = read(run_dir)
    point = Checkpoint(episode, dict(log_sizes), folder.relative_to(run_dir).as_posix())
    tmp = home / (POINTER + ".tmp")
    tmp.write_text(json.dumps({"episode": point.episode, "log_sizes": point.log_sizes, "agent_dir": point.agent_dir},
                              indent=1), encoding="utf-8")
    os.replace(tmp, home / POINTER)
    if old is not None and old.agent_dir and old.agent_dir != point.agent_dir:
        shutil.rmtree(run_dir / old.agent_dir, ignore_errors=True)
    return point


def read(run_dir: Path) -> Checkpoint | None:
    path = state_dir(run_dir) / POINTER
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return Checkpoint(int(data["episode"]), {str(k): int(v) for k, v in data["log_sizes"].items()}, data.get("agent_dir"))


def clean_orphans(run_dir: Path, keep: Checkpoint | None) -> None:
    """Remove checkpoint folders the pointer does not name (a checkpoint cut short by a kill)."""
    home = state_dir(run_dir)
    if not home.is_dir():
        return
    for child in home.iterdir():
        if child.name.startswith("ckpt-") and (keep is None or child.relative_to(run_dir).as_posix() != keep.agent_dir):
            shutil.rmtree(child, ignore_errors=True)


def episode_seed(seed: int, episode: int) -> int:
    """The seed of one episode's ``reset``: a function of the run's seed and the episode number
    alone (numpy's SeedSequence mixes the two, so nearby seeds give unrelated episodes)."""
    return int(np.random.SeedSequence([seed, episode]).generate_state(1)[0])
