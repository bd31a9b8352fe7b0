"""Shared pieces of the VS Code tests: the extension's npm steps as session fixtures
(node_modules, one build, one .vsix that every test in this folder shares; the packaged file is
what users install, so the tests run it).

The steps write into ``vscode-extension/`` (node_modules, dist/, sylla.vsix), so under
pytest-xdist they run once per test run, not once per worker: the first worker to need them
runs them under a file lock and leaves the results beside the run's temporary folders; the
others wait on the lock and read them. Two builds at once would overwrite the bundle that a
third test is reading."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "vscode-extension"
VSIX = EXTENSION / "sylla.vsix"
STEP_TIMEOUT_S = 180


def run_npm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=EXTENSION, capture_output=True, text=True, timeout=STEP_TIMEOUT_S, check=False)


def explain(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n--- stdout ---\n{result.stdout[-4000:]}\n--- stderr ---\n{result.stderr[-4000:]}"


def once_per_run(shared: Path, name: str, step: Callable[[], dict[str, object]]) -> dict[str, object]:
    """``step()``'s result, computed by one process of this test run: under xdist the workers
    share ``shared`` (the run's temporary root, the parent of each one's basetemp) and ``name``'s
    lock in it; the result, a JSON object, is kept there for the workers that come later."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:  # one process: the session fixture itself runs once
        return step()
    done = shared / f"sylla-{name}.json"
    with FileLock(shared / f"sylla-{name}.lock"):
        if done.exists():
            kept = json.loads(done.read_text(encoding="utf-8"))
            if kept["run"] == run:
                return kept["result"]
        result = step()
        done.write_text(json.dumps({"run": run, "result": result}), encoding="utf-8")
        return result


def _completed(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    return {"args": result.args, "returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}


def _install() -> dict[str, object]:
    """node_modules (its own stamp makes this a no-op when they are current)."""
    assert shutil.which("npm"), "npm is not on PATH: the VS Code extension needs Node.js 20+ with npm"
    setup = subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.d" / "40-vscode.sh")],
        capture_output=True, text=True, timeout=STEP_TIMEOUT_S, check=False,
    )
    return {"setup": _completed(setup)}


def _build_and_package() -> dict[str, object]:
    """The bundle (dist/), then the .vsix: the writes into vscode-extension/ that tests read."""
    build = run_npm("npm", "run", "build")
    if build.returncode != 0:
        return {"build": _completed(build)}
    VSIX.unlink(missing_ok=True)
    return {"build": _completed(build), "package": _completed(run_npm("npm", "run", "package"))}


def _step(steps: dict[str, object], name: str) -> subprocess.CompletedProcess[str]:
    kept = steps[name]
    assert isinstance(kept, dict)
    return subprocess.CompletedProcess(kept["args"], kept["returncode"], kept["stdout"], kept["stderr"])


@pytest.fixture(scope="session")
def node_modules(tmp_path_factory: pytest.TempPathFactory) -> None:
    setup = _step(once_per_run(tmp_path_factory.getbasetemp().parent, "vscode-node-modules", _install), "setup")
    assert setup.returncode == 0, explain(setup)


@pytest.fixture(scope="session")
def built(node_modules: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The results of ``npm run build`` and ``npm run package``, once per test run."""
    return once_per_run(tmp_path_factory.getbasetemp().parent, "vscode-build", _build_and_package)


@pytest.fixture(scope="session")
def build(built: dict[str, object]) -> subprocess.CompletedProcess[str]:
    return _step(built, "build")


@pytest.fixture(scope="session")
def vsix(build: subprocess.CompletedProcess[str], built: dict[str, object]) -> Path:
    assert build.returncode == 0, explain(build)
    package = _step(built, "package")
    assert package.returncode == 0, explain(package)
    return VSIX


@pytest.fixture(scope="session")
def packaged_extension(vsix: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The .vsix unpacked as VS Code unpacks it: the folder that holds package.json and dist/."""
    target = tmp_path_factory.mktemp("vsix")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(target)
    return target / "extension"
