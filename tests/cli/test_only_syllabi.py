"""Only syllabi get linted: folder walks and explicit paths ask ``Config.is_syllabus``, a
skipped file gets no finding, and a set of paths without syllabi says so on stderr."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

from sylla.cli import main

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "cli"
WALK = FIX / "walk"


def _lint_json(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["lint", "--format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_walk_finds_bare_list_misspelt_key_and_utf16(capsys) -> None:
    code, items, err = _lint_json(capsys, str(WALK))
    paths = {Path(i["path"]).name for i in items}
    # the three syllabi the old byte search for '"instructions"' skipped without a word
    assert {"bare-list.json", "misspelt.json", "notepad-utf16.json"} <= paths
    # npm's manifest, a tsconfig and an assistant config with a string "instructions" are not syllabi
    assert paths.isdisjoint({"package.json", "tsconfig.json", "assistant.json"})
    misspelt = [i for i in items if i["path"].endswith("misspelt.json")]
    assert any(i["code"] == "N604" and 'did you mean "instructions"' in i["message"] for i in misspelt)
    assert [i["code"] for i in items if i["path"].endswith("utf16.json")] == ["S121"]
    assert code == 1 and err == ""


def test_explicit_non_syllabus_gets_no_finding(capsys) -> None:
    code, items, err = _lint_json(capsys, str(WALK / "package.json"), str(WALK / "nested" / "assistant.json"))
    assert (code, items) == (0, [])
    assert "no syllabi found" in err


def test_folder_without_syllabi_says_so(tmp_path: Path, capsys) -> None:
    shutil.copy(WALK / "package.json", tmp_path / "package.json")
    shutil.copy(WALK / "nested" / "tsconfig.json", tmp_path / "tsconfig.json")
    assert main(["lint", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert f"sylla: warning: no syllabi found in {tmp_path}" in err


def test_config_syllabi_globs_force_a_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "datagen").mkdir()
    shutil.copy(WALK / "nested" / "tsconfig.json", tmp_path / "datagen" / "gen.json")
    assert _lint_json(capsys, str(tmp_path))[1] == []
    (tmp_path / "sylla.toml").write_text('syllabi = ["datagen/*.json"]\n')
    code, items, _ = _lint_json(capsys, str(tmp_path))
    assert code == 1 and "S202" in {i["code"] for i in items}  # linted now: no instructions list


def test_stdin_non_syllabus_passes_through_fix(capsys, monkeypatch) -> None:
    data = (WALK / "package.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    stdout = io.TextIOWrapper(io.BytesIO(), write_through=True)
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["lint", "--fix", "-", "--stdin-filename", "package.json"]) == 0
    assert stdout.buffer.getvalue() == data


def test_explain_refuses_a_non_syllabus(capsys) -> None:
    assert main(["explain", str(WALK / "package.json")]) == 2
    assert "not a syllabus" in capsys.readouterr().err
    assert main(["explain", str(WALK / "bare-list.json")]) == 0


def test_fmt_walk_shares_the_decision(tmp_path: Path, capsys) -> None:
    shutil.copytree(WALK, tmp_path / "w")
    main(["fmt", "--check", str(tmp_path / "w")])
    out = capsys.readouterr().out
    assert "package.json" not in out and "tsconfig.json" not in out
