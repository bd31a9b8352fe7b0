"""The real ``pre-commit try-repo`` against a copy of this working tree (committed in a temp
git repo, because try-repo installs from HEAD) on a repo with one good and one bad syllabus."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = REPO / "tests" / "fixtures" / "linter"
IGNORE = shutil.ignore_patterns(".git", ".venv*", "node_modules", "__pycache__", ".pytest_cache", "*.egg-info", "vscode-extension", "metrics")


def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_pre_commit_hook_fails_only_on_bad_file(tmp_path: Path) -> None:
    hook_repo = tmp_path / "hook"
    shutil.copytree(REPO, hook_repo, ignore=IGNORE)
    (hook_repo / "metrics").mkdir()  # the package list names it; its contents are not needed to lint
    (hook_repo / "metrics" / "__init__.py").write_text("")
    for sub in ("readers", "plugins"):
        (hook_repo / "metrics" / sub).mkdir()
        (hook_repo / "metrics" / sub / "__init__.py").write_text("")
    _git(hook_repo, "init", "-q")
    _git(hook_repo, "add", "-A")
    _git(hook_repo, "commit", "-qm", "snapshot")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(FIX / "good.json", work / "good.json")
    shutil.copy(FIX / "N603_bad.json", work / "bad.json")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    pre_commit = Path(sys.executable).with_name("pre-commit")
    proc = subprocess.run(
        [str(pre_commit), "try-repo", str(hook_repo), "sylla-lint", "--all-files"],
        cwd=work, capture_output=True, text=True, env=env, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "bad.json:9:6: N603 [unknown-directive]" in out
    assert "good.json:" not in out.replace("good.json\n", "")
