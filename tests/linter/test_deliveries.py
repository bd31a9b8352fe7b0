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

from sylla.grammar.trials.synth import HEADER, write_delivery, write_edge_trials
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


def _lint_json(folder: Path) -> tuple[int, list[dict]]:
    out = subprocess.run([sys.executable, "-m", "sylla", "lint", str(folder), "--trials", str(JSON), "-f", "json"],
                         capture_output=True, text=True)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, json.loads(out.stdout)


@pytest.mark.parametrize("column, value, code", [
    ("trial", "0", "W915"), ("trial", "12", "W915"),
    # run 0 says "numbered from 0", every run-5 row "from 1", and no input tells a run: W913;
    # a copy of an ordering-1 row as ordering 0 is the test example of ordering 0 + 1: the same
    ("run", "0", "W913"), ("order", "0", "W913"),
])
def test_a_stray_number_in_a_file_numbered_from_1_is_named_and_moves_nothing(
    delivery: Path, column: str, value: str, code: str
) -> None:
    """Issue 38: the numbering comes from the request and the trial files, not from the lowest
    and highest values: one row with a value its file's numbering lacks is named (W915 when the
    rest tell the numbering, W913 when that row tells another), and no other row moves."""
    preds = delivery / "predictions.csv"
    lines = preds.read_text().splitlines()
    fs = fields(lines[5])
    fs[{"run": 1, "order": 2, "trial": 3}[column]] = value
    lines.append(row(fs).rstrip("\n"))
    preds.write_text("\n".join(lines) + "\n")
    status, found = _lint_json(delivery)
    errors = [f for f in found if f["severity"] == "error"]
    assert status == 1
    assert [(Path(f["path"]).name, f["code"], f["line"]) for f in errors] == [("predictions.csv", code, len(lines))], found
    assert f"row {len(lines)}" in errors[0]["message"]
    assert not [f for f in found if f["code"] in ("W913", "W914") and f["severity"] != "error"]


