"""learnkit-era directories: ``worker-env-K/<n>-<phase>/<task>/data-log.tsv`` beside
``block-report.tsv``.

These predate l2logger. Their data files carry ``phase`` (the syllabus ``$phase`` label, e.g.
``1.train``), ``block`` and ``reward`` columns (and usually ``episode``); the task is the directory
name. Because they carry the phase labels themselves, the phase kind gives train/test.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..data import EpisodeLog
from ..errors import EXIT_USAGE, MetricsError
from .common import check_perf, read_failure

WORKER = re.compile(r"worker-env-(\d+)$")


def is_learnkit(path: Path) -> bool:
    return path.is_dir() and (
        (path / "block-report.tsv").is_file() or any(WORKER.match(p.name) for p in path.iterdir()))


def read_learnkit(path: Path, perf: str = "reward") -> EpisodeLog:
    files = sorted(path.glob("worker-env-*/*/*/data-log.tsv"))
    if not files:
        raise MetricsError("no worker-env-K/<n>-<phase>/<task>/data-log.tsv files", str(path),
                           exit_code=EXIT_USAGE)
    parts = []
    for index, file in enumerate(files):
        try:
            if file.stat().st_size == 0:
                raise MetricsError("the file is empty", str(file))
            raw = pd.read_csv(file, sep="\t")
        except MetricsError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise read_failure(file, exc) from None
        if raw.empty:
            raise MetricsError("the file has a header but no rows", str(file))
        missing = [c for c in ("phase", "block") if c not in raw.columns]
        if missing:
            raise MetricsError(f"missing column(s): {', '.join(missing)}", str(file))
        rows = np.arange(2, len(raw) + 2)
        values = check_perf(raw, perf, str(file), rows)
        worker = WORKER.match(file.parts[-4])
        phase = raw["phase"].astype(str)
        kind = phase.str.rsplit(".", n=1).str[-1]
        bad = ~kind.isin(["train", "test"]).to_numpy()
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricsError(f"phase must look like '<n>.train' or '<n>.test', got "
                               f"{phase.iloc[i]!r}", str(file), int(rows[i]))
        part = pd.DataFrame({
            "worker": worker.group(1) if worker else "0",
            "block_num": pd.to_numeric(raw["block"], errors="coerce").fillna(-1).astype(np.int64),
            "phase": phase.to_numpy(),
            "kind": kind.to_numpy(),
            "subtype": "wake",
            "task": raw["task"].astype(str).to_numpy() if "task" in raw.columns else file.parts[-2],
            "perf": values,
            "row": rows,
            "file": index,
            "order": raw["episode"].to_numpy() if "episode" in raw.columns else np.arange(len(raw)),
        })
        parts.append(part)
    frame = pd.concat(parts, ignore_index=True)
    frame = frame.sort_values(["worker", "block_num", "order"], kind="stable", ignore_index=True)
    keys = ["worker", "block_num", "order"]
    if frame.duplicated(keys).any():
        frame["perf"] = frame.groupby(keys, sort=False)["perf"].transform("mean")
        frame = frame.drop_duplicates(keys, ignore_index=True)
    frame["exp"] = frame.groupby("worker", sort=False).cumcount().to_numpy()
    frame["episode"] = frame["exp"]
    frame["run"] = path.name
    frame["params"] = ""
    frame = frame.drop(columns=["order"])
    return EpisodeLog(frame=frame, path=str(path), format="learnkit", files=[str(f) for f in files])
