"""Single-task-expert (STE) data: load runs given with ``--ste``, and store them on request.

Each ``--ste PATH`` is one run (an l2logger or learnkit directory, or a plain log of one task) or
a directory holding such runs. A run must train exactly one task. Stored STE data is written as
Parquet or CSV, one self-describing file per run (``<dir>/<task>/<run>.<ext>`` with ``task``,
``block``, ``block_type``, ``episode`` and the performance column) so it can be given back to
``--ste`` later. Never pickle: a pickle runs code when loaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .align import align
from .data import RunData
from .errors import EXIT_USAGE, MetricsError
from .readers import read_log
from .readers.l2logger import is_l2logger
from .readers.learnkit import is_learnkit
from .readers.plain import kind_of


def _runs_in(path: Path) -> list[Path]:
    """The runs under ``path``: itself if it is one, else every run below it.

    The walk stops at a run directory (l2logger or learnkit), so a run's own metadata
    (``logger_info.json``, ``scenario_info.json``) and data files are never taken for runs.
    """
    if not path.exists():
        raise MetricsError("no such STE file or directory", str(path), exit_code=EXIT_USAGE)
    if path.is_file() or is_l2logger(path) or is_learnkit(path):
        return [path]
    found: list[Path] = []
    stack = [path]
    while stack:
        folder = stack.pop()
        for child in sorted(folder.iterdir(), reverse=True):
            if child.is_dir():
                if is_l2logger(child) or is_learnkit(child):
                    found.append(child)
                else:
                    stack.append(child)
            elif kind_of(child):
                found.append(child)
    if not found:
        raise MetricsError("no STE runs here (expected l2logger or learnkit directories or "
                           "plain logs)", str(path), exit_code=EXIT_USAGE)
    return sorted(found, key=lambda p: _natural(str(p)))


def _natural(text: str) -> tuple:
    import re

    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text))


def load_ste(paths: list[str | Path], perf: str | None = None) -> dict[str, list[RunData]]:
    """Task name -> STE runs, in the order given."""
    out: dict[str, list[RunData]] = {}
    for given in paths:
        for path in _runs_in(Path(given)):
            log = read_log(path, perf, stream=True)
            frame = log.frame
            if "task" not in frame.columns:
                frame["task"] = path.stem
            if "kind" not in frame.columns:
                frame["kind"] = "train"
            runs, _ = align(log)
            for run in runs:
                trained = list(dict.fromkeys(run.blocks[run.blocks.kind == "train"].task))
                if len(trained) != 1:
                    raise MetricsError(
                        f"an STE run must train exactly one task, this one trains "
                        f"{len(trained)} ({', '.join(map(str, trained)) or 'none'})", str(path))
                run.run = str(path.name)
                out.setdefault(str(trained[0]), []).append(run)
    return out


def store_ste(ste: dict[str, list[RunData]], directory: str | Path, fmt: str = "parquet",
              perf: str = "reward") -> list[Path]:
    """Write each STE run as Parquet or CSV; returns the files written."""
    if fmt not in ("parquet", "csv"):
        raise MetricsError(f"STE store format must be parquet or csv, not {fmt!r}",
                           exit_code=EXIT_USAGE)
    written: list[Path] = []
    for task, runs in ste.items():
        folder = Path(directory) / _safe(task)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MetricsError(f"cannot create directory: {exc.strerror}", str(folder),
                               exit_code=EXIT_USAGE) from None
        for run in runs:
            b = run.blocks
            counts = b["count"].to_numpy(dtype=np.int64)
            frame = pd.DataFrame({
                "task": np.repeat(b.task.to_numpy(), counts),
                "block": np.repeat(b.block.to_numpy(), counts),
                "block_type": np.repeat(b.kind.to_numpy(), counts),
                "episode": np.arange(run.perf.size),
                perf: np.asarray(run.perf),
            })
            target = folder / f"{_safe(Path(run.run).stem)}.{fmt}"
            if fmt == "parquet":
                frame.to_parquet(target, index=False)
            else:
                frame.to_csv(target, index=False)
            written.append(target)
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "task"
