"""``sylla new`` as a user runs it: the written file passes ``sylla lint`` and ``sylla fmt
--check`` run as separate processes; bad combinations are usage errors (exit 2) with a reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def test_written_file_lints_clean_and_is_formatted(tmp_path: Path) -> None:
    out = tmp_path / "cl.json"
    proc = run("new", "--type", "CL", "--task", "Pong", "--vary", "Pong:bot/paddle/width=0.15,0.2,0.25",
               "--module", "l2arcadekit.l2agames", "--style", "enable_updates", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    lint = run("lint", str(out), "--fail-on", "info")
    assert lint.returncode == 0, lint.stdout
    assert run("fmt", "--check", str(out)).returncode == 0
    data = json.loads(out.read_text())
    assert data["syllabus_type"] == "CL"
    assert [i["$phase"] for i in data["instructions"] if "$phase" in i] == [
        "1.train", "1.test", "2.train", "2.test", "3.train", "3.test"]


def test_pretest_file_lints_clean_under_the_pretest_profile(tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    assert run("new", "--type", "ANT-B", "--task", "Pong", "--task", "Breakout", "--pretest", "-o", str(out)).returncode == 0
    assert run("lint", str(out), "--profile", "pretest", "--fail-on", "info").returncode == 0


def test_stdout_when_no_output_file_and_deterministic() -> None:
    a = run("new", "--type", "ANT-A", "--task", "Pong", "--task", "Breakout")
    b = run("new", "--type", "ANT-A", "--task", "Pong", "--task", "Breakout")
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout.endswith("}\n")


def test_usage_errors_exit_2_with_a_reason() -> None:
    proc = run("new", "--type", "CL", "--task", "Pong", "--task", "Breakout", "--vary", "Pong:w=1,2")
    assert proc.returncode == 2 and "exactly one --task" in proc.stderr and not proc.stdout
    proc = run("new", "--type", "ANT-C", "--task", "Pong", "--task", "Breakout", "--vary", "Freeway:w=1,2")
    assert proc.returncode == 2 and "'Freeway' is not one of the --task names" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_existing_file_is_not_overwritten_without_force(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    out.write_text("keep")
    args = ("new", "--type", "STE", "--task", "Pong", "-o", str(out))
    proc = run(*args)
    assert proc.returncode == 2 and "--force" in proc.stderr and out.read_text() == "keep"
    assert run(*args, "--force").returncode == 0 and json.loads(out.read_text())["syllabus_type"] == "STE"


def test_dry_run_prints_explain_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    proc = run("new", "--type", "ANT-C", "--task", "Pong", "--task", "Breakout", "--vary", "Pong:w=1,2",
               "-o", str(out), "--dry-run", "-f", "json")
    assert proc.returncode == 0 and not out.exists()
    doc = json.loads(proc.stdout)
    assert doc["type"] == "ANT-C" and doc["inferred_type"] == "ANT-C"
    text = run("new", "--type", "ANT-B", "--task", "Pong", "--task", "Breakout", "--dry-run").stdout
    assert "ANT-B" in text and "1.test" in text and "off" in text
