"""Hostile syllabi through the installed ``sylla`` as a user (or the pre-commit hook) runs it
(issue 38): a NUL byte, nesting tens of thousands deep, numbers past what Python converts, an
absurd count, a directive inside a ``$repeat``, a minified file with thousands of findings, and
``--fix`` on bytes the text does not show (a BOM). Each gets a clear finding at its place, never a
traceback, a pass, or memory that grows with the product of line length and findings.

Every input is a real fixture with the hostile part written into it."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.grammar.syllabus.lalr import MAX_DEPTH
from sylla.linter.languages import lint_text

FIX = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = FIX / "linter" / "good.json"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def sylla(*args: str, cwd: Path | None = None, stdin: bytes | None = None, limit_memory: int | None = None,
          timeout: int = 120) -> subprocess.CompletedProcess[bytes]:
    if SYLLA is None:  # pragma: no cover - the editable install provides it
        pytest.fail("the sylla entry point is not installed (run scripts/setup.sh)")

    def cap() -> None:
        if limit_memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run([SYLLA, *args], capture_output=True, cwd=cwd, input=stdin, timeout=timeout, preexec_fn=cap)


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` (the text has only ``\\n`` line ends)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def findings(proc: subprocess.CompletedProcess[bytes]) -> list[dict]:
    return json.loads(proc.stdout)


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()[-2000:]


# ---- 1. a NUL byte: never a pass -----------------------------------------------------------


def with_nul(text: str, after: str) -> tuple[str, int]:
    """``text`` with a NUL byte right after the first ``after``, and the NUL's offset."""
    at = text.index(after) + len(after)
    return text[:at] + "\x00" + text[at:], at


@pytest.mark.parametrize(("after", "code"), [('"Pon', "S103"), ('{"$phase": "1.train"}', "S108")])
def test_a_syllabus_with_a_nul_byte_fails_where_the_editor_says(tmp_path: Path, after: str, code: str) -> None:
    text, at = with_nul(GOOD.read_text(encoding="utf-8"), after)
    target = tmp_path / "syllabus.json"
    target.write_bytes(text.encode())
    proc = sylla("lint", "--format", "json", str(target))
    no_traceback(proc)
    assert proc.returncode == 1
    got = [(f["code"], f["line"], f["column"]) for f in findings(proc)]
    line, col = position(text, at)
    assert any(c == code and f_line == line and f_col <= col for c, f_line, f_col in got), got
    # the editor lints the same characters: the command line says the same
    editor = lint_text(text, str(target))
    assert [f["code"] for f in findings(proc)] == [f.code for f in editor.findings]
    piped = sylla("lint", "-", stdin=text.encode())
    assert piped.returncode == 1 and code.encode() in piped.stdout
    # the text report shows the NUL as a visible character, under which the caret stands
    shown = sylla("lint", str(target)).stdout.decode()
    assert "\x00" not in shown and "\u2400" in shown


def test_a_folder_walk_fails_on_binary_json_and_skips_what_is_no_syllabus(tmp_path: Path) -> None:
    text, _ = with_nul(GOOD.read_text(encoding="utf-8"), '"Pon')
    (tmp_path / "syllabus.jsonc").write_bytes(text.encode())
    shutil.copy(FIX / "cli" / "package.json", tmp_path / "package.json")
    shutil.copy(FIX / "rules" / "S122" / "bad" / "syllabus.json", tmp_path / "weights.json")  # gzip bytes, no config
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (tmp_path / "notes.txt").write_bytes(b'{"$phase": "1.train"}\x00')
    proc = sylla("lint", "--format", "json", str(tmp_path))
    no_traceback(proc)
    assert proc.returncode == 1
    by_file = {(Path(f["path"]).name, f["code"]) for f in findings(proc)}
    assert by_file == {("syllabus.jsonc", "S103"), ("weights.json", "S122")}


def test_an_explicit_binary_file_that_starts_like_json_is_linted(tmp_path: Path) -> None:
    target = tmp_path / "syllabus.dat"
    target.write_bytes(b'{"name": "x", "author": "\x00"}')
    proc = sylla("lint", str(target))
    no_traceback(proc)
    assert proc.returncode == 1 and b"S103" in proc.stdout


# ---- 2. --fix reports (and exits as) a fresh lint of what it wrote --------------------------


def test_fix_of_a_syllabus_with_a_bom_reports_what_a_fresh_lint_reports(tmp_path: Path) -> None:
    text = GOOD.read_text(encoding="utf-8").replace(', "enable_updates": false', "")  # H501, fixable
    target = tmp_path / "syllabus.json"
    target.write_bytes(b"\xef\xbb\xbf" + text.encode())
    fixed = sylla("lint", "--fix", "--format", "json", str(target))
    no_traceback(fixed)
    assert target.read_bytes().startswith(b"\xef\xbb\xbf")  # written back with its BOM
    fresh = sylla("lint", "--format", "json", str(target))
    assert "N601" in {f["code"] for f in findings(fresh)}
    assert (fixed.returncode, findings(fixed)) == (fresh.returncode, findings(fresh))
    # standard input: the fixed bytes on stdout, their lint's exit code
    target.write_bytes(b"\xef\xbb\xbf" + text.encode())
    piped = sylla("lint", "--fix", "-", stdin=target.read_bytes())
    again = sylla("lint", "-", stdin=piped.stdout)
    assert piped.stdout.startswith(b"\xef\xbb\xbf") and piped.returncode == again.returncode == 1


