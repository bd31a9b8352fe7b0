"""Shared fixtures for the metrics tests: fixture paths and hand-made runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sylla.metrics.data import BLOCK_COLUMNS, RunData

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "metrics"
SYLLABUS = FIXTURES / "two_tasks.json"
REWARDS = [1, 2, 3, 4, 5, 6, 5, 5, 0, 2, 2, 4, 6, 8, 8, 8, 4, 4, 8, 6]


def make_run(blocks: list[tuple[str, str, list[float]]], run: str = "r") -> RunData:
    """A run from (task, kind, values) blocks, phases numbered as syllabi do."""
    rows, perf, start, phase = [], [], 0, 0
    previous = None
    for i, (task, kind, values) in enumerate(blocks):
        if kind == "train" and previous != "train":
            phase += 1
        rows.append({"block": i, "task": task, "phase": f"{phase}.{kind}", "phase_number": phase,
                     "kind": kind, "subtype": "wake", "learning": kind == "train", "params": "",
                     "start": start, "stop": start + len(values), "count": len(values),
                     "partial": False})
        perf.extend(values)
        start += len(values)
        previous = kind
    return RunData(run=run, perf=np.array(perf, dtype=float),
                   exp=np.arange(len(perf), dtype=float),
                   blocks=pd.DataFrame(rows, columns=list(BLOCK_COLUMNS)))

