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



def assert_same_document(a: object, b: object, where: str = "") -> None:
    """Two JSON documents are equal: the same keys and lengths, floats to 1e-12 (a mean over
    the same numbers in another order may differ in its last digit), everything else exactly."""
    import math

    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (where, sorted(a), sorted(b))
        for k in a:
            assert_same_document(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same_document(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12), (where, a, b)
    else:
        assert a == b, (where, a, b)
