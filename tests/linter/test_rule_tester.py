"""The RuleTester itself: it reads expectations in each of their forms, and it fails when a
bad case is clean, an ok case is not, or a position is off (a tester that cannot fail proves
nothing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rule_tester import RULES, Case, Position, check, expectations, find_cases


def test_existing_fixture_names_are_cases() -> None:
    h501 = {c.path.name: c.kind for c in find_cases("H501")}
    assert h501["H501_bad.json"] == h501["H501_flag_bad.json"] == "bad" and h501["ok.json"] == "ok"
    b836 = {c.path.name: c.kind for c in find_cases("B836")}
    assert b836 == {"B836_bad": "bad", "B836_ok": "ok"}  # folders: config.xml beside its configMeta.xml


def test_expectation_forms(tmp_path: Path) -> None:
    jsonc = tmp_path / "bad.jsonc"
    jsonc.write_text('// expect: 2:1 S105\n/* never closed\n{"instructions": []}\n')
    assert expectations(Case("S105", "bad", jsonc)) == [Position("", 2, 1)]
    xml = tmp_path / "bad.xml"
    xml.write_text('<?xml version="1.0"?>\n<!-- expect: 3:5 B815, 4:5 B815 -->\n<config_generation/>\n')
    assert expectations(Case("B815", "bad", xml)) == [Position("", 3, 5), Position("", 4, 5)]
    side = tmp_path / "bad.json"
    side.write_text("{}")
    (tmp_path / "bad.expect.txt").write_text("6:43 S107\n7:1 S101\n")
    assert expectations(Case("S107", "bad", side)) == [Position("", 6, 43)]  # only its own code
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "expect.txt").write_text("syllabus.json:7:30 R701\n")
    assert expectations(Case("R701", "bad", folder)) == [Position("syllabus.json", 7, 30)]


def test_fails_on_a_clean_bad_case() -> None:
    with pytest.raises(AssertionError, match="expected a S107 finding"):
        check(Case("S107", "bad", RULES / "S107" / "ok.json"))


def test_fails_on_an_ok_case_that_triggers() -> None:
    with pytest.raises(AssertionError, match="must not yield S107"):
        check(Case("S107", "ok", RULES / "S107" / "bad.json"))


def test_fails_on_a_wrong_position(tmp_path: Path) -> None:
    shutil.copy(RULES / "S107" / "bad.json", tmp_path / "bad.json")
    (tmp_path / "bad.expect.txt").write_text("6:44 S107\n")
    case = Case("S107", "bad", tmp_path / "bad.json")
    case.expected = expectations(case)
    with pytest.raises(AssertionError, match="expected at 6:44, found at 6:43"):
        check(case)


def test_a_delivery_folder_is_linted_against_trial_files() -> None:
    check(Case("W917", "bad", RULES / "W917" / "bad", [Position("predictions.csv", 3, 1)]))
