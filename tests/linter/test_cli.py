"""The CLI: formats, exit codes, --fix atomic and idempotent, fmt, rules, docs, imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sylla.cli import main
from sylla.linter.docs import CODES_PATH, generate, generate_codes
from sylla.linter.rule import DOCS_PATH

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


def test_json_format_and_exit_code(capsys) -> None:
    assert main(["lint", "--format", "json", str(FIX / "N602_bad.json")]) == 1
    items = json.loads(capsys.readouterr().out)
    assert [(i["code"], i["line"], i["column"], i["end_line"], i["end_column"]) for i in items] == [("N602", 8, 61, 8, 62)]
    assert items[0]["fix"]["edits"] == [{"line": 8, "column": 61, "end_line": 8, "end_column": 62, "text": ""}]
    assert set(items[0]) == {"path", "line", "column", "end_line", "end_column", "code", "name", "severity", "message", "fix"}


def test_clean_exit_zero_and_fail_on(capsys) -> None:
    assert main(["lint", str(FIX / "good.json")]) == 0
    assert main(["lint", str(FIX / "H504_bad.json")]) == 0  # info only
    assert main(["lint", "--fail-on", "info", str(FIX / "H504_bad.json")]) == 1
    assert main(["lint", str(FIX / "missing.json")]) == 2


def test_text_and_github_and_sarif(capsys) -> None:
    main(["lint", str(FIX / "N603_bad.json")])
    out = capsys.readouterr().out
    assert f"{FIX / 'N603_bad.json'}:9:6: N603 [unknown-directive]" in out and "     ^" in out
    main(["lint", "--format", "github", str(FIX / "N603_bad.json")])
    assert capsys.readouterr().out.startswith(f"::error file={FIX / 'N603_bad.json'},line=9,col=6,")
    main(["lint", "--format", "sarif", str(FIX / "N603_bad.json")])
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["version"] == "2.1.0"
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "N603" and result["locations"][0]["physicalLocation"]["region"]["startLine"] == 9


def test_fix_writes_atomically_and_is_idempotent(tmp_path: Path, capsys) -> None:
    target = tmp_path / "s.json"
    original = (FIX / "H505_bad.json").read_bytes()
    target.write_bytes(original)
    main(["lint", "--fix", str(target)])
    once = target.read_bytes()
    assert once != original and b'"count": 75}' in once
    main(["lint", "--fix", str(target)])
    assert target.read_bytes() == once
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temp file left


def test_diff_does_not_write(tmp_path: Path, capsys) -> None:
    target = tmp_path / "s.json"
    target.write_bytes((FIX / "N602_bad.json").read_bytes())
    main(["lint", "--diff", str(target)])
    assert "-    {\"$repeat\"" in capsys.readouterr().out
    assert target.read_bytes() == (FIX / "N602_bad.json").read_bytes()


def test_directory_discovery_and_stdin(tmp_path: Path, capsys, monkeypatch) -> None:
    (tmp_path / "package.json").write_text('{"name": "not a syllabus"}')
    (tmp_path / "a.jsonc").write_bytes((FIX / "good.json").read_bytes())
    assert main(["lint", "--format", "json", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_config_error_exit_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "sylla.toml").write_text("profil = 'l2m'\n")
    (tmp_path / "s.json").write_bytes((FIX / "good.json").read_bytes())
    assert main(["lint", str(tmp_path / "s.json")]) == 2
    assert f"{tmp_path / 'sylla.toml'}:1:" in capsys.readouterr().err


def test_fmt_check(tmp_path: Path, capsys) -> None:
    target = tmp_path / "s.json"
    target.write_text('{"instructions":[{"$phase":"1.train"}]}')
    assert main(["fmt", "--check", str(target)]) == 1
    assert main(["fmt", str(target)]) == 0
    assert main(["fmt", "--check", str(target)]) == 0


def test_rules_and_rule(capsys) -> None:
    assert main(["rules"]) == 0
    assert "P301  phase-label-format" in capsys.readouterr().out
    assert main(["rule", "H501"]) == 0
    assert "**Bad**" in capsys.readouterr().out
    assert main(["rule", "X999"]) == 2


def test_docs_up_to_date() -> None:
    assert DOCS_PATH.read_text(encoding="utf-8") == generate(), "run: python -m sylla.linter.docs"
    assert CODES_PATH.read_text(encoding="utf-8") == generate_codes(), "run: python -m sylla.linter.docs"


def test_lint_never_imports_heavy_libraries() -> None:
    code = (
        "import sys; from sylla.cli import main; main(['lint', '--format', 'json', %r]);"
        "bad = [m for m in ('numpy', 'pandas', 'matplotlib') if m in sys.modules]; print(bad)"
    ) % str(FIX / "good.json")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]")


def test_stdin_filename_names_the_input_and_finds_its_config(tmp_path: Path, capsys, monkeypatch) -> None:
    import io

    data = (FIX / "N602_bad.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["lint", "-", "--stdin-filename", "syllabi/x.json", "--format", "json"]) == 1
    assert {i["path"] for i in json.loads(capsys.readouterr().out)} == {"syllabi/x.json"}
    (tmp_path / "sylla.toml").write_text('ignore = ["N602"]\n')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["lint", "-", "--stdin-filename", str(tmp_path / "x.json"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_fix_changes_only_the_edited_lines(tmp_path: Path, capsys) -> None:
    """A BOM, CRLF line ends, comments and non-ASCII text survive --fix byte for byte."""
    lines = [
        "\ufeff{",
        '  // Pöng 🎮 syllabus: this comment and its emoji stay',
        '  "instructions": [',
        '    {"$phase": "1.train"},',
        '    {"$repeat": {"$episode": "Pöng"}, "count": 10},',
        '    {"$repeat": {"$episode": "Pöng"}, "count": 5},',
        '    {"$phase": "1.test", "enable_updates": false},',
        '    {"$repeat": {"$episode": "Pöng"}, "count": 2},',
        "  ]",
        "}",
        "",
    ]
    original = "\r\n".join(lines).encode("utf-8")
    target = tmp_path / "s.jsonc"
    target.write_bytes(original)
    main(["lint", "--fix", str(target)])
    fixed = target.read_bytes()
    assert fixed.startswith(b"\xef\xbb\xbf{\r\n")
    assert b"\n" not in fixed.replace(b"\r\n", b"")  # every line end is still CRLF
    before, after = original.split(b"\r\n"), fixed.split(b"\r\n")
    # H505 merged lines 5 and 6 into one block of 15, N602 dropped the comma after line 8
    assert after == before[:4] + [b'    {"$repeat": {"$episode": "P\xc3\xb6ng"}, "count": 15},'] + before[6:7] + [
        before[7].rstrip(b",")
    ] + before[8:]


def test_sarif_has_what_code_scanning_requires(capsys) -> None:
    main(["lint", "--format", "sarif", str(FIX / "H505_bad.json"), str(FIX / "N603_bad.json")])
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["$schema"].endswith("sarif-2.1.0.json") and sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["name"] == "sylla"
    assert len({r["id"] for r in rules}) == len(rules)
    assert run["results"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in {"error", "warning", "note"}
        assert result["message"]["text"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert not physical["artifactLocation"]["uri"].startswith("/")  # relative, as code scanning wants
        region = physical["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


def test_unreadable_path_is_not_reported_as_passing(tmp_path: Path, capsys) -> None:
    assert main(["lint", str(tmp_path / "missing.json")]) == 2
    out, err = capsys.readouterr()
    assert "All checks passed" not in out
    assert err.strip() == f"sylla: cannot read {tmp_path / 'missing.json'}: No such file or directory"
