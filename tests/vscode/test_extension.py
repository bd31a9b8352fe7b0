"""The VS Code extension's build, unit tests and packaging, run the way CI runs them.

Each step runs in ``vscode-extension/`` through npm; the ``.vsix`` is then opened as the zip it is.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from vscode_support import EXTENSION, ROOT
from vscode_support import explain as _explain
from vscode_support import run_npm as _run

pytestmark = [pytest.mark.editor, pytest.mark.packaging]


GRAMMAR_SCHEMA = ROOT / "grammar" / "syllabus" / "syllabus.schema.json"


@pytest.fixture(scope="module", autouse=True)
def _node_modules(node_modules: None) -> None:
    """Every test here runs npm in vscode-extension/."""


def test_build_bundles_the_extension(build: subprocess.CompletedProcess[str]) -> None:
    assert build.returncode == 0, _explain(build)
    assert (EXTENSION / "dist" / "extension.js").stat().st_size > 0


# Loads the bundle with every `vscode` API replaced by a no-op proxy: the bundle must resolve all
# of its own imports and export the entry points VS Code calls.
LOAD_BUNDLE = """
const Module = require("module");
const load = Module._load;
const any = new Proxy(function () {}, { get: (_t, p) => (p === "__esModule" ? false : any), apply: () => any, construct: () => any });
Module._load = function (request, ...rest) { return request === "vscode" ? any : load.call(this, request, ...rest); };
const bundle = require(process.argv[1]);
console.log([typeof bundle.activate, typeof bundle.deactivate].join(","));
"""


def test_bundle_loads_without_node_modules_and_exports_the_entry_points(
    build: subprocess.CompletedProcess[str], tmp_path: Path
) -> None:
    alone = tmp_path / "extension.js"
    shutil.copyfile(EXTENSION / "dist" / "extension.js", alone)
    result = subprocess.run(
        ["node", "-e", LOAD_BUNDLE, str(alone)], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, _explain(result)
    assert result.stdout.strip() == "function,function"


def test_build_copies_the_schema_from_grammar(build: subprocess.CompletedProcess[str]) -> None:
    copied = EXTENSION / "schemas" / "syllabus.schema.json"
    assert copied.read_bytes() == GRAMMAR_SCHEMA.read_bytes()


def test_unit_tests_pass() -> None:
    result = _run("npm", "test")
    assert result.returncode == 0, _explain(result)
    passed = re.search(r"^# pass (\d+)$", result.stdout, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", result.stdout, re.MULTILINE)
    assert passed and failed, _explain(result)
    assert int(failed.group(1)) == 0
    assert int(passed.group(1)) >= 60, f"only {passed.group(1)} unit tests ran"


def test_vsce_packages_a_vsix_with_the_bundle_schema_and_manifest(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
    assert {"extension/package.json", "extension/dist/extension.js", "extension/schemas/syllabus.schema.json"} <= names


def test_vsix_leaves_out_sources_tests_and_node_modules(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as archive:
        names = archive.namelist()
    unwanted = [n for n in names if re.match(r"extension/(src|test|out|node_modules|scripts)/", n) or n.endswith(".ts")]
    assert unwanted == []
    assert vsix.stat().st_size < 1_000_000
