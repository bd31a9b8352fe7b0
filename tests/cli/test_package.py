"""The package as pip users get it: the sdist and a wheel built from it (``python -m build``),
both passing ``twine check``, and the wheel installed alone (not editable) with the metrics
extra into a fresh virtual environment, where ``sylla lint`` and ``sylla metrics`` give the
bundled examples the same answers as this checkout. The wheel ships py.typed, the rule docs its
links point at and the licence text, declares its licence as SPDX, carries no test harness, and
a user's mypy sees the types of the public API."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MYPY = BIN / "mypy"
#: what only the tests use (the test extra): a module that imports one is test code
TEST_ONLY = {"hypothesis", "pytest", "pytest_lsp", "playwright", "fuzzing"}
#: the examples a user is pointed at (README, docs/guide.md), as ``sylla lint`` and ``sylla metrics`` take them
LINTED = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "examples").glob("*.json*"))
METRICS = ["--syllabus", "examples/metrics/pong_breakout.json", "--log", "examples/metrics/rewards.csv",
           "--ste", "examples/metrics/ste", "--format", "json", "--no-progress"]

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


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path
    python: Path  # the fresh venv's, with the wheel installed
    log: str  # what the build printed


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Built:
    base = tmp_path_factory.mktemp("package")
    # build from a copy: setuptools writes build/ and *.egg-info/ beside the sources
    source = base / "src"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", ".tools", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
        ".hypothesis", "*.egg-info", "build", "dist", "out", "vscode-extension", "tests"))
    # the sdist first, then the wheel from the unpacked sdist: a file the sdist leaves out is missing from the wheel too
    build = subprocess.run([sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(source)],
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout + build.stderr
    (sdist,) = (base / "dist").glob("sylla-*.tar.gz")
    (wheel,) = (base / "dist").glob("sylla-*.whl")
    venv.create(base / "venv", with_pip=True)
    python = base / "venv" / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", f"{wheel}[metrics]"],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stdout + install.stderr
    return Built(sdist, wheel, python, build.stdout + build.stderr)


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    return subprocess.run([str(python), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def _sylla(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``sylla ARGS`` from the console script beside ``python``, in the checkout (where the examples are)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    return subprocess.run([str(python.with_name("sylla")), *args], capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=300)


def test_sdist_and_wheel_pass_twine_check(installed: Built) -> None:
    check = subprocess.run([str(BIN / "twine"), "check", "--strict", str(installed.sdist), str(installed.wheel)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASSED") == 2, check.stdout


def test_wheel_ships_typing_marker_docs_and_spdx_licence(installed: Built) -> None:
    with zipfile.ZipFile(installed.wheel) as z:
        names = set(z.namelist())
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        licences = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert licences, sorted(n for n in names if ".dist-info/" in n)
        assert z.read(licences[0]) == (REPO / "LICENSE").read_bytes()
    assert {"sylla/py.typed", "sylla/docs/rules.md"} <= names
    # sylla watch / sylla report work offline: the page's scripts ship in the wheel
    assert {f"sylla/metrics/watch/assets/{n}" for n in (
        "index.html", "app.js", "vega.min.js", "vega-lite.min.js", "vega-embed.min.js")} <= names
    assert "License-Expression: MIT" in metadata.splitlines()
    assert "License-File: LICENSE" in metadata.splitlines()
    assert "License :: " not in metadata
    assert "SetuptoolsDeprecationWarning" not in installed.log
    assert not [line for line in installed.log.splitlines() if "warning" in line.lower() and "licen" in line.lower()]


def test_licence_is_the_mit_text_the_metadata_declares_and_the_sdist_carries_it(installed: Built) -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
    with tarfile.open(installed.sdist) as sdist:
        root = sdist.getnames()[0].split("/")[0]
        carried = sdist.extractfile(f"{root}/LICENSE")
        assert carried is not None and carried.read().decode() == text


def test_wheel_ships_no_test_harness(installed: Built) -> None:
    """The fuzz harnesses are test code (tests/fuzzing/): no module of the wheel is one, by its
    name or by what it imports."""
    harnesses = []
    with zipfile.ZipFile(installed.wheel) as z:
        for name in z.namelist():
            if not name.endswith(".py"):
                continue
            tree = ast.parse(z.read(name), name)
            imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
            if "fuzz" in name.lower() or imported & TEST_ONLY:
                harnesses.append(f"{name}: imports {sorted(imported & TEST_ONLY)}")
    assert not harnesses, "test code in the wheel:\n" + "\n".join(harnesses)


def test_installed_sylla_is_the_wheel_not_this_checkout(installed: Built, tmp_path: Path) -> None:
    probe = _run(installed.python, "-c", "import sylla; print(sylla.__file__)", cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert str(REPO) not in probe.stdout and str(installed.python.parents[1]) in probe.stdout


@pytest.mark.parametrize("example", LINTED)
def test_installed_wheel_lints_the_examples_as_the_checkout_does(installed: Built, example: str) -> None:
    for fmt in ("text", "json"):
        wheel = _sylla(installed.python, "lint", "--format", fmt, example)
        checkout = _sylla(BIN / "python", "lint", "--format", fmt, example)
        assert "Traceback" not in wheel.stderr, wheel.stderr
        assert (wheel.returncode, wheel.stdout, wheel.stderr) == (checkout.returncode, checkout.stdout, checkout.stderr)
        assert wheel.returncode in (0, 1)


def test_installed_wheel_computes_the_examples_metrics_as_the_checkout_does(installed: Built) -> None:
    wheel = _sylla(installed.python, "metrics", *METRICS)
    checkout = _sylla(BIN / "python", "metrics", *METRICS)
    assert wheel.returncode == 0, wheel.stderr
    assert json.loads(wheel.stdout) == json.loads(checkout.stdout)
    assert wheel.stderr == checkout.stderr


def test_rule_links_work_from_a_non_editable_install(installed: Built, tmp_path: Path) -> None:
    python = installed.python
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
def test_mypy_sees_the_public_api(installed: Built, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    args = ("--python-executable", str(installed.python), "--no-incremental", "--cache-dir", os.devnull)
    good = subprocess.run([str(MYPY), *args, "good.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = subprocess.run([str(MYPY), *args, "bad.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    out = bad.stdout
    assert "missing library stubs or py.typed marker" not in out
    for line in (4, 5, 6, 7, 8):
        assert f"bad.py:{line}: error:" in out, out
