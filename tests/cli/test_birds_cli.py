"""``sylla lint``/``explain``/``fmt`` on Science Birds configs, through the installed ``sylla``
entry point as a user runs it: folders mixing syllabi and configs, --fix in place, the explain
contract, and hostile files (a clear message, no traceback, bounded memory)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).resolve().parents[1] / "fixtures"
BIRDS = FIX / "birds"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def sylla(*args: str, cwd: Path | None = None, limit_memory: int | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    if SYLLA is None:  # pragma: no cover - the editable install provides it
        pytest.fail("the sylla entry point is not installed (run scripts/setup.sh)")

    def cap() -> None:
        if limit_memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run([SYLLA, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout, preexec_fn=cap)


@pytest.fixture
def trial_folder(tmp_path: Path) -> Path:
    """A StreamingAssets-like folder: configMeta.xml, config.xml, a syllabus, XML that is not a
    trial config (one even named configMeta.xml), and a JSON file that is not a syllabus."""
    (tmp_path / "configMeta.xml").write_bytes((BIRDS / "rules" / "B836_bad" / "configMeta.xml").read_bytes())
    (tmp_path / "config.xml").write_bytes((BIRDS / "rules" / "B836_bad" / "config.xml").read_bytes())
    (tmp_path / "syllabus.json").write_bytes((FIX / "linter" / "good.json").read_bytes())
    sub = tmp_path / "other"
    sub.mkdir()
    (sub / "configMeta.xml").write_text('<?xml version="1.0"?>\n<project><name>not a trial config</name></project>\n')
    (tmp_path / "package.json").write_text('{"name": "x"}\n')
    return tmp_path


@pytest.mark.slow
def test_lint_folder_finds_configs_by_root_element(trial_folder: Path) -> None:
    proc = sylla("lint", "--format", "json", str(trial_folder))
    assert proc.returncode == 1, proc.stderr
    items = json.loads(proc.stdout)
    assert [(Path(i["path"]).name, i["code"], i["line"], i["column"]) for i in items] == [("config.xml", "B836", 6, 51)]
    text = sylla("lint", str(trial_folder)).stdout
    assert text.rstrip().endswith("in 3 files.")  # configMeta.xml, config.xml, syllabus.json


@pytest.mark.slow
def test_lint_fix_in_place_keeps_utf16_and_is_idempotent(tmp_path: Path) -> None:
    target = tmp_path / "configMeta.xml"
    text = (BIRDS / "rules" / "B810_bad.xml").read_text().replace('encoding="utf-8"', 'encoding="utf-16"')
    target.write_bytes(text.encode("utf-16"))
    os.chmod(target, 0o640)
    proc = sylla("lint", "--fix", str(target))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    once = target.read_bytes()
    assert once.startswith(b"\xff\xfe") and '<test ordered="true">' in once.decode("utf-16")
    assert once.decode("utf-16") == (BIRDS / "rules" / "good-meta.xml").read_text().replace('encoding="utf-8"', 'encoding="utf-16"')
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    sylla("lint", "--fix", str(target))
    assert target.read_bytes() == once
    assert [p.name for p in tmp_path.iterdir()] == ["configMeta.xml"]


def test_lint_text_output_points_at_the_value() -> None:
    proc = sylla("lint", str(BIRDS / "rules" / "B811_bad.xml"))
    assert proc.returncode == 1
    assert f"{BIRDS / 'rules' / 'B811_bad.xml'}:3:40: B811 [measurement-contradiction] warning:" in proc.stdout
    assert '  <novelty_detection_measurement step="0"' in proc.stdout


@pytest.mark.slow
def test_explain_meta_text_and_json() -> None:
    proc = sylla("explain", str(BIRDS / "worked-example.xml"))
    assert proc.returncode == 0, proc.stderr  # the utf-16 warning goes to stderr, not the exit code
    assert "total_n_testsets = ceil(360 / 200) + ceil(60000 / 200) = 2 + 300 -> 302" in proc.stdout
    assert 'encoding="utf-16"' in proc.stderr
    doc = json.loads(sylla("explain", "--format", "json", str(BIRDS / "worked-example.xml")).stdout)
    assert doc["kind"] == "science-birds-meta" and doc["trials"][0]["test"]["total_n_testsets"] == {"min": 302, "max": 302}


def test_explain_generated_config() -> None:
    doc = json.loads(sylla("explain", "--format", "json", str(BIRDS / "rules" / "good-config.xml")).stdout)
    assert doc["kind"] == "science-birds-config" and doc["totals"] == {"trials": 2, "executions": 2}
    assert doc["trials"][0]["training"]["levels"] == 2 and [s["levels"] for s in doc["trials"][0]["test_sets"]] == [1]


def test_explain_folder_lists_every_file(trial_folder: Path) -> None:
    proc = sylla("explain", "--format", "json", str(trial_folder))
    docs = json.loads(proc.stdout)
    assert sorted(Path(d["path"]).name for d in docs) == ["config.xml", "configMeta.xml", "syllabus.json"]


def test_explain_syllabus_unchanged() -> None:
    proc = sylla("explain", "--format", "json", str(FIX / "grammar" / "full-enable-updates.json"))
    assert proc.returncode == 0 and "phases" in json.loads(proc.stdout)


def test_fmt_check_says_xml_is_not_formatted(trial_folder: Path) -> None:
    proc = sylla("fmt", "--check", str(trial_folder / "configMeta.xml"))
    assert proc.returncode == 0
    assert "Science Birds XML is not formatted by sylla; left as is" in proc.stderr
    before = (trial_folder / "configMeta.xml").read_bytes()
    assert sylla("fmt", str(trial_folder / "configMeta.xml")).returncode == 0
    assert (trial_folder / "configMeta.xml").read_bytes() == before


@pytest.mark.parametrize(
    "content,words",
    [
        (b'<?xml version="1.0"?>\n<!DOCTYPE l [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n<evaluation>&b;</evaluation>\n', ":3:1: B802"),
        (b'<?xml version="1.0"?>\n<!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<evaluation>&x;</evaluation>\n', "external entity"),
        (b"<config_generation>\n  <trials>\n    <trial", "truncated"),
    ],
)
def test_hostile_files_get_a_clear_error(tmp_path: Path, content: bytes, words: str) -> None:
    target = tmp_path / "configMeta.xml"
    target.write_bytes(content)
    proc = sylla("lint", str(target))
    assert proc.returncode == 1 and words in proc.stdout and "Traceback" not in proc.stderr
    assert "root:" not in proc.stdout  # /etc/passwd never read


def test_50_mb_file_finishes_fast_in_bounded_memory(tmp_path: Path) -> None:
    """A 50 MB config.xml (the real shape: one <game_levels> per level) is refused with a clear
    message by a process that may not use more than 1 GB of address space."""
    target = tmp_path / "config.xml"
    line = b'        <game_levels level_path="Levels/novelty_level_1/type1/Levels/1_1_00001.xml" />\n'
    with open(target, "wb") as fh:
        fh.write(b'<?xml version="1.0" encoding="utf-16"?>\n<evaluation>\n  <trials>\n    <trial id="0" number_of_executions="1">\n')
        fh.write(b'      <game_level_set mode="training" time_limit="360">\n')
        fh.write(line * (50 * 1024 * 1024 // len(line) + 1))
        fh.write(b"      </game_level_set>\n    </trial>\n  </trials>\n</evaluation>\n")
    assert target.stat().st_size > 50 * 1024 * 1024
    # the process's exit is the event; the timeout only bounds a hang (how fast it ends is the
    # machine's, and the memory limit already says the file was not read into a tree)
    proc = sylla("lint", "--format", "json", str(target), limit_memory=1024 * 1024 * 1024, timeout=300)
    assert proc.returncode == 1, proc.stderr
    (item,) = json.loads(proc.stdout)
    assert item["code"] == "B801" and "MB; sylla reads Science Birds configs up to 32 MB" in item["message"]


def test_linting_syllabi_never_loads_the_xml_libraries() -> None:
    code = (
        "import sys; from sylla.cli import main; main(['lint', '--format', 'json', %r]);"
        "print([m for m in ('xmlschema', 'defusedxml', 'elementpath') if m in sys.modules])"
    ) % str(FIX / "linter" / "good.json")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]")
