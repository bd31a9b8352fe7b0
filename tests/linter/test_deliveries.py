"""``sylla lint DELIVERY_DIR --trials json/``: a delivery in the request's shape generated in a
temp folder (tests/fixtures keeps only the small deviant one), then one mutation per check:
each must be found, once, at its row; the clean delivery must pass."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sylla.grammar.trials.synth import HEADER, write_delivery
from sylla.linter.deliveries import check_delivery

FIXTURES = Path(__file__).parent.parent / "fixtures" / "trials"
JSON = FIXTURES / "json"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("delivery")
    write_delivery(str(folder), [46, 92], bests_per_trial=4)
    return folder


@pytest.fixture
def delivery(clean: Path, tmp_path: Path) -> Path:
    target = tmp_path / "d"
    shutil.copytree(clean, target)
    return target


def findings(folder: Path) -> list[tuple[str, str, int, str, str]]:
    results, errors = check_delivery(str(folder), str(JSON))
    assert errors == []
    return [(Path(path).name, f.code, r.parse.lines.line_col(f.span.start)[0], f.severity.value, f.message)
            for path, r in results for f in r.findings]


def codes(folder: Path) -> list[tuple[str, str, int]]:
    return [(n, c, line) for n, c, line, sev, _ in findings(folder) if sev != "info"]


def edit(path: Path, line: int, fn) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = fn(lines[line - 1])
    path.write_text("".join(lines))


def fields(line: str) -> list[str]:
    import csv

    return next(csv.reader([line]))


def row(fs: list[str]) -> str:
    quoted = {0, 4, 5, 6, 8}
    return ",".join(f'"{v}"' if i in quoted else v for i, v in enumerate(fs)) + "\n"


def set_field(path: Path, line: int, index: int, value: str) -> None:
    def change(text: str) -> str:
        fs = fields(text)
        fs[index] = value
        return row(fs)

    edit(path, line, change)


def test_clean_delivery_passes(clean: Path) -> None:
    assert codes(clean) == []
    out = subprocess.run([sys.executable, "-m", "sylla", "lint", str(clean), "--trials", str(JSON)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_missing_and_duplicate_rows(delivery: Path) -> None:
    preds = delivery / "predictions.csv"
    lines = preds.read_text().splitlines(keepends=True)
    gone = fields(lines[10])  # line 11
    lines[10] = lines[20]     # line 11 now repeats line 21
    preds.write_text("".join(lines))
    found = [f for f in findings(delivery) if f[1] == "W914"]
    assert len(found) == 2
    assert any(f"(c046, run {gone[1]}, order {gone[2]}, trial {gone[3]})" in m and "1 of the 550" in m for *_, m in found)
    assert any("rows 21" in m and line == 21 for _, _, line, _, m in found)


@pytest.mark.parametrize("index, value, code", [
    (7, "1", "W917"),                 # accuracy 1 for a wrong prediction
    (4, "[9,9]", "W916"),             # input is not that trial's test example
    (12, "0.5", "W919"),              # nll
    (11, "1.0", "W920"),              # nlp
    (8, "(lambda (cons 7 $0)", "W915"),  # unparseable program
    (8, "(lambda (cons true $0))", "W915"),  # ill-typed
])
def test_one_mutation_one_finding(delivery: Path, index: int, value: str, code: str) -> None:
    preds = delivery / "predictions.csv"
    line = 2
    while fields(preds.read_text().splitlines()[line - 1])[7] != "0":  # a wrong prediction
        line += 1
    set_field(preds, line, index, value)
    assert codes(delivery) == [("predictions.csv", code, line)]


def test_predicted_other_than_the_program(delivery: Path) -> None:
    preds = delivery / "predictions.csv"
    fs = fields(preds.read_text().splitlines()[4])
    set_field(preds, 5, 6, "[1,2,3,4,5,6,7,8]")
    want = [("predictions.csv", "W918", 5)]
    if fs[7] == "1":  # the row was right; its accuracy is now wrong too
        want.append(("predictions.csv", "W917", 5))
    assert sorted(codes(delivery)) == sorted(want)


def test_hand_computed_row(tmp_path: Path) -> None:
    # c046 ordering 1, trial 3: trains on examples 1-2, tests on example 3; (lambda (cons 7 $0))
    # is right on both: nll = 2 × 0.07043928; nlp = ln 25 + ln 11.5 + ln 2.5 (docs/trials.md)
    ex = json.loads((JSON / "c046_1.json").read_text())["data"][2]
    show = lambda xs: "[" + ",".join(map(str, xs)) + "]"
    nlp = math.log(25) + math.log(11.5) + math.log(2.5)
    line = f'"c046",1,1,3,"{show(ex["i"])}","{show(ex["o"])}","{show(ex["o"])}",1,"(lambda (cons 7 $0))",1.5,10,{nlp:.4f},0.1409'
    (tmp_path / "predictions.csv").write_text(HEADER + "\n" + line + "\n")
    semantic = [c for c in codes(tmp_path) if c[1] in ("W916", "W917", "W918", "W919", "W920", "W915")]
    assert semantic == []
    (tmp_path / "predictions.csv").write_text(HEADER + "\n" + line.replace(",0.1409", ",0.1509") + "\n")
    assert ("predictions.csv", "W919", 2) in codes(tmp_path)


def test_length_column_accepted_and_said(delivery: Path) -> None:
    preds = delivery / "predictions.csv"
    lines = preds.read_text().splitlines()
    out = [HEADER.replace("count,", "count,length,")]
    for ln in lines[1:]:
        fs = fields(ln)
        out.append(row(fs[:11] + ["5"] + fs[11:]).rstrip("\n").replace('"5"', "5"))
    preds.write_text("\n".join(out) + "\n")
    assert codes(delivery) == []  # nothing at warning or error
    got = [f for f in findings(delivery) if f[0] == "predictions.csv" and f[1] == "W911"]
    assert [(c, sev) for _, c, _, sev, _ in got] == [("W911", "info")]
    assert "length" in got[0][4] and "accepted" in got[0][4]


def test_unquoted_rows_reported_once(delivery: Path) -> None:
    preds = delivery / "predictions.csv"
    for line in (3, 7):
        edit(preds, line, lambda t: t.replace('"c046"', "c046", 1).replace('"c092"', "c092", 1))
    got = codes(delivery)
    assert got == [("predictions.csv", "W912", 3)]
    assert any("rows 3, 7" in m for _, c, _, _, m in findings(delivery) if c == "W912")


def test_bests_out_of_order(delivery: Path) -> None:
    bests = delivery / "bests.csv"
    lines = bests.read_text().splitlines(keepends=True)
    k = next(i for i in range(1, len(lines) - 1) if fields(lines[i])[:4] == fields(lines[i + 1])[:4])
    lines[k], lines[k + 1] = lines[k + 1], lines[k]
    bests.write_text("".join(lines))
    got = [c for c in codes(delivery) if c[1] == "W921"]
    assert got and all(line == k + 2 for _, _, line in got)  # the second of the swapped rows


def test_description_paragraphs(delivery: Path) -> None:
    (delivery / "description.md").write_text("# Model\n\nIt searches programs.\n")
    assert codes(delivery) == [("description.md", "W923", 1)]


def test_deviant_real_shapes_each_once() -> None:
    got = findings(FIXTURES / "deviant")
    count = Counter((name, code) for name, code, *_ in got)
    assert count == Counter({
        ("bests.csv", "W911"): 1,         # no header, 7 columns
        ("bests.csv", "W912"): 1,         # typographic quotes
        ("bests.csv", "W913"): 1,         # trials from 0
        ("bests.csv", "W914"): 1,         # a single run
        ("predictions.csv", "W910"): 1,   # missing, derived in metrics
        ("samples0.csv", "W911"): 1, ("samples0.csv", "W912"): 1, ("samples0.csv", "W913"): 1,
        ("samples1.csv", "W911"): 1, ("samples1.csv", "W912"): 1, ("samples1.csv", "W913"): 1,
        ("samples0.csv", "W922"): 2,      # split files; 400 rows, not 10,000
    })
    # the data is still read: 2 problems × 5 orderings × 11 trials, each with ≥ 1 best
    from sylla.grammar.trials.delivery import read_delivery

    bests = read_delivery(str(FIXTURES / "deviant")).bests
    assert bests is not None and sorted(set(bests.data["trial"])) == list(range(1, 12))
    assert len({(p, o, t) for p, o, t in zip(bests.data["problem"], bests.data["order"], bests.data["trial"])}) == 110


def test_samples_rows_are_checked_too(delivery: Path) -> None:
    samples = delivery / "samples.csv"
    set_field(samples, 40, 8, "(lambda (map $0))")
    got = codes(delivery)
    assert got == [("samples.csv", "W915", 40)]
    assert "unknown symbol 'map'" in next(m for n, c, _, s, m in findings(delivery) if n == "samples.csv" and c == "W915" and s == "error")