def test_fix_of_a_config_declared_utf16_reports_what_a_fresh_lint_reports(tmp_path: Path) -> None:
    text = (FIX / "birds" / "rules" / "B810_bad.xml").read_text(encoding="utf-8")
    assert 'encoding="utf-8"' in text
    target = tmp_path / "configMeta.xml"
    target.write_text(text.replace('encoding="utf-8"', 'encoding="utf-16"'), encoding="ascii")  # as the game writes it
    fixed = sylla("lint", "--fix", "--format", "json", str(target))
    no_traceback(fixed)
    fresh = sylla("lint", "--format", "json", str(target))
    assert "B810" not in {f["code"] for f in findings(fresh)}  # the fix was made
    assert (fixed.returncode, findings(fixed)) == (fresh.returncode, findings(fresh))


# ---- 3. a directive where it does not belong ------------------------------------------------


#: the fast tier takes the first of each family; the rest run with the slow tier (a few seconds each)
SLOW = pytest.mark.slow


@pytest.mark.parametrize("instruction", [
    '{"$repeat": {"$phase": "1.train"}, "count": 100}',
    pytest.param('{"$repeat": {"$info": {"disable_updates": true}}, "count": 3}', marks=SLOW),
    pytest.param('{"$repeat": {"$repeat": {"$episode": "Pong"}, "count": 2}, "count": 5}', marks=SLOW),
    pytest.param('{"$repeat": {"$episode": "Pong", "$phase": "2.train"}, "count": 5}', marks=SLOW),
])
def test_a_directive_inside_a_repeat_is_an_error_at_its_key(tmp_path: Path, instruction: str) -> None:
    text = GOOD.read_text(encoding="utf-8").replace('{"$phase": "1.train"}', instruction)
    target = tmp_path / "syllabus.json"
    target.write_text(text, encoding="utf-8")
    proc = sylla("lint", "--format", "json", str(target))
    no_traceback(proc)
    assert proc.returncode == 1
    key = instruction.index('"$', instruction.index('"$repeat"') + 1)  # the directive inside
    if instruction.startswith('{"$repeat": {"$episode"'):
        key = instruction.index('"$phase"')
    line, col = position(text, text.index(instruction) + key)
    assert [(f["line"], f["column"]) for f in findings(proc) if f["code"] == "S206"] == [(line, col)]
    for command in (["explain", str(target)], ["simulate", str(target), "-o", str(tmp_path / "log.csv")]):
        refused = sylla(*command)
        no_traceback(refused)
        assert refused.returncode == 1 and f"{line}:{col}".encode() in refused.stderr
    assert not (tmp_path / "log.csv").exists()


# ---- 4. a minified file with thousands of findings: output and memory bounded ---------------


def minified(blocks: int) -> str:
    """good.json on one line with ``blocks`` more blocks, each with a misspelt directive (N603)."""
    value = json.loads(GOOD.read_text(encoding="utf-8"))
    value["instructions"][1:1] = [{"$repeat": {"$episod": "Pong"}, "count": 5} for _ in range(blocks)]
    return json.dumps(value, separators=(",", ":"))


