"""``--ste-store DIR`` then ``--ste DIR`` gives the numbers that ``--ste RUN...`` gives.

The store once kept one mean per experience and dropped the rows and ``exp_num``, so STE runs
with several rows per experience came back with other numbers (lifetime ``ste_rel_perf`` 0.992
became 0.955, and a test-only task's normalisation range moved). These tests store such runs,
in both formats and with a performance column that is not ``reward``, and read them back
through the command line as a user does, with no ``--perf`` for the store.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sylla.cli import main
from sylla.metrics.synth import alternating_plan, write_l2logger

from .conftest import assert_same_document

TASKS = ["alpha_v0", "beta_v0", "gamma_v0"]


def _runs(tmp_path: Path) -> tuple[Path, list[Path]]:
    log = write_l2logger(tmp_path / "log", alternating_plan(TASKS, 60, 12, cycles=2), seed=4,
                         rows_per_exp=3, perf="score")
    stes = [write_l2logger(tmp_path / "ste" / f"{t}-{k}",
                           [("train", [(t, 70 + 9 * k)]), ("test", [(u, 8) for u in TASKS])],
                           seed=20 + 3 * i + k, rows_per_exp=3, perf="score")
            for i, t in enumerate(TASKS[:2]) for k in range(2)]
    return log, stes


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["metrics", "--no-progress", "-f", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_store_round_trip_gives_the_same_document(fmt, tmp_path, capsys):
    log, stes = _runs(tmp_path)
    store = tmp_path / "store"
    given = [a for s in stes for a in ("--ste", str(s))]
    direct = _json(["-l", str(log), "--perf", "score", *given, "--ste-store", str(store),
                    "--ste-store-format", fmt], capsys)
    assert len(list(store.rglob(f"*.{fmt}"))) == len(stes)
    back = _json(["-l", str(log), "--perf", "score", "--ste", str(store)], capsys)
    assert direct["lifetime"]["ste_rel_perf"] is not None
    assert direct["lifetime"]["sample_efficiency"] is not None
    assert_same_document(direct, back)


def test_store_keeps_rows_and_experience_numbers(tmp_path):
    import pandas as pd

    from sylla.metrics.data import as_frame
    from sylla.metrics.readers.ste_store import read_ste_store
    from sylla.metrics.ste import load_ste

    _, stes = _runs(tmp_path)
    store = tmp_path / "store"
    from sylla.metrics.ste import store_ste

    loaded = load_ste([stes[0]], "score")
    (written,) = store_ste(loaded, store, "parquet", "score")
    frame = pd.read_parquet(written)
    original = loaded["alpha_v0"][0]
    assert len(frame) == original.logged.perf.size > original.perf.size  # rows, not episodes
    assert list(frame.columns)[-1] == "score"
    back = read_ste_store(written)
    assert back.rows is not None
    assert (back.rows.perf == original.rows.perf).all()
    assert (back.exp == original.exp).all() and (back.perf == original.perf).all()
    blocks = as_frame(original.blocks)  # a run read block by block has `Columns` (issue 24)
    assert back.blocks[["task", "kind", "start", "stop"]].equals(
        blocks[["task", "kind", "start", "stop"]].astype({"start": "int64",
                                                                   "stop": "int64"}))
