"""Reading a sweep's rows: a value no sweep writes (inf, or past ±1e100) is a located error.

1e308 in one run-level row overflowed the bootstrap's sums: numpy warnings and intervals of
nothing, exit 0 (issue 38). NaN stays what a sweep writes for a metric it could not compute.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sylla.metrics.compare.source import read_rows
from sylla.metrics.errors import MetricsError

SWEEP = Path(__file__).resolve().parents[2] / "fixtures" / "compare" / "sweep"


def _damaged(tmp_path: Path, value: float) -> Path:
    out = tmp_path / "sweep"
    shutil.copytree(SWEEP, out)
    part = out / "rows" / "part-00000.parquet"
    rows = pd.read_parquet(part)
    i = rows.index[rows.block.isna()][0]
    rows.loc[i, "value"] = value
    rows.to_parquet(part)
    return out


@pytest.mark.parametrize("value", [math.inf, -math.inf, 1e308, -5e150])
def test_a_value_the_bootstrap_cannot_sum_is_refused_with_its_run(tmp_path: Path, value: float) -> None:
    with pytest.raises(MetricsError) as info:
        read_rows(_damaged(tmp_path, value))
    assert f"a metric value is {value:g} (run " in info.value.message and "metric " in info.value.message


def test_nan_is_read_as_the_sweep_writes_it(tmp_path: Path) -> None:
    rows = read_rows(_damaged(tmp_path, math.nan))
    assert rows["value"].isna().sum() == pd.read_parquet(SWEEP / "rows" / "part-00000.parquet")["value"].isna().sum() + 1