def test_a_stray_trial_in_the_real_bests_shape_is_an_error_that_names_it() -> None:
    """The known 7-column bests.csv numbered from 0 with one row of trial 11 (only the request's
    numbering has it): the numbering cannot be told from values alone, W913 says so as an error
    at the stray row and names it; before, every row moved by one trial and nothing was said."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "d"
        shutil.copytree(FIXTURES / "deviant", folder)
        bests = folder / "bests.csv"
        lines = bests.read_text().splitlines()
        lines.append(lines[2].replace(",1,1,1,", ",1,1,11,", 1))
        bests.write_text("\n".join(lines) + "\n")
        status, found = _lint_json(folder)
    w913 = [f for f in found if f["code"] == "W913" and Path(f["path"]).name == "bests.csv"]
    assert status == 1
    assert [(f["severity"], f["line"]) for f in w913] == [("error", len(lines))]
    assert f"(trial 11; row {len(lines)})" in w913[0]["message"] and "(trial 0; rows 1, 2," in w913[0]["message"]


REAL = FIXTURES / "delivery-real"


def test_the_real_header_less_samples_are_read_and_the_quoting_said_right() -> None:
    """Issue 38: the real delivery's samples0.csv (no header, one program per line: the problem
    bare, the program quoted, 10,000 lines) was "not read" and counted as 0 sample rows, and W912
    said its programs were unquoted. Its columns are told by their values; W912 names only what
    is bare."""
    from sylla.grammar.trials.delivery import read_delivery

    status, found = _lint_json(REAL)
    samples = [f for f in found if Path(f["path"]).name == "samples0.csv"]
    assert not [f for f in samples if f["severity"] == "error"], samples
    assert any(f["code"] == "W911" and "read by their values as problem,program" in f["message"] for f in samples)
    assert not any("sample rows" in f["message"] for f in samples)  # 10,000, as the request asks
    quoting = [f["message"] for f in found if f["code"] == "W912"]
    assert len(quoting) == 2 and all("do not quote problem as" in m and "program" not in m for m in quoting), quoting
    delivery = read_delivery(str(REAL))
    assert delivery.samples is not None and len(delivery.samples) == 10_000
    assert delivery.samples.data["program"][0].startswith("(lambda")


def _samples_variant(tmp_path: Path, name: str, transform) -> Path:
    folder = tmp_path / "d"
    shutil.copytree(REAL, folder)
    text = (folder / "samples0.csv").read_text()
    (folder / "samples0.csv").unlink()
    (folder / name).write_text("".join(transform(line) + "\n" for line in text.splitlines()))
    return folder


@pytest.mark.parametrize("name, transform, columns", [
    ("samples0.csv", lambda ln: ln.split(",", 1)[1], "program"),                        # the program alone
    ("samples.csv", lambda ln: ln, "problem,program"),                                 # one file, not split
    ("samples.csv", lambda ln: ln.replace(",", ",1,1,5,", 1) + ",1.5,20", None),       # the 7-column bests shape
])
def test_header_less_samples_of_other_widths_are_read_by_their_values(tmp_path: Path, name: str, transform, columns: str | None) -> None:
    folder = _samples_variant(tmp_path, name, transform)
    status, found = _lint_json(folder)
    samples = [f for f in found if Path(f["path"]).name == name]
    assert not [f for f in samples if f["severity"] == "error"], samples
    if columns is not None:
        assert any(f["code"] == "W911" and f"read by their values as {columns}" in f["message"] for f in samples)
    assert not any("sample rows" in f["message"] for f in samples)
    assert all("program" not in f["message"] for f in samples if f["code"] == "W912")


def test_header_less_samples_whose_columns_cannot_be_told_are_an_error(tmp_path: Path) -> None:
    """Three values, a label, an integer and a program: the integer could be the run, the
    ordering, the trial or the accuracy. sylla does not guess; it asks for the header."""
    folder = _samples_variant(tmp_path, "samples.csv", lambda ln: ln.replace(",", ",1,", 1))
    status, found = _lint_json(folder)
    w911 = [f for f in found if f["code"] == "W911" and Path(f["path"]).name == "samples.csv"]
    assert status == 1 and [f["severity"] for f in w911] == ["error"]
    assert "several choices" in w911[0]["message"] and "write the header" in w911[0]["message"]


def test_a_bad_program_in_the_samples_is_found_where_it_goes_wrong(tmp_path: Path) -> None:
    folder = _samples_variant(tmp_path, "samples0.csv", lambda ln: ln)
    lines = (folder / "samples0.csv").read_text().splitlines()
    lines[39] = 'c046,"(lambda (map $0))"'
    (folder / "samples0.csv").write_text("\n".join(lines) + "\n")
    status, found = _lint_json(folder)
    bad = [f for f in found if f["code"] == "W915" and Path(f["path"]).name == "samples0.csv"]
    assert status == 1 and [(f["line"], f["column"]) for f in bad] == [(40, len('c046,"(lambda (') + 1)]


DEEP = "(lambda " + "(cons 1 " * 70_000 + "$0" + ")" * 70_001
HUGE = "(lambda (cons 1" + "2" * 5000 + " $0))"
WIDE = "(lambda ($0 " + "1 " * 50_000 + "))"


@pytest.mark.parametrize("program, column, says", [
    (DEEP, len("(lambda ") + len("(cons 1 ") * 99, "nest more than 100"),
    (HUGE, len("(lambda (cons "), "5,001 digits"),
    (WIDE, 20_000, "100,014 characters"),
])
def test_deep_huge_and_wide_programs_are_findings_at_their_column(delivery: Path, program: str, column: int, says: str) -> None:
    """Issue 38: a program nested 70,000 deep, a 5,000-digit constant or a program 100 KB wide in
    a delivery row gave a traceback (RecursionError, ValueError, csv's field limit); each is one
    W915 that stands at the character of the row where the program goes wrong."""
    preds = delivery / "predictions.csv"
    set_field(preds, 3, 8, program)
    status, found = _lint_json(delivery)
    bad = [f for f in found if f["code"] == "W915" and f["severity"] == "error"]
    assert status == 1 and len(bad) == 1, bad
    start = preds.read_text().splitlines()[2].index('"(lambda') + 1
    assert (bad[0]["line"], bad[0]["column"]) == (3, start + column + 1)
    assert says in bad[0]["message"]


@pytest.mark.parametrize("index, value", [(3, "9" * 5000), (1, "-" + "9" * 30), (11, "nan"), (12, "inf"), (9, "1" + "0" * 400)])
def test_numbers_no_row_can_hold_are_rows_that_cannot_be_read(delivery: Path, index: int, value: str) -> None:
    """A trial of 5,000 digits, a run of -10^30, an nlp of nan, an nll of inf, a cpu that is
    inf as a float: the row is named, never a traceback or a nan that passes every comparison."""
    preds = delivery / "predictions.csv"
    set_field(preds, 7, index, value)
    status, found = _lint_json(delivery)
    bad = [f for f in found if f["code"] == "W915" and f["severity"] == "error"]
    assert status == 1 and [(Path(f["path"]).name, f["line"]) for f in bad] == [("predictions.csv", 7)], bad
    assert "row 7" in bad[0]["message"]


def test_trial_files_past_python_s_limits_are_named_by_the_delivery_check(clean: Path, tmp_path: Path) -> None:
    """--trials given a folder that also holds a trial file nested 70,000 deep and one with a
    5,000-digit value (of a problem the delivery does not have): each is said unreadable on
    stderr, and a check that could not read all its trial files does not pass."""
    trials = tmp_path / "json"
    shutil.copytree(JSON, trials)
    edge = write_edge_trials(str(JSON), str(tmp_path / "edge"))
    shutil.copy(edge["c046_1.json"], trials / "c047_1.json")
    shutil.copy(edge["c046_2.json"], trials / "c047_2.json")
    out = subprocess.run([sys.executable, "-m", "sylla", "lint", str(clean), "--trials", str(trials), "-f", "json"],
                         capture_output=True, text=True)
    assert "Traceback" not in out.stderr and not [f for f in json.loads(out.stdout) if f["severity"] != "info"]
    assert "c047_1.json: its examples cannot be read" in out.stderr and "c047_2.json: its examples cannot be read" in out.stderr
    assert out.returncode == 1


SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def _sylla_json(folder: Path, *options: str) -> tuple[int, list[dict]]:
    """``sylla lint FOLDER --trials json/ -f json OPTIONS``, through the console script."""
    assert SYLLA is not None
    out = subprocess.run([SYLLA, "lint", str(folder), "--trials", str(JSON), "-f", "json", *options],
                         capture_output=True, text=True, cwd=folder)
    assert "Traceback" not in out.stderr and out.returncode in (0, 1), out.stderr
    return out.returncode, json.loads(out.stdout)


def _wrong_accuracy(delivery: Path) -> int:
    """Give a wrongly predicted row of predictions.csv accuracy 1 (W917 only); its line."""
    preds = delivery / "predictions.csv"
    line = 2
    while fields(preds.read_text().splitlines()[line - 1])[7] != "0":
        line += 1
    set_field(preds, line, 7, "1")
    return line


def _seen(found: list[dict]) -> list[tuple[str, str, int, str]]:
    return [(Path(f["path"]).name, f["code"], f["line"], f["severity"]) for f in found if f["severity"] != "info"]


def test_ignore_reaches_the_delivery_rules(delivery: Path) -> None:
    """Issue 39: ``--ignore W917`` still reported W917 and exited 1: the delivery's findings
    were built beside the engine, and the config never reached them."""
    line = _wrong_accuracy(delivery)
    status, found = _sylla_json(delivery)
    assert (status, _seen(found)) == (1, [("predictions.csv", "W917", line, "error")])
    status, found = _sylla_json(delivery, "--ignore", "W917")
    assert (status, [f for f in found if f["code"] == "W917"]) == (0, [])


@pytest.mark.parametrize("select", ["W917", "W923", "W92", "W91"])
def test_select_reaches_the_delivery_rules(delivery: Path, select: str) -> None:
    line = _wrong_accuracy(delivery)
    (delivery / "description.md").write_text("# Model\n\nIt searches programs.\n")
    both = [("description.md", "W923", 1, "warning"), ("predictions.csv", "W917", line, "error")]
    assert _seen(_sylla_json(delivery)[1]) == both
    status, found = _sylla_json(delivery, "--select", select)
    assert _seen(found) == [f for f in both if f[1].startswith(select)]
    assert all(f["code"].startswith(select) for f in found)  # info findings too
    assert status == 1  # each is at or above --fail-on's default, warning
    status, found = _sylla_json(delivery, "--select", select, "--fail-on", "error")
    assert status == (1 if "W917".startswith(select) else 0)


def test_the_config_s_severities_and_per_file_ignores_reach_the_delivery_rules(delivery: Path) -> None:
    line = _wrong_accuracy(delivery)
    (delivery / "sylla.toml").write_text('severity = { W917 = "info" }\n')
    status, found = _sylla_json(delivery)
    assert (status, [(f["line"], f["severity"]) for f in found if f["code"] == "W917"]) == (0, [(line, "info")])
    (delivery / "sylla.toml").write_text('per-file-ignores = { "predictions.csv" = ["W917"] }\n')
    status, found = _sylla_json(delivery)
    assert (status, [f for f in found if f["code"] == "W917"]) == (0, [])
    config = delivery.parent / "elsewhere.toml"  # --config: the same for every file of the delivery
    config.write_text('severity = { W917 = "warning" }\n')
    status, found = _sylla_json(delivery, "--config", str(config), "--fail-on", "error")
    assert (status, _seen(found)) == (0, [("predictions.csv", "W917", line, "warning")])


def test_the_delivery_descriptor_explains_what_the_folder_holds() -> None:
    from sylla.linter.languages import spec_for

    spec = spec_for("delivery")
    doc, text = spec.explain(spec.parse(b"", str(FIXTURES / "deviant" / "bests.csv")), "deviant")
    assert doc["rows"]["predictions.csv"] is None and doc["rows"]["samples.csv"] == 400 and doc["description"]
    assert "predictions.csv: missing" in text and "samples.csv: 400 rows" in text
