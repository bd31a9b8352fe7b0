"""``run.json``: what a run was made of, beside its log.

It records the syllabus (path and SHA-256 of its bytes), the seed, the agent and its arguments,
the versions of sylla and of the libraries that shape the numbers (gymnasium, minigrid,
l2logger, numpy; stable-baselines3 and torch for its agents), the command line (and, under ``resumed``, each ``--resume`` command after it)
and the run's status (``running``, ``stopped``, ``failed``, ``complete``). ``--resume`` refuses a run whose
manifest names another syllabus, seed, agent or arguments: its rows would not be one run's.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Mapping

from .errors import RunError

FILE = "run.json"
FORMAT = 1
#: the fields that must agree for --resume to go on with a run
SAME = ("syllabus_sha256", "seed", "agent", "agent_args")


def versions(agent: str) -> dict[str, str]:
    """The libraries that shape a run's numbers (stable-baselines3 and torch for its agents)."""
    extra = ("stable-baselines3", "torch") if agent.startswith("sb3-") else ()
    out = {}
    for name in ("sylla", "gymnasium", "minigrid", "l2logger", "numpy", *extra):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            pass
    return out


def new(syllabus: str, text: bytes, seed: int, agent: str, agent_args: Mapping[str, Any], episodes: int,
        command: list[str]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "syllabus": os.path.abspath(syllabus),
        "syllabus_sha256": hashlib.sha256(text).hexdigest(),
        "seed": seed,
        "agent": agent,
        "agent_args": dict(agent_args),
        "episodes": episodes,
        "versions": versions(agent),
        "command": command,
        "status": "running",
    }


def write(run_dir: Path, manifest: Mapping[str, Any]) -> None:
    tmp = run_dir / (FILE + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, run_dir / FILE)


def read(run_dir: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((run_dir / FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RunError(f"unreadable {FILE}: {exc}", str(run_dir)) from None
    if not isinstance(data, dict):
        raise RunError(f"{FILE} is not a sylla run manifest", str(run_dir))
    return data


def check_same(old: Mapping[str, Any], new_: Mapping[str, Any], run_dir: Path) -> None:
    """A `RunError` naming the first field where a resumed run differs from the one on disk."""
    for key in SAME:
        if old.get(key) != new_.get(key):
            shown = "the syllabus's content" if key == "syllabus_sha256" else key
            raise RunError(f"cannot resume: {shown} differs from the run's ({json.dumps(old.get(key))} there, "
                           f"{json.dumps(new_.get(key))} now); start a new run or pass --force to replace it",
                           str(run_dir))