@pytest.fixture(scope="module")
def many_findings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A minified syllabus (one line of 130 KB) and how many findings it has."""
    target = tmp_path_factory.mktemp("minified") / "syllabus.json"
    target.write_text(minified(3000), encoding="utf-8")
    count = len(findings(sylla("lint", "--format", "json", str(target))))
    assert count >= 3000
    return target, count


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_minified_file_with_many_findings_gives_a_report_bounded_by_them(many_findings: tuple[Path, int], fmt: str) -> None:
    target, count = many_findings
    # the whole line under each finding was 400 MB here; a window of it is a few hundred bytes
    proc = sylla("lint", "--format", fmt, str(target), limit_memory=1 << 30)
    no_traceback(proc)
    assert proc.returncode == 1
    assert len(proc.stdout) < count * 2000 + (1 << 20)
    if fmt == "text":
        lines = proc.stdout.decode().splitlines()
        assert max(len(line) for line in lines) < 1200
        # the window shows the finding's token above its caret
        for header, source, caret in zip(lines[0::3], lines[1::3], lines[2::3]):
            if "N603" in header:
                at = caret.index("^")
                assert source[at : at + 9] == '"$episod"', (source, caret)


def test_a_long_line_is_shown_whole_up_to_200_characters(tmp_path: Path) -> None:
    """Hand-written files keep their report: a line is windowed only past 200 characters."""
    text = GOOD.read_text(encoding="utf-8").replace('{"$phase": "1.train"}', '{"$phase": "1.train"}, ' + '{"$info": {}}, ' * 8)
    target = tmp_path / "syllabus.json"
    target.write_text(text, encoding="utf-8")
    line = next(line for line in text.splitlines() if "$info" in line)
    assert 120 < len(line) <= 200
    assert f"  {line}\n".encode() in sylla("lint", str(target)).stdout


# ---- 5. deep nesting and numbers past what Python converts ----------------------------------


def hostile(kind: str) -> tuple[str, str, int]:
    """good.json with one hostile part: the text, the code expected, and the part's offset."""
    text = GOOD.read_text(encoding="utf-8")
    if kind == "nesting 70,000 deep":
        part = "[" * 70_000 + "]" * 70_000
        new = text.replace('"w": 0.2', f'"w": {part}')
        start = new.index(part)
        depth = sum(new[:start].count(c) for c in "{[") - sum(new[:start].count(c) for c in "}]")
        return new, "S110", start + MAX_DEPTH - depth  # the bracket that opens level 101
    if kind == "instructions nested 70,000 deep":  # no directive left: detection reads the JSON
        part = "[" * 70_000 + "]" * 70_000
        new = '{"instructions": ' + part + "}\n"
        return new, "S110", new.index(part) + MAX_DEPTH - 1
    if kind == "integer of 5,000 digits":
        part = "9" * 5000
        new = text.replace('"count": 50}', f'"count": {part}}}', 1)
        return new, "S107", new.index(part)
    if kind == "float past a double":
        new = text.replace('"w": 0.2', '"w": 1e400')
        return new, "S107", new.index("1e400")
    if kind == "phase number of 5,000 digits":
        label = "7" * 5000 + ".train"
        new = text.replace('"1.train"', f'"{label}"')
        return new, "P301", new.index(label) - 1
    raise AssertionError(kind)


KINDS = [pytest.param("nesting 70,000 deep", marks=SLOW), "instructions nested 70,000 deep", "integer of 5,000 digits",
         pytest.param("float past a double", marks=SLOW), pytest.param("phase number of 5,000 digits", marks=SLOW)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_command_gives_a_finding_at_the_place_never_a_traceback(tmp_path: Path, kind: str) -> None:
    text, code, at = hostile(kind)
    target = tmp_path / "syllabus.json"
    target.write_text(text, encoding="utf-8")
    line, col = position(text, at)
    proc = sylla("lint", "--format", "json", str(target))
    no_traceback(proc)
    assert proc.returncode == 1
    assert (code, line, col) in {(f["code"], f["line"], f["column"]) for f in findings(proc)}
    fixed = sylla("lint", "--fix", str(target))
    no_traceback(fixed)
    assert fixed.returncode == 1
    formatted = sylla("fmt", str(target))
    no_traceback(formatted)
    assert formatted.returncode in (0, 2)
    log = tmp_path / "log.csv"
    for command in (["explain", str(target)], ["simulate", str(target), "-o", str(log)],
                    ["metrics", "--syllabus", str(target), str(FIX / "metrics" / "short.csv")]):
        refused = sylla(*command)
        no_traceback(refused)
        assert refused.returncode == 1 and f"{target}:{line}:{col}:".encode() in refused.stderr, refused.stderr
    assert not log.exists()


# ---- 6. an absurd count --------------------------------------------------------------------


@pytest.mark.parametrize("count", [10**12, pytest.param(2**64, marks=SLOW), pytest.param(10**4000, marks=SLOW)],
                         ids=["10^12", "2^64", "10^4000"])
def test_an_absurd_count_is_warned_about_and_refused_with_its_line(tmp_path: Path, count: int) -> None:
    text = GOOD.read_text(encoding="utf-8").replace('"count": 50}', f'"count": {count}}}', 1)
    target = tmp_path / "syllabus.json"
    target.write_text(text, encoding="utf-8")
    line, col = position(text, text.index(str(count)))
    lint = sylla("lint", "--format", "json", str(target))
    no_traceback(lint)
    assert lint.returncode == 1
    assert [(f["line"], f["column"]) for f in findings(lint) if f["code"] == "H506"] == [(line, col)]
    explain = sylla("explain", str(target))  # a number in a table: no allocation
    assert explain.returncode == 0 and str(count + 60).encode() in explain.stdout
    log = tmp_path / "log.csv"
    for command in (["simulate", str(target), "-o", str(log)],
                    ["metrics", "--syllabus", str(target), str(FIX / "metrics" / "short.csv")],
                    ["watch", str(FIX / "metrics" / "short.csv"), "--syllabus", str(target), "--check"]):
        refused = sylla(*command, limit_memory=2 << 30)  # 7 TiB were asked for at 10^12
        no_traceback(refused)
        where = f"{target}:{line}:{col}: count ".encode()
        assert refused.returncode == 1 and where in refused.stderr and b"H506" in refused.stderr, refused.stderr
    assert not log.exists()
