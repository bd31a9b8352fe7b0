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

from sylla.grammar.trials.synth import write_delivery, write_edge_trials
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


def _curve(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(folder), "--trials", str(JSON), "-f", "json"],
                          capture_output=True, text=True)


def _accuracy(out: subprocess.CompletedProcess[str]) -> dict[tuple[str, int], float]:
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["rows"]
    return {(r["group"], r["trial"]): r["value"] for r in rows if r["section"] == "accuracy" and r["metric"] == "accuracy"}


def _zero_based(src: Path, dst: Path, stray_trial: str | None) -> int:
    """``src``'s delivery written with trials from 0 (a known deviant shape); with ``stray_trial``,
    one more predictions row: a copy of row 6 with that trial. Returns the stray row's line."""
    import csv

    dst.mkdir()
    line = 0
    for name in ("predictions.csv", "bests.csv", "samples.csv", "description.md"):
        text = (src / name).read_text()
        if name.endswith(".csv"):
            lines = text.splitlines()
            rows = list(csv.reader(lines[1:]))
            for r in rows:
                r[3] = str(int(r[3]) - 1)
            if name == "predictions.csv" and stray_trial is not None:
                rows.append(list(rows[4]))
                rows[-1][3] = stray_trial
                line = len(rows) + 1
            quote = {0, 4, 5, 6, 8}
            text = "\n".join([lines[0]] + [",".join(f'"{v}"' if i in quote else v for i, v in enumerate(r)) for r in rows]) + "\n"
        (dst / name).write_text(text)
    return line


@pytest.mark.parametrize("stray", ["11", "12", "-1"])
def test_a_stray_trial_number_moves_no_other_row(clean: Path, tmp_path: Path, stray: str) -> None:
    """Issue 38: one row with a trial its file's numbering (from 0) does not have flipped the
    inferred numbering, moved every legitimate row and shifted the curve, with exit 0. The
    trial files decide: the curve is the one of the same delivery numbered as the request asks,
    and the stray row is named."""
    want = _accuracy(_curve(clean))
    line = _zero_based(clean, tmp_path / "d", stray)
    out = _curve(tmp_path / "d")
    assert _accuracy(out) == want
    assert f"predictions.csv: 1 trial outside 0..10, the file's numbering: rows {line}" in out.stderr


def test_a_stray_trial_number_without_inputs_is_refused_and_named(tmp_path: Path) -> None:
    """The real bests.csv shape has no input column: nothing but the values tells the numbering,
    and trial 11 (only the request's numbering has it) against trial 0 (only a numbering from 0)
    cannot be settled. No curve is drawn on a guess; the stray row is named."""
    shutil.copytree(FIXTURES / "deviant", tmp_path / "d")
    bests = tmp_path / "d" / "bests.csv"
    lines = bests.read_text().splitlines()
    lines.append(lines[2].replace(",1,1,1,", ",1,1,11,", 1))
    bests.write_text("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(tmp_path / "d"), "--trials", str(JSON)],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "accuracy by trial" not in r.stdout
    assert f"bests.csv:{len(lines)}:" in r.stderr and f"row {len(lines)})" in r.stderr


def test_programs_and_numbers_past_python_s_limits_are_bad_rows_not_tracebacks(clean: Path, tmp_path: Path) -> None:
    """Issue 38: a program nested 70,000 deep, a 5,000-digit constant, a trial of 5,000 digits
    and an nll of nan: each row is set aside and named; the rest computes."""
    import csv

    shutil.copytree(clean, tmp_path / "d")
    preds = tmp_path / "d" / "predictions.csv"
    lines = preds.read_text().splitlines()
    edits = {3: (8, "(lambda " + "(cons 1 " * 70_000 + "$0" + ")" * 70_001), 4: (8, "(lambda (cons 1" + "2" * 5000 + " $0))"),
             5: (3, "9" * 5000), 6: (12, "nan")}
    for line, (index, value) in edits.items():
        fs = next(csv.reader([lines[line - 1]]))
        fs[index] = value
        lines[line - 1] = ",".join(f'"{v}"' if i in {0, 4, 5, 6, 8} else v for i, v in enumerate(fs))
    preds.write_text("\n".join(lines) + "\n")
    r = _curve(tmp_path / "d")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    named = {int(n) for line in r.stderr.splitlines() if line.startswith("sylla: bad rows: predictions.csv")
             for n in line.rsplit("rows ", 1)[1].replace("...", "").split(",") if n.strip().isdigit()}
    assert set(edits) <= named
    assert json.loads(r.stdout)["rows"]


def test_trial_files_past_python_s_limits_are_a_clear_refusal(clean: Path, tmp_path: Path) -> None:
    trials = tmp_path / "json"
    shutil.copytree(JSON, trials)
    shutil.copy(write_edge_trials(str(JSON), str(tmp_path / "edge"))["c046_1.json"], trials / "c046_1.json")
    r = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(clean), "--trials", str(trials)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "c046_1.json: its examples cannot be read" in r.stderr
