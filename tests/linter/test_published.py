"""Findings on syllabi in the shapes published ones have (tests/fixtures/linter/published):
the right type, no knock-on findings, the cause reported once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sylla.cli import main
from sylla.linter import Config, lint, load_config

FIX = Path(__file__).resolve().parents[1] / "fixtures"
PUB = FIX / "linter" / "published"


def codes(path: Path, config: Config | None = None) -> list[str]:
    return [f.code for f in lint(path.read_bytes(), str(path), config).findings]


def test_single_task_expert_is_inferred_ste_without_t403() -> None:
    result = lint((PUB / "ste_syllabus.json").read_bytes(), "ste_syllabus.json")
    assert result.syllabus_type is not None and result.syllabus_type.type == "STE"
    assert [f.code for f in result.findings] == ["T401"]  # info only: the hook lets it through
    assert "single-task-expert" in result.findings[0].message


def test_ste_from_option_and_config(tmp_path: Path) -> None:
    ant = (FIX / "linter" / "reference-ant-a.json").read_bytes()
    assert "T411" in [f.code for f in lint(ant, "a.json", Config(type="STE")).findings]
    (tmp_path / "ste").mkdir()
    shutil.copy(FIX / "linter" / "T412_bad.json", tmp_path / "ste" / "pong.json")
    text = (tmp_path / "ste" / "pong.json").read_text().replace('  "syllabus_type": "STE",\n', "")
    (tmp_path / "ste" / "pong.json").write_text(text)
    assert "T412" not in codes(tmp_path / "ste" / "pong.json")  # one varying task: inferred CL
    (tmp_path / "sylla.toml").write_text('per-file-types = { "ste/*.json" = "STE" }\n')
    config = load_config(tmp_path / "ste" / "pong.json")
    assert "T412" in codes(tmp_path / "ste" / "pong.json", config)


def test_cli_type_ste(capsys) -> None:
    assert main(["lint", "--type", "STE", "--format", "json", str(FIX / "linter" / "reference-ant-a.json")]) == 1
    assert "T411" in {i["code"] for i in json.loads(capsys.readouterr().out)}


def test_t409_quiet_when_a_test_phase_tests_every_task() -> None:
    assert "T409" not in codes(PUB / "l2metrics_ant_c.json")
    assert "T409" in codes(FIX / "linter" / "T409_bad.json")  # 1.test tests only Pong


def test_phase_label_typo_reports_the_label_only() -> None:
    found = codes(PUB / "phase_label_typo.json")
    assert "P301" in found and "T404" not in found


def test_misspelt_instructions_is_one_finding() -> None:
    path = FIX / "cli" / "walk" / "nested" / "misspelt.json"
    found = lint(path.read_bytes(), str(path)).findings
    assert [(f.code, f.severity.value) for f in found] == [("N604", "error")]
    assert 'did you mean "instructions"' in found[0].message


def test_random_bytes_are_one_finding(capsys) -> None:
    # the folder's sylla.toml forces its files to count as syllabi, as a user may
    path = FIX / "cli" / "hostile" / "random-bytes.json"
    assert main(["lint", "--format", "json", str(path)]) == 1
    items = json.loads(capsys.readouterr().out)
    assert [i["code"] for i in items] == ["S122"] and "not a text file" in items[0]["message"]


def test_latin1_accents_still_point_at_each_byte() -> None:
    text = (FIX / "linter" / "good.json").read_text().replace('"syllabus_type"', '"comments": "évaluation à 10 %", "syllabus_type"', 1)
    found = lint(text.encode("latin-1"), "x.json").findings
    assert {f.code for f in found} == {"S120"}


def test_data_generation_syllabus_gets_p308_as_info_once() -> None:
    found = lint((PUB / "darpa_dem_datagen.json").read_bytes(), "d.json").findings
    assert [(f.code, f.severity.value) for f in found] == [("P308", "info")]
    assert [f.severity.value for f in lint((FIX / "linter" / "P308_bad.json").read_bytes(), "p.json").findings if f.code == "P308"] == ["warning"]


def test_null_parameter_is_wrong_type() -> None:
    found = codes(PUB / "null_param.json")
    assert "S201" in found and "S202" not in found


@pytest.mark.parametrize("kind", ["missing", "directory", "not-toml"])
def test_bad_config_option_is_a_usage_error(kind: str, tmp_path: Path, capsys) -> None:
    target = {"missing": tmp_path / "nope.toml", "directory": tmp_path, "not-toml": FIX / "linter" / "good.json"}[kind]
    assert main(["lint", "--config", str(target), str(FIX / "linter" / "good.json")]) == 2
    assert f"--config {target}" in capsys.readouterr().err


@pytest.mark.parametrize("path,cause", [
    (PUB / "misspelt_phase.json", "N603"),  # "$phse": not also P305, P302, P304, H504
    (FIX / "cli" / "bad.jsonc", "N603"),  # "$repaet" in 1.test: not also P307 "1.test has no blocks"
    (PUB / "phase_label_typo.json", "P301"),  # "1.Test": not also T404
    (PUB / "misspelt_disable_updates.json", "N606"),  # not also H501 "learning is not turned off"
])
def test_a_structural_typo_is_reported_without_its_consequences(path: Path, cause: str) -> None:
    assert codes(path) == [cause]
    fixed = path.read_text().replace('"$phse"', '"$phase"').replace('"$repaet"', '"$repeat"').replace('"1.Test"', '"1.test"').replace('"disable_update"', '"disable_updates"')
    assert cause not in [f.code for f in lint(fixed, str(path)).findings]  # and nothing was hidden for good
