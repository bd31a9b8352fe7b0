"""``sylla run --dask ADDRESS``: a grid's runs go to a real Dask cluster on the path ``sylla sweep
--dask`` takes (the sweep's executor), and each run there is the run ``sylla run`` makes alone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .support import FIX, rows, sylla

pytestmark = pytest.mark.dask

distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed (pip install 'sylla[dask]')") \
    if not os.environ.get("CI") else __import__("distributed")


def test_a_grid_on_a_local_cluster_equals_the_runs_made_alone(tmp_path: Path) -> None:
    from distributed import Client, LocalCluster

    syllabus = FIX / "ant-minigrid.json"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        proc = sylla("run", str(syllabus), "--agent", "random", "--agent", "tabular-q", "--seeds", "0-1",
                     "-o", str(tmp_path / "grid"), "--dask", cluster.scheduler_address)
        assert proc.returncode == 0, proc.stderr
        with Client(cluster.scheduler_address, timeout="30s") as client:
            prefixes = set(client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.task_prefixes)))
        assert "sylla-each" in prefixes  # the cells ran on the cluster (`Executor.each`)
    alone = tmp_path / "alone"
    assert sylla("run", str(syllabus), "--agent", "tabular-q", "--seed", "1", "-o", str(alone)).returncode == 0
    assert rows(tmp_path / "grid" / "tabular-q" / "seed-1") == rows(alone)


def test_an_address_that_does_not_answer_is_a_usage_error(tmp_path: Path) -> None:
    proc = sylla("run", str(FIX / "empty-5x5.json"), "--agent", "random", "--seeds", "0-1", "-o", str(tmp_path / "g"),
                 "--dask", "tcp://127.0.0.1:9", timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
