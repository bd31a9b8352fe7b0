"""The packaged extension starts the real server: ``dist/extension.js`` taken out of the .vsix,
with the ``vscode-languageclient`` bundled in it, is activated under Node against a minimal
``vscode`` host (bundle_host/fake_vscode.js: documents, settings, registrations, no client
logic). It spawns ``<this venv's python> -m sylla lsp`` the way VS Code would, and the
diagnostics of an open syllabus must reach the editor's diagnostic collection.

This is the path that broke in issue 14: the client appended ``--stdio`` and the server refused
it, so every feature was dead while the unit tests (which stub the client) stayed green.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from vscode_support import ROOT

pytestmark = [pytest.mark.editor, pytest.mark.packaging]


HOST = Path(__file__).parent / "bundle_host" / "run_bundle.js"
FIXTURES = ROOT / "tests" / "fixtures"


def run_packaged(
    extension: Path, workspace: Path, document: Path, python: str = sys.executable, timeout_ms: int = 90000, **env: str
) -> dict:
    proc = subprocess.run(
        ["node", str(HOST), str(extension / "dist" / "extension.js"), python, str(workspace), str(document), str(timeout_ms)],
        capture_output=True, text=True, timeout=240, cwd=workspace, check=False, env=dict(os.environ, **env),
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the host printed no report (exit {proc.returncode}): {proc.stdout[-2000:]} {proc.stderr[-2000:]}"
    return json.loads(lines[-1])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "experiment"
    folder.mkdir()
    shutil.copy(FIXTURES / "lsp" / "bad.json", folder / "syllabus_ANT.json")
    return folder


def test_packaged_extension_shows_the_servers_diagnostics(packaged_extension: Path, workspace: Path) -> None:
    report = run_packaged(packaged_extension, workspace, workspace / "syllabus_ANT.json")
    assert report.get("crash") is None, report
    assert report["arrived"], f"no diagnostics reached the editor; output:\n{report['output']}\nerrors: {report['errors']}"
    # bad.json's findings, as the CLI reports them for that file (tests/lsp/test_neovim.py sees the same;
    # one task and nothing varies: an STE syllabus, so T401 says so and no T403, as in 98554ca).
    codes = [(d["code"], d["line"]) for d in report["diagnostics"]]
    assert codes == [("T401", 2), ("P303", 5), ("P306", 5), ("H501", 7), ("P302", 7), ("N602", 8)]
    assert report["errors"] == []
    assert "-m sylla lsp" in report["output"]


def test_packaged_extension_matches_the_cli(packaged_extension: Path, workspace: Path) -> None:
    """The codes in the editor are the ones `sylla lint` prints for the same file."""
    report = run_packaged(packaged_extension, workspace, workspace / "syllabus_ANT.json")
    cli = subprocess.run(
        [sys.executable, "-m", "sylla", "lint", "--format", "json", "syllabus_ANT.json"],
        capture_output=True, text=True, timeout=60, cwd=workspace, check=False,
    )
    findings = json.loads(cli.stdout)
    assert findings, cli.stderr
    assert sorted(d["code"] for d in report["diagnostics"]) == sorted(f["code"] for f in findings)


def test_a_new_sylla_toml_relints_the_open_syllabus(packaged_extension: Path, workspace: Path) -> None:
    """The client watches sylla.toml/pyproject.toml and the server re-lints on the event."""
    report = run_packaged(
        packaged_extension, workspace, workspace / "syllabus_ANT.json",
        SYLLA_WRITE_AFTER="sylla.toml", SYLLA_WRITE_TEXT='ignore = ["H501", "T4"]\n',
    )
    assert report["arrived"], report["output"]
    assert "**/{sylla.toml,pyproject.toml}" in report["watched"]
    before = sorted(d["code"] for d in report["first"])
    assert {"H501", "T401"} <= set(before)
    assert report["after"] is not None, "no new diagnostics after sylla.toml was written"
    assert sorted(d["code"] for d in report["after"]) == [c for c in before if c not in ("H501", "T401")]


def test_packaged_extension_shows_diagnostics_for_a_science_birds_config(packaged_extension: Path, workspace: Path) -> None:
    """configMeta.xml (language xml) starts the server through the real client, and its findings
    are the ones `sylla lint` prints for the file: B810 for `TRUE` (line 17) and `True` (line 24)."""
    meta = workspace / "configMeta.xml"
    shutil.copy(FIXTURES / "birds" / "rules" / "B810_bad.xml", meta)
    report = run_packaged(packaged_extension, workspace, meta)
    assert report.get("crash") is None, report
    assert report["arrived"], f"no diagnostics reached the editor; output:\n{report['output']}\nerrors: {report['errors']}"
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("B810", 16), ("B810", 23)]
    cli = subprocess.run(
        [sys.executable, "-m", "sylla", "lint", "--format", "json", "configMeta.xml"],
        capture_output=True, text=True, timeout=60, cwd=workspace, check=False,
    )
    assert [(f["code"], f["line"] - 1) for f in json.loads(cli.stdout)] == [(d["code"], d["line"]) for d in report["diagnostics"]]
    assert report["errors"] == []


def test_xml_that_is_no_science_birds_config_does_not_start_the_server(packaged_extension: Path, workspace: Path) -> None:
    pom = workspace / "pom.xml"
    pom.write_text('<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n')
    report = run_packaged(packaged_extension, workspace, pom, python=str(workspace / "no-python"), timeout_ms=3000)
    assert report.get("crash") is None, report
    assert report["errors"] == []
    assert "interpreter:" not in report["output"]
    assert report["diagnostics"] is None


def test_json_without_a_syllabus_neither_probes_python_nor_starts_the_server(
    packaged_extension: Path, workspace: Path
) -> None:
    package = workspace / "package.json"
    package.write_text('{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}\n')
    # An interpreter that does not exist: probing it would be an error pop-up.
    report = run_packaged(packaged_extension, workspace, package, python=str(workspace / "no-python"), timeout_ms=3000)
    assert report.get("crash") is None, report
    assert report["errors"] == []
    assert "interpreter:" not in report["output"]
    assert report["diagnostics"] is None
    assert [s["text"] for s in report["status"]] == ["sylla: idle"]
