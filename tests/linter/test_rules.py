"""Each rule: a fixture that triggers it (code, line, column checked by hand against the
fixture text) and fixtures that do not; the reference examples lint clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.linter import Config, all_rules, lint, load_config, rule_for

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


def run(name: str, config: Config | None = None):
    path = FIX / name
    return lint(path.read_bytes(), str(path), config)


def positions(result, code: str) -> list[tuple[int, int]]:
    return [result.parse.lines.line_col(f.span.start) for f in result.findings if f.code == code]


# (fixture, code, line, column): positions read off the fixture files by hand
TRIGGERS = [
    ("P301_bad.json", "P301", 4, 16),  # "1-Train" label string
    ("P302_bad.json", "P302", 6, 16),  # "3.train" after "1.train"
    ("P303_bad.json", "P303", 9, 16),  # second "1.test"
    ("P304_bad.json", "P304", 5, 5),  # first block, in 1.test
    ("P305_bad.json", "P305", 4, 5),  # block before the first $phase
    ("P306_bad.json", "P306", 11, 16),  # 3.train right after 2.train
    ("P307_bad.json", "P307", 9, 5),  # trailing empty 2.train
    ("P308_bad.json", "P308", 2, 3),  # the "instructions" key
    ("T402_bad.json", "T402", 9, 30),  # "Breakout" in a CL file
    ("T403_bad.json", "T403", 2, 20),  # the "syllabus_type" value
    ("T404_bad.json", "T404", 2, 20),
    ("T405_bad.json", "T405", 2, 20),
    ("T406_bad.json", "T406", 2, 20),
    ("T407_bad.json", "T407", 9, 43),  # "w": 0.2 where Pong's w changes
    ("T408_bad.json", "T408", 2, 20),
    ("T409_bad.json", "T409", 8, 30),  # "Pong" tested right after training Pong
    ("T410_bad.json", "T410", 9, 30),  # Breakout's first training block
    ("T411_bad.json", "T411", 7, 30),  # "Breakout", the second task of an STE file
    ("T412_bad.json", "T412", 6, 43),  # "w": 0.2 where the expert's task changes
    ("H501_bad.json", "H501", 8, 5),  # the 1.test phase mark
    ("H501_flag_bad.json", "H501", 7, 5),
    ("H502_bad.json", "H502", 9, 5),  # the 2.train phase mark
    ("H503_bad.json", "H503", 9, 45),  # the false of "enable_updates": false
    ("H504_bad.json", "H504", 7, 30),  # "Pnog"
    ("H505_bad.json", "H505", 6, 5),  # the second of the two identical blocks
    ("N601_bad.json", "N601", 8, 62),  # the // comment
    ("N602_bad.json", "N602", 8, 61),  # the comma after the last instruction
    ("N603_bad.json", "N603", 9, 6),  # "$repaet" key
    ("N604_bad.json", "N604", 3, 3),  # "defaults" key
    ("N605_bad.json", "N605", 6, 18),  # "$episode" key of the first block
    ("N606_bad.json", "N606", 7, 16),  # "disable_update" key of the $info
    ("S101_bad.json", "S101", 4, 5),  # the instruction after the missing comma
    ("S204_bad.json", "S204", 5, 58),  # count 0
]


@pytest.mark.parametrize("fixture,code,line,col", TRIGGERS)
def test_rule_triggers(fixture: str, code: str, line: int, col: int) -> None:
    assert (line, col) in positions(run(fixture), code)


@pytest.mark.parametrize("fixture,code,line,col", TRIGGERS)
def test_rule_quiet_on_good_file(fixture: str, code: str, line: int, col: int) -> None:
    assert positions(run("good.json"), code) == []


def test_good_file_is_clean() -> None:
    assert run("good.json").findings == []


def test_jsonc_allows_comments_but_json_does_not() -> None:
    assert positions(run("N601_ok.jsonc"), "N601") == []
    assert positions(run("N601_bad.json"), "N601") == [(8, 62)]


def test_registry_rules() -> None:
    config = Config(registry=FIX / "registry.toml")
    result = run("R70x_bad.json", config)
    assert positions(result, "R701") == [(9, 30)]
    assert positions(result, "R702") == [(6, 38)]
    assert positions(result, "R703") == [(8, 43)]
    by_code = {f.code: f.message for f in result.findings}
    assert 'did you mean "Breakout"' in by_code["R701"]
    assert positions(run("R70x_bad.json"), "R701") == []  # no registry: no registry rules


@pytest.mark.parametrize("name", ["reference-cl.json", "reference-ant-a.json", "reference-ant-b.jsonc", "reference-ant-c.json"])
def test_reference_examples_lint_clean(name: str) -> None:
    result = run(name)
    assert result.syllabus_type is not None and result.syllabus_type.declared
    serious = [f for f in result.findings if f.severity.value != "info"]
    assert serious == []
    # the ANT-A example tests Freeway without training it: a zero-shot test, reported as info only
    infos = [(f.code, f.message.split('"')[1]) for f in result.findings]
    assert infos == ([("H504", "Freeway")] if name == "reference-ant-a.json" else [])


def test_no_phase_is_one_finding_not_one_per_block() -> None:
    result = run("P308_bad.json")
    assert [f.code for f in result.findings] == ["P308"]


def test_pretest_profile_allows_leading_zero_test() -> None:
    text = (FIX / "good.json").read_text().replace(
        '"instructions": [\n', '"instructions": [\n    {"$phase": "0.test", "enable_updates": false},\n    {"$repeat": {"$episode": "Pong", "w": 0.1}, "count": 10},\n'
    )
    assert {f.code for f in lint(text, "x.json").findings} >= {"P302", "P304"}
    assert lint(text, "x.json", Config(profile="pretest")).findings == []


def test_inferred_type_reported_once_with_reason() -> None:
    text = (FIX / "good.json").read_text().replace('  "syllabus_type": "CL",\n', "")
    found = [f for f in lint(text, "x.json").findings]
    assert [f.code for f in found] == ["T401"]
    assert "one task (Pong)" in found[0].message


def test_type_option_wins_over_file() -> None:
    result = lint((FIX / "good.json").read_bytes(), "good.json", Config(type="ANT-A"))
    assert result.syllabus_type.type == "ANT-A"
    assert "T406" in {f.code for f in result.findings}


def test_suppression_comment_and_sylla_ignore() -> None:
    text = (FIX / "N602_bad.json").read_text()
    assert "N602" in {f.code for f in lint(text, "a.jsonc").findings}
    silenced = text.replace('"count": 10},', '"count": 10}, // sylla: ignore[N602]')
    assert "N602" not in {f.code for f in lint(silenced, "a.jsonc").findings}
    ignored = text.replace('"syllabus_type": "CL",', '"syllabus_type": "CL", "sylla_ignore": ["N6"],')
    assert "N602" not in {f.code for f in lint(ignored, "a.json").findings}


def test_select_ignore_and_severity_override() -> None:
    data = (FIX / "P306_bad.json").read_bytes()
    assert lint(data, "x.json", Config(ignore=("P3",))).findings == []
    assert {f.code for f in lint(data, "x.json", Config(select=("P306",))).findings} == {"P306"}
    from sylla.grammar.core import Severity

    raised = lint(data, "x.json", Config(severity={"P306": Severity.ERROR})).findings
    assert [f.severity for f in raised if f.code == "P306"] == [Severity.ERROR]


def test_registry_has_unique_codes_and_documentation() -> None:
    rules = all_rules()
    assert len({r.code for r in rules}) == len(rules)
    for r in rules:
        assert r.summary and "**Bad**" in r.doc and "**Good**" in r.doc and "**Fix.**" in r.doc, r.code
        assert rule_for(r.code) is r and rule_for(r.name) is r
        assert r.doc_url(r.code).startswith("file://") and r.doc_url(r.code).endswith("#" + r.code.lower())


def test_config_discovery_and_unknown_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.sylla]\nprofile = "pretest"\nselcet = ["P"]\n')
    (tmp_path / "sub").mkdir()
    target = tmp_path / "sub" / "s.json"
    target.write_text("{}")
    from sylla.linter import ConfigError

    with pytest.raises(ConfigError) as err:
        load_config(target)
    assert str(err.value).startswith(f"{tmp_path / 'pyproject.toml'}:6:") and '"selcet"' in str(err.value)
    (tmp_path / "sylla.toml").write_text('profile = "pretest"\nignore = ["H5"]\n[per-file-types]\n"sub/*.json" = "ANT-B"\n')
    config = load_config(target, {"select": ["P", "H"]})
    assert config.profile == "pretest" and config.ignore == ("H5",) and config.select == ("P", "H")
    assert config.type_for(str(target)) == "ANT-B"
