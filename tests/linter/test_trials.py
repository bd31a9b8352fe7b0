"""W9xx on trial files: the request's layout in tests/fixtures/trials/json (clean) and
json-bad (one defect per file, written in by hand), through the CLI a user runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.grammar.trials.parse import MAX_DEPTH
from sylla.grammar.trials.synth import EDGE_DIGITS, orderings, trial_text, write_edge_trials
from sylla.linter.languages import language_of, lint_text

FIXTURES = Path(__file__).parent.parent / "fixtures"

JSON = FIXTURES / "trials" / "json"
BAD = FIXTURES / "trials" / "json-bad"


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", *args], capture_output=True, text=True)


def test_detected_by_content_not_name(tmp_path: Path) -> None:
    data = (JSON / "c046_1.json").read_bytes()
    assert language_of("anything.json", data) == "trials"
    other = tmp_path / "c046_1.json"
    other.write_text(json.dumps({"id": "c046", "data": []}))  # no program: not a trial file
    assert language_of(str(other), other.read_bytes()) is None


def test_clean_folder_has_no_findings() -> None:
    out = sylla("lint", str(JSON))
    assert out.returncode == 0, out.stdout + out.stderr
    for path in sorted(JSON.iterdir()):
        assert lint_text(path.read_bytes(), str(path)).findings == []


def test_bad_folder_findings_with_positions() -> None:
    out = sylla("lint", "-f", "json", str(BAD))
    assert out.returncode == 1
    got = sorted((Path(f["path"]).name, f["code"], f["line"]) for f in json.loads(out.stdout))
    assert got == sorted([
        ("c047_1.json", "W908", 1),   # ordering 3 missing, reported once on the lowest ordering
        ("c047_2.json", "W907", 1),   # example 5 replaced
        ("c047_4.json", "W904", 1),   # 10 examples
        ("c047_4.json", "W907", 1),   # ... so also not a permutation
        ("c048_1.json", "W903", 2),   # "id": "c049" on line 2
        ("c048_1.json", "W908", 2),
        ("c048_1.json", "W905", 19),  # example 3's input list starts on line 19
        ("c048_1.json", "W906", 62),  # the 12 in example 6's input
        ("c048_1.json", "W906", 66),  # ... and in its output
        ("c050_1.json", "W901", 4),   # file ends inside the list
    ])


def test_permutation_pointed_at_the_foreign_example(tmp_path: Path) -> None:
    for k in range(1, 6):
        shutil.copy(JSON / f"c046_{k}.json", tmp_path)
    data = orderings(46)[2]
    data[7] = ([5, 5, 5], [7, 5, 5, 5])
    path = tmp_path / "c046_3.json"
    path.write_text(trial_text(46, data))
    found = lint_text(path.read_bytes(), str(path)).findings
    assert [f.code for f in found] == ["W907"]
    text = path.read_text()
    assert json.loads(text[found[0].span.start:found[0].span.end]) == {"i": [5, 5, 5], "o": [7, 5, 5, 5]}


def test_large_dsl_range(tmp_path: Path) -> None:
    path = tmp_path / "c092_1.json"
    data = orderings(92)[0]
    data[0] = ([99, 100], [92, 63, 34, 18, 55, 99, 100])
    path.write_text(trial_text(92, data))
    msgs = [f.message for f in lint_text(path.read_bytes(), str(path)).findings if f.code == "W906"]
    assert msgs == ["example 1: input value 100 is outside 0..99 (problem c092)",
                    "example 1: output value 100 is outside 0..99 (problem c092)"]


def test_explain_folder_totals() -> None:
    out = sylla("explain", "-f", "json", str(JSON))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    # 2 problems × 5 orderings × 5 runs × 11 trials; 10 min per trial
    assert doc["trials"] == 550 and doc["cpu_hours"] == round(550 * 10 / 60, 1)
    item = doc["schedule"][0]
    assert item["minutes"] == 110 and item["trials"][3]["train"] == [1, 2, 3] and item["trials"][3]["test"] == 4
    assert len(doc["schedule"]) == 2 * 5 * 5


@pytest.mark.slow
def test_explain_full_request(tmp_path: Path) -> None:
    from sylla.grammar.trials.synth import write_trials

    write_trials(str(tmp_path))
    out = sylla("explain", str(tmp_path))
    assert out.returncode == 0, out.stderr
    # 100 × 5 × 5 × 11 = 27,500 trials; 27,500 × 10 min / 60 = 4,583.3 CPU-hours
    assert "= 27,500 trials" in out.stdout and "110 min per (problem, ordering, run)" in out.stdout
    assert "4,583.3 CPU-hours" in out.stdout


def test_explain_one_trial_file() -> None:
    out = sylla("explain", "-f", "json", str(JSON / "c092_3.json"))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    # one ordering × 5 runs × 11 trials; example 1 of the file is trial 1's test
    assert doc["trials"] == 55 and doc["groups"]["P2"] == 1
    first = json.loads((JSON / "c092_3.json").read_text())["data"][0]
    assert doc["schedule"][0]["trials"][0]["input"] == first["i"] and doc["schedule"][0]["order"] == 3



@pytest.mark.parametrize("args", [("lint",), ("lint", "--fix"), ("lint", "-f", "json"), ("lint", "-f", "sarif"), ("explain",)])
@pytest.mark.parametrize("name, code", [("c046_1.json", "W902"), ("c046_2.json", "W906")])
def test_deep_nesting_and_huge_numbers_are_findings_in_every_command(tmp_path: Path, args: tuple[str, ...], name: str, code: str) -> None:
    """Issue 38: "[" nested 70,000 deep and a 5,000-digit value gave tracebacks from lint, explain
    and --fix (RecursionError in detection and the parse, ValueError from int). Each is a finding
    at its position (the bracket past 16 levels, of which the object, data and the example are 3;
    the first value of the first output), and the command fails."""
    target = Path(write_edge_trials(str(JSON), str(tmp_path))[name])
    text = target.read_text()
    offset = text.index('"i": ') + len('"i": ') + MAX_DEPTH - 3 if code == "W902" else text.index('"o": [') + len('"o": [')
    where = f"1:{offset + 1}"
    before = target.read_bytes()
    out = sylla(*args, str(target))
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    if args == ("explain",) and code == "W906":  # a value out of range is a lint finding; the schedule says it as it is
        assert out.returncode == 0 and f"<an integer of {EDGE_DIGITS:,} digits>" in out.stdout
        return
    assert out.returncode == 1
    if args[-1] == "json":
        assert [(f["code"], f"{f['line']}:{f['column']}") for f in json.loads(out.stdout) if f["code"] == code] == [(code, where)]
    elif args == ("explain",):
        assert f"{target}:{where}:" in out.stderr
    elif args[-1] != "sarif":
        assert f"{target}:{where}: {code}" in out.stdout
    assert target.read_bytes() == before  # --fix has nothing safe to do here
