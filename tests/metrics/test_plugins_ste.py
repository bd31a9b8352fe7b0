"""A third-party plugin registered through the entry-point group reaches every output; STE data
is stored as Parquet/CSV and loads back the same."""

from __future__ import annotations

import json
import sys
import textwrap

import pandas as pd
import pytest

from sylla.cli import main
from sylla.metrics import compute_metrics

from .conftest import FIXTURES, SYLLABUS


@pytest.fixture
def third_party(tmp_path, monkeypatch):
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "my_metric.py").write_text(textwrap.dedent('''
        from sylla.metrics.registry import Parameter, row

        class Peak:
            name = "peak"
            description = "largest episode value times a factor"
            emits = ("peak",)
            inputs = ("log",)
            parameters = (Parameter("factor", 1.0, "multiplier", type=float),)

            def compute(self, ctx):
                f = ctx.params["factor"]
                b = ctx.run.blocks
                out = [row("peak", ctx.run.perf[a:z].max() * f, t, int(k), p)
                       for k, t, p, a, z in zip(b.block, b.task, b.phase, b.start, b.stop)]
                out.append(row("peak", ctx.run.perf.max() * f))
                out.append(row("peak", 1.0 * f, "Pong"))
                return out
    '''))
    dist = pkg / "my_metric-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-metric\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[sylla.metrics]\npeak = my_metric:Peak\n")
    monkeypatch.syspath_prepend(str(pkg))
    yield
    sys.modules.pop("my_metric", None)


def test_third_party_metric_in_every_output(third_party, tmp_path, capsys):
    base = ["metrics", "--syllabus", str(SYLLABUS), "--log", str(FIXTURES / "rewards.csv")]
    assert main(base + ["--list"]) == 0
    assert "peak: largest episode value" in capsys.readouterr().out
    assert main(base + ["--format", "json", "-P", "factor=2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lifetime"]["peak"] == 16.0
    assert data["tasks"]["Pong"]["peak"] == 2.0
    assert data["blocks"][0]["metrics"]["peak"] == 12.0
    assert main(base + ["--format", "parquet", "--out", str(tmp_path)]) == 0
    pq = pd.read_parquet(tmp_path / "metrics.parquet")
    assert (pq.metric == "peak").sum() == 8
    assert main(base) == 0
    assert "peak" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_ste_store_round_trip(tmp_path, fmt):
    from sylla.metrics.synth import write_l2logger

    ste_dir = write_l2logger(tmp_path / "ste" / "pong-run", [("train", [("pong", 40)])], seed=3)
    store = tmp_path / "store"
    first = compute_metrics(FIXTURES / "l2logger_v11", ste=[ste_dir], ste_store=store,
                            ste_store_format=fmt, only=["ste_rel_perf"])
    files = list(store.rglob(f"*.{fmt}"))
    assert len(files) == 1 and not list(store.rglob("*.pickle"))
    again = compute_metrics(FIXTURES / "l2logger_v11", ste=[store], only=["ste_rel_perf"])
    a = first.rows.set_index(["task", "metric"]).value
    b = again.rows.set_index(["task", "metric"]).value
    assert len(a) and a.equals(b)


def test_ste_run_with_two_tasks_is_refused():
    from sylla.metrics import MetricsError

    with pytest.raises(MetricsError, match="exactly one task"):
        compute_metrics(FIXTURES / "l2logger_v11", ste=[FIXTURES / "l2logger_v10"])
