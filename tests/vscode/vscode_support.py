"""Shared pieces of the VS Code tests: the extension's npm steps as session fixtures
(node_modules, one build, one .vsix that every test in this folder shares; the packaged file is
what users install, so the tests run it)."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "vscode-extension"
VSIX = EXTENSION / "sylla.vsix"
STEP_TIMEOUT_S = 180


def run_npm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=EXTENSION, capture_output=True, text=True, timeout=STEP_TIMEOUT_S, check=False)


def explain(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n--- stdout ---\n{result.stdout[-4000:]}\n--- stderr ---\n{result.stderr[-4000:]}"


@pytest.fixture(scope="session")
def node_modules() -> None:
    assert shutil.which("npm"), "npm is not on PATH: the VS Code extension needs Node.js 20+ with npm"
    setup = subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.d" / "40-vscode.sh")],
        capture_output=True, text=True, timeout=STEP_TIMEOUT_S, check=False,
    )
    assert setup.returncode == 0, explain(setup)


@pytest.fixture(scope="session")
def build(node_modules: None) -> subprocess.CompletedProcess[str]:
    return run_npm("npm", "run", "build")


@pytest.fixture(scope="session")
def vsix(build: subprocess.CompletedProcess[str]) -> Path:
    assert build.returncode == 0, explain(build)
    VSIX.unlink(missing_ok=True)
    result = run_npm("npm", "run", "package")
    assert result.returncode == 0, explain(result)
    return VSIX


@pytest.fixture(scope="session")
def packaged_extension(vsix: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .vsix unpacked as VS Code unpacks it: the folder that holds package.json and dist/."""
    target = tmp_path_factory.mktemp("vsix")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(target)
    return target / "extension"
