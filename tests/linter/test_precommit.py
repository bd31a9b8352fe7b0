"""The hook through the real ``pre-commit``: installed into a repository from a snapshot of this
working tree (committed in a temp git repo, because pre-commit installs a hook repo at a rev),
then run by ``git commit`` as a user meets it, and by ``try-repo --all-files``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = REPO / "tests" / "fixtures" / "linter"
CLI_FIX = REPO / "tests" / "fixtures" / "cli"
IGNORE = shutil.ignore_patterns(".git", ".venv*", "node_modules", "__pycache__", ".pytest_cache", "*.egg-info", "vscode-extension", "metrics")
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}

pytestmark = [pytest.mark.precommit, pytest.mark.skipif(shutil.which("git") is None and os.environ.get("CI") != "true", reason="needs git")]


def _git(cwd: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, check=check, capture_output=True, text=True, env={**os.environ, **ENV, **(env or {})})


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict]:
    """A git snapshot of this tree (the hook repo), its rev, and a shared pre-commit cache."""
    base = tmp_path_factory.mktemp("precommit")
    repo = base / "hook"
    shutil.copytree(REPO, repo, ignore=IGNORE)
    (repo / "metrics").mkdir()  # the package list names it; its contents are not needed to lint
    (repo / "metrics" / "__init__.py").write_text("")
    for sub in ("readers", "plugins", "sweep"):
        (repo / "metrics" / sub).mkdir()
        (repo / "metrics" / sub / "__init__.py").write_text("")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "snapshot")
    rev = _git(repo, "rev-parse", "HEAD").stdout.strip()
    env = {"PRE_COMMIT_HOME": str(base / "cache")}
    return repo, rev, env


def _pre_commit() -> str:
    return str(Path(sys.executable).with_name("pre-commit"))


def test_commit_of_package_json_passes_and_bad_jsonc_or_xml_is_blocked(hook_repo, tmp_path: Path) -> None:
    repo, rev, env = hook_repo
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: sylla-lint\n"
    )
    subprocess.run([_pre_commit(), "install"], cwd=work, check=True, capture_output=True, env={**os.environ, **env})
    # the hook runs with the PATH git gives it; pre-commit must be found through its own venv
    hook_env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    shutil.copy(CLI_FIX / "package.json", work / "package.json")
    _git(work, "add", "package.json", ".pre-commit-config.yaml")
    ok = _git(work, "commit", "-m", "npm manifest", check=False, env=hook_env)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "S202" not in ok.stdout + ok.stderr

    shutil.copy(CLI_FIX / "bad.jsonc", work / "syllabus.jsonc")
    _git(work, "add", "syllabus.jsonc")
    blocked = _git(work, "commit", "-m", "syllabus", check=False, env=hook_env)
    out = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1, out
    assert "syllabus.jsonc:14:6: N603 [unknown-directive]" in out
    assert "syllabus" not in _git(work, "log", "--format=%s").stdout.split()  # nothing committed
    _git(work, "reset", "-q")

    # a syllabus saved as UTF-16 by Windows Notepad is told to be UTF-8, not skipped
    shutil.copy(CLI_FIX / "walk" / "nested" / "notepad-utf16.json", work / "notepad.json")
    _git(work, "add", "notepad.json")
    utf16 = _git(work, "commit", "-m", "utf16", check=False, env=hook_env)
    assert utf16.returncode == 1 and "notepad.json:1:1: S121 [encoding]" in utf16.stdout + utf16.stderr
    _git(work, "reset", "-q")
    (work / "notepad.json").unlink()

    # XML: a Maven pom passes untouched; a Science Birds configMeta.xml with a disabled trial is blocked
    (work / "pom.xml").write_text('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n')
    _git(work, "add", "pom.xml")
    pom = _git(work, "commit", "-m", "pom", check=False, env=hook_env)
    assert pom.returncode == 0, pom.stdout + pom.stderr
    shutil.copy(REPO / "tests" / "fixtures" / "birds" / "rules" / "B812_bad.xml", work / "configMeta.xml")
    _git(work, "add", "configMeta.xml")
    meta = _git(work, "commit", "-m", "meta", check=False, env=hook_env)
    assert meta.returncode == 1 and "configMeta.xml:7:16: B812 [trial-disabled]" in meta.stdout + meta.stderr


def test_try_repo_fails_only_on_bad_file(hook_repo, tmp_path: Path) -> None:
    repo, _, env = hook_repo
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(FIX / "good.json", work / "good.json")
    shutil.copy(FIX / "N603_bad.json", work / "bad.json")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    proc = subprocess.run(
        [_pre_commit(), "try-repo", str(repo), "sylla-lint", "--all-files"],
        cwd=work, capture_output=True, text=True, env={**os.environ, **env}, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "bad.json:9:6: N603 [unknown-directive]" in out
    assert "good.json:" not in out.replace("good.json\n", "")


def test_commit_of_a_syllabus_with_a_nul_byte_is_blocked(hook_repo, tmp_path: Path) -> None:
    """A NUL in the first KiB makes pre-commit's identify call the file binary; the hook must
    still pass it to sylla, which fails it where the NUL is (issue 38). The repository also
    holds files that are no syllabus, which still commit."""
    repo, rev, env = hook_repo
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: sylla-lint\n"
    )
    subprocess.run([_pre_commit(), "install"], cwd=work, check=True, capture_output=True, env={**os.environ, **env})
    hook_env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    shutil.copy(CLI_FIX / "package.json", work / "package.json")
    (work / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    _git(work, "add", "package.json", "logo.png", ".pre-commit-config.yaml")
    ok = _git(work, "commit", "-m", "assets", check=False, env=hook_env)
    assert ok.returncode == 0, ok.stdout + ok.stderr

    text = (FIX / "good.json").read_text(encoding="utf-8")
    at = text.index('"Pong"') + 3
    (work / "syllabus.json").write_bytes((text[:at] + "\x00" + text[at:]).encode())
    line = text.count("\n", 0, at) + 1
    _git(work, "add", "syllabus.json")
    blocked = _git(work, "commit", "-m", "syllabus", check=False, env=hook_env)
    out = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1, out
    assert f"syllabus.json:{line}:" in out and "S103 [bad-string]" in out
    assert "syllabus" not in _git(work, "log", "--format=%s").stdout.split()
