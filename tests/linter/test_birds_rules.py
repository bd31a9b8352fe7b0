"""Each B8xx rule: a bad fixture that triggers it at the position read off the file by hand, the
good fixtures that do not; safe fixes; the rules never touch syllabi."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.linter import Config, all_rules
from sylla.linter.fixes import fix_all
from sylla.linter.languages import encode_fixed, language_of, lint_text

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "birds" / "rules"


def run(name: str, config: Config | None = None):
    path = FIX / name
    return lint_text(path.read_bytes(), str(path), config)


def positions(result, code: str) -> list[tuple[int, int]]:
    return [result.parse.lines.line_col(f.span.start) for f in result.findings if f.code == code]


# (fixture, code, line, column): the value (or tag) the finding points at, counted in the file
TRIGGERS = [
    ("B801_bad.xml", "B801", 32, 1),  # the end of the file: </config_generation> is missing
    ("B802_bad.xml", "B802", 3, 3),  # <!ENTITY lol "lol">
    ("B803_bad.xml", "B803", 1, 31),  # utf-16 in the declaration of an ASCII file
    ("B804_bad.xml", "B804", 6, 14),  # <count>two</count>
    ("B805_bad.xml", "B805", 15, 37),  # <limit type="interaction">60000000000</limit>: past int.Parse's 2147483647
    ("B810_bad.xml", "B810", 17, 47),  # <limit type="allow_level_selection">TRUE</limit>
    ("B810_bad.xml", "B810", 24, 22),  # <test ordered="True">
    ("B811_bad.xml", "B811", 3, 40),  # step="0"
    ("B812_bad.xml", "B812", 7, 16),  # <repeats>0</repeats>
    ("B813_bad.xml", "B813", 8, 8),  # <checkpoint> with time 0 and interaction -1
    ("B814_bad.xml", "B814", 13, 10),  # <limits> with every limit 0
    ("B815_bad.xml", "B815", 14, 24),  # type="tme"
    ("B816_bad.xml", "B816", 17, 24),  # the second type="time"
    ("B817_bad.xml", "B817", 15, 37),  # <limit type="interaction">true</limit>
    ("B818_bad.xml", "B818", 21, 70),  # amount="20-10"
    ("B819_bad.xml", "B819", 20, 98),  # novelty_absence_portion="20"
    ("B820_bad.xml", "B820", 27, 100),  # set_appearance_percentage="0"
    ("B821_bad.xml", "B821", 24, 8),  # <test ordered="true" /> in the first of two trials
    ("B830_bad.xml", "B830", 5, 123),  # notify_novelty="false"
    ("B831_bad.xml", "B831", 14, 16),  # the second id="0"
    ("B832_bad.xml", "B832", 14, 41),  # number_of_executions="0"
    ("B833_bad.xml", "B833", 15, 8),  # the training game_level_set without game_levels
    ("B834_bad.xml", "B834", 19, 8),  # the second training game_level_set
    ("B835_bad.xml", "B835", 7, 34),  # level_path="C:\Users\..."
    ("B836_bad/config.xml", "B836", 6, 51),  # time_limit="360" where the meta file gives 2160-3780
]


@pytest.mark.parametrize("fixture,code,line,col", TRIGGERS)
def test_rule_triggers(fixture: str, code: str, line: int, col: int) -> None:
    result = run(fixture)
    assert (line, col) in positions(result, code)
    assert {f.code for f in result.findings} == {code}  # the bad file has exactly this problem


@pytest.mark.parametrize(
    # B821_ok: the same empty <test>, but in the last trial, where there is nothing further to misread
    "good", ["good-meta.xml", "good-config.xml", "B836_ok/config.xml", "B836_ok/configMeta.xml", "B821_ok.xml"]
)
def test_good_files_are_clean(good: str) -> None:
    assert run(good).findings == []


def test_every_birds_rule_has_a_bad_fixture() -> None:
    codes = {r.code for r in all_rules() if r.code.startswith("B8")}
    assert codes == {code for _, code, _, _ in TRIGGERS}


def test_messages_name_the_values() -> None:
    by = {f.code: f.message for name in ("B815_bad.xml", "B836_bad/config.xml", "B816_bad.xml") for f in run(name).findings}
    assert 'unknown limit type "tme" (did you mean "time"?)' in by["B815"]
    assert 'time_limit="360" but configMeta.xml (trial template 1) gives 2160-3780 s' in by["B836"]
    assert "the first is on line 14" in by["B816"] and "120" in by["B816"]


def test_time_limit_needs_the_meta_file_beside_it(tmp_path: Path) -> None:
    lone = tmp_path / "config.xml"
    lone.write_bytes((FIX / "B836_bad" / "config.xml").read_bytes())
    assert lint_text(lone.read_bytes(), str(lone)).findings == []
    # the meta file is found by its root element, not by its name
    (tmp_path / "trials-v2.xml").write_bytes((FIX / "B836_bad" / "configMeta.xml").read_bytes())
    assert [f.code for f in lint_text(lone.read_bytes(), str(lone)).findings] == ["B836"]


def test_boolean_case_fixes() -> None:
    meta = (FIX / "B810_bad.xml").read_text()
    fixed = fix_all(lint_text(meta, "m.xml"), lambda t: lint_text(t, "m.xml")).text
    assert '<test ordered="true">' in fixed and '<limit type="allow_level_selection">true</limit>' in fixed
    assert fixed == (FIX / "good-meta.xml").read_text()
    config = (FIX / "B830_bad.xml").read_text()
    fixed = fix_all(lint_text(config, "c.xml"), lambda t: lint_text(t, "c.xml")).text
    assert fixed == (FIX / "good-config.xml").read_text()


def test_schema_error_on_a_fixable_value_is_reported_once() -> None:
    result = run("B810_bad.xml")
    assert [f.code for f in result.findings] == ["B810", "B810"]  # not also B804 for the enumeration


def test_fix_keeps_the_encoding() -> None:
    original = (FIX / "B830_bad.xml").read_text().replace('encoding="utf-8"', 'encoding="utf-16"').encode("utf-16")
    result = lint_text(original, "c.xml")
    fixed = fix_all(result, lambda t: lint_text(t, "c.xml")).text
    data = encode_fixed(original, fixed)
    assert data.startswith(b"\xff\xfe") and data.decode("utf-16") == fixed and 'notify_novelty="False"' in fixed
    ascii_original = (FIX / "B830_bad.xml").read_bytes()
    assert encode_fixed(ascii_original, "x").isascii()


def test_language_is_decided_by_content() -> None:
    syllabus = b'{"instructions": [{"$phase": "1.train"}]}'
    assert language_of("configMeta.xml", syllabus) == "syllabus"
    assert language_of("notes.json", (FIX / "good-meta.xml").read_bytes()) == "birds"
    assert language_of("configMeta.xml", b"<project/>") is None


def test_birds_rules_never_fire_on_syllabi() -> None:
    good = Path(__file__).resolve().parents[1] / "fixtures" / "linter" / "good.json"
    assert [f.code for f in lint_text(good.read_bytes(), str(good)).findings] == []


def test_select_and_severity_config_apply() -> None:
    assert run("B803_bad.xml", Config(ignore=("B803",))).findings == []
    from sylla.grammar.core import Severity

    (f,) = run("B803_bad.xml", Config(severity={"B803": Severity.INFO})).findings
    assert f.severity is Severity.INFO


def test_the_sibling_meta_file_is_found_behind_a_long_comment(tmp_path: Path) -> None:
    """B836 reads configMeta.xml beside config.xml by its root element, however far in it is."""
    meta = (FIX / "B836_bad" / "configMeta.xml").read_text(encoding="utf-8")
    (tmp_path / "configMeta.xml").write_text(meta.replace("<config_generation>", "<!--" + "x" * 70_000 + "-->\n<config_generation>", 1))
    (tmp_path / "config.xml").write_bytes((FIX / "B836_bad" / "config.xml").read_bytes())
    result = lint_text((tmp_path / "config.xml").read_bytes(), str(tmp_path / "config.xml"))
    assert [f.code for f in result.findings] == ["B836"]
