"""The package as pip users get it: a wheel built from this tree, installed (not editable) into
a fresh virtual environment. It ships py.typed and the rule docs its links point at, declares
its licence as SPDX, and a user's mypy sees the types of the public API."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

REPO = Path(__file__).resolve().parents[2]
MYPY = Path(sys.executable).with_name("mypy")
#: what only the tests use (the test extra): a module that imports one is test code
TEST_ONLY = {"hypothesis", "pytest", "pytest_lsp", "playwright", "fuzzing"}

pytestmark = pytest.mark.packaging

GOOD = '''
import sylla
from sylla.grammar.syllabus.parse import ParseResult
from sylla.linter import LintResult

parsed: ParseResult = sylla.parse('{"instructions": [{"$phase": "1.train"}]}')
result: LintResult = sylla.lint(b'{"instructions": []}', "x.json")
codes: list[str] = [f.code for f in result.findings]
if parsed.model is not None:
    plan = sylla.schedule(parsed.model, workers=2, worker=1)
    episodes: int = plan.episodes
    doc: dict = sylla.explain(parsed.model, 2, 1)
'''

# each line is wrong in a way mypy can only see when it knows the real signatures
BAD = '''
import sylla

a: int = sylla.parse("{}")
b: str = sylla.lint(b"{}").findings
c = sylla.schedule("not a model")
d = sylla.explain(sylla.parse("{}").model, workers="2")
e: int = sylla.compute_metrics("log.csv")
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """(the wheel, the venv's python, the build log)."""
    base = tmp_path_factory.mktemp("package")
    # build from a copy: setuptools writes build/ and *.egg-info/ beside the sources
    source = base / "src"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "node_modules", "__pycache__", ".pytest_cache", "*.egg-info", "build", "dist", "vscode-extension", "tests"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(base / "dist")],
        capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    wheel = next((base / "dist").glob("sylla-*.whl"))
    venv.create(base / "venv", with_pip=True)
    python = base / "venv" / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stdout + install.stderr
    return wheel, python, build.stdout + build.stderr


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    return subprocess.run([str(python), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def test_wheel_ships_typing_marker_docs_and_spdx_licence(installed) -> None:
    wheel, _, log = installed
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert {"sylla/py.typed", "sylla/docs/rules.md"} <= names
    # sylla watch / sylla report work offline: the page's scripts ship in the wheel
    assert {f"sylla/metrics/watch/assets/{n}" for n in (
        "index.html", "app.js", "vega.min.js", "vega-lite.min.js", "vega-embed.min.js")} <= names
    assert "License-Expression: MIT" in metadata.splitlines()
    assert "License :: " not in metadata
    assert "SetuptoolsDeprecationWarning" not in log and "license" not in log.lower()


def test_wheel_ships_no_test_harness(installed) -> None:
    """The fuzz harnesses are test code (tests/fuzzing/): no module of the wheel is one, by its
    name or by what it imports."""
    wheel, _, _ = installed
    harnesses = []
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if not name.endswith(".py"):
                continue
            tree = ast.parse(z.read(name), name)
            imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
            if "fuzz" in name.lower() or imported & TEST_ONLY:
                harnesses.append(f"{name}: imports {sorted(imported & TEST_ONLY)}")
    assert not harnesses, "test code in the wheel:\n" + "\n".join(harnesses)


def test_rule_links_work_from_a_non_editable_install(installed, tmp_path: Path) -> None:
    _, python, _ = installed
    probe = _run(python, "-c", "import sylla, sylla.linter as l; print(sylla.__file__); print(l.doc_url('P301'))", cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    module, url = probe.stdout.split()
    assert str(REPO) not in module  # the installed copy, not this checkout
    parsed = urlparse(url)
    page = Path(url2pathname(parsed.path))
    assert parsed.scheme == "file" and parsed.fragment == "p301"
    assert page.is_file() and str(REPO) not in str(page)
    assert "### P301" in page.read_text(encoding="utf-8")
    shown = subprocess.run([str(python.with_name("sylla")), "rule", "P301"], capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0 and "phase-label-format" in shown.stdout


@pytest.mark.skipif(not MYPY.exists() and os.environ.get("CI") != "true", reason="mypy comes with the test extra")
def test_mypy_sees_the_public_api(installed, tmp_path: Path) -> None:
    _, python, _ = installed
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    args = ("--python-executable", str(python), "--no-incremental", "--cache-dir", os.devnull)
    good = subprocess.run([str(MYPY), *args, "good.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = subprocess.run([str(MYPY), *args, "bad.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    out = bad.stdout
    assert "missing library stubs or py.typed marker" not in out
    for line in (4, 5, 6, 7, 8):
        assert f"bad.py:{line}: error:" in out, out
