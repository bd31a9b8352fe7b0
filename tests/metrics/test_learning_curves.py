"""``sylla metrics --log DELIVERY_DIR --trials json/``: learning curves checked against
independent computations (pandas on the raw CSV, hand-worked Wilson intervals and variances),
and derived predictions checked against the predictions they replace."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sylla.grammar.trials.synth import write_delivery
from sylla.metrics.learning_curves import accuracy_by_trial, search_sensitivity, variance_by_trial, wilson
from sylla.metrics.readers.deliveries import read_trials

FIXTURES = Path(__file__).parent.parent / "fixtures" / "trials"
JSON = FIXTURES / "json"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("delivery")
    write_delivery(str(folder), [46, 92], bests_per_trial=6)
    return folder


def test_wilson_by_hand() -> None:
    # 1 of 10 at 95 %: centre (0.1 + 1.92/10)/(1 + 3.84/10) = 0.2111, half-width 0.1932
    lo, hi = wilson(1, 10)
    assert (lo, hi) == (pytest.approx(0.0179, abs=1e-4), pytest.approx(0.4042, abs=1e-4))
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)


def test_variance_by_hand() -> None:
    # one (problem, order) cell with runs 1,0,1,0,1: mean 0.6, Σ(x-m)² = 3·0.16 + 2·0.36 = 1.2, /4 = 0.3
    # one (problem, run) cell across orderings 1 and 2 with 1 and 1: variance 0
    df = pd.DataFrame({"problem": [1] * 6, "group": "P1.1", "run": [1, 2, 3, 4, 5, 1], "order": [1, 1, 1, 1, 1, 2],
                       "trial": 1, "accuracy": [1, 0, 1, 0, 1, 1]})
    v = variance_by_trial(df).iloc[0]
    assert v["var_runs"] == pytest.approx(0.3)
    assert v["var_orders"] == pytest.approx(0.0) and v["cells_orders"] == 1


def test_accuracy_matches_pandas_on_the_raw_file(clean: Path) -> None:
    data = read_trials(str(clean), str(JSON))
    assert not data.derived and len(data.predictions) == 2 * 5 * 5 * 11
    got = accuracy_by_trial(data.predictions)
    raw = pd.read_csv(clean / "predictions.csv")
    want = raw.groupby("trial")["accuracy"].mean()
    allg = got[got["group"] == "all"].set_index("trial")["accuracy"]
    assert np.allclose(allg.loc[want.index].to_numpy(), want.to_numpy())
    p2 = got[got["group"] == "P2"].set_index("trial")["accuracy"]
    want2 = raw[raw["problem"] == "c092"].groupby("trial")["accuracy"].mean()
    assert np.allclose(p2.loc[want2.index].to_numpy(), want2.to_numpy())


def test_derived_predictions_equal_the_delivered_ones(clean: Path, tmp_path: Path) -> None:
    shutil.copytree(clean, tmp_path / "d")
    (tmp_path / "d" / "predictions.csv").unlink()
    derived = read_trials(str(tmp_path / "d"), str(JSON))
    assert derived.derived and any("derived" in n or "missing" in n for n in derived.notes)
    given = read_trials(str(clean), str(JSON))
    key = ["problem", "run", "order", "trial"]
    a = derived.predictions.sort_values(key).reset_index(drop=True)
    b = given.predictions.sort_values(key).reset_index(drop=True)
    assert a[key + ["accuracy"]].equals(b[key + ["accuracy"]].astype(a[key + ["accuracy"]].dtypes.to_dict()))


def test_search_sensitivity_ends_at_the_final_accuracy(clean: Path) -> None:
    data = read_trials(str(clean), str(JSON))
    s = search_sensitivity(data.bests)
    allt = s[s["trial"] == 0]
    assert allt["accuracy"].iloc[-1] == pytest.approx(data.predictions["accuracy"].mean())
    assert allt["accuracy"].iloc[0] <= allt["accuracy"].iloc[-1]
    for trial in range(1, 12):
        last = s[s["trial"] == trial]["accuracy"].iloc[-1]
        assert last == pytest.approx(data.predictions[data.predictions["trial"] == trial]["accuracy"].mean())


def test_bad_rows_are_counted_and_the_rest_computes(clean: Path, tmp_path: Path) -> None:
    shutil.copytree(clean, tmp_path / "d")
    preds = tmp_path / "d" / "predictions.csv"
    lines = preds.read_text().splitlines(keepends=True)
    lines[4] = lines[4].replace("(lambda", "(lambda (", 1)   # row 5: unparseable
    lines[9] = lines[9].replace('"(lambda', '"(lambda (cons true', 1).replace(')",', '))",', 1)  # row 10
    preds.write_text("".join(lines))
    data = read_trials(str(tmp_path / "d"), str(JSON))
    assert data.bad["predictions.csv"]["unparseable program"] == [5]
    assert 10 in data.bad["predictions.csv"].get("ill-typed program", []) + data.bad["predictions.csv"].get("unparseable program", [])
    assert len(data.predictions) == 550 - 2


@pytest.mark.slow
def test_cli_outputs_and_plots(clean: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    for fmt in ("text", "json", "csv", "parquet"):
        r = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(clean), "--trials", str(JSON),
                            "-f", fmt, "-o", str(out)] + (["--plots"] if fmt == "text" else []),
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    assert "accuracy by trial" in (out / "learning_curves.txt").read_text()
    doc = json.loads((out / "learning_curves.json").read_text())
    assert {r["section"] for r in doc["rows"]} == {"accuracy", "variance", "search"}
    table = pd.read_parquet(out / "learning_curves.parquet")
    flat = pd.read_csv(out / "learning_curves.csv")
    assert list(table.columns) == list(flat.columns) and len(table) == len(flat) == len(doc["rows"])
    assert np.allclose(table["value"].to_numpy(dtype=float), flat["value"].to_numpy(dtype=float), equal_nan=True)
    for name in ("accuracy_by_trial.png", "variance_by_trial.png", "search_sensitivity.png"):
        assert (out / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_deviant_delivery_still_draws_curves(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(FIXTURES / "deviant"), "--trials", str(JSON)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "derived from bests.csv" in r.stdout and "one run" in r.stdout
    assert "numbers trials from 0" in r.stdout and "typographic" in r.stdout
    # 2 problems × 5 orderings × 1 run × 11 trials
    assert "110 trials" in r.stdout


def test_missing_delivery_is_a_clear_error(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(tmp_path / "nope"), "--trials", str(JSON)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "nope" in r.stderr
