"""A real editor: headless Neovim attaches ``sylla lsp`` to a bad syllabus, and to a Science
Birds config.xml (filetype ``xml``).

The Lua config in ``tests/fixtures/lsp/nvim_init.lua`` waits for the diagnostics, reads them
through ``vim.diagnostic.get``, asks for the code actions at one finding, applies the
preferred one with Neovim's own ``apply_workspace_edit`` and reports the buffer; this test
checks codes, lines and the edited text. Neovim comes from ``scripts/setup.d/30-neovim.sh``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_support import FIXTURES, SERVER_COMMAND

NVIM = shutil.which("nvim")

# In CI the setup installs Neovim, so a missing nvim there is a failure, never a skip.
pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(
        NVIM is None and not os.environ.get("CI"), reason="nvim is not installed (scripts/setup.d/30-neovim.sh installs Debian's neovim)"
    ),
]


def run_nvim(tmp_path: Path, file: Path, fix_code: str) -> dict:
    """Open ``file`` in headless Neovim with sylla attached, apply the quick fix for ``fix_code``
    and return what nvim_init.lua recorded."""
    out = tmp_path / "result.json"
    env = dict(
        os.environ,
        SYLLA_NVIM_OUT=str(out),
        SYLLA_NVIM_FILE=str(file),
        SYLLA_LSP_CMD=json.dumps(SERVER_COMMAND),
        SYLLA_NVIM_FIX_CODE=fix_code,
        HOME=str(tmp_path),  # no user config, shada or swap files leak in
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    init = FIXTURES / "nvim_init.lua"
    proc = subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-i", "NONE", "-c", f"luafile {init}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,  # bounds a hang; the Lua side waits up to 90 s for each event
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stdout[-2000:]} {proc.stderr[-2000:]}"
    result = json.loads(out.read_text())
    assert result.get("error") is None, result
    return result


def test_neovim_shows_diagnostics_and_applies_a_quick_fix(tmp_path: Path) -> None:
    syllabus = tmp_path / "bad.json"
    shutil.copy(FIXTURES / "bad.json", syllabus)
    result = run_nvim(tmp_path, syllabus, "H501")
    got = [(d["code"], d["lnum"]) for d in result["diagnostics"]]
    assert got == [
        ("T401", 2), ("P303", 5), ("P306", 5), ("H501", 7), ("P302", 7), ("N602", 8),
    ]
    assert {d["source"] for d in result["diagnostics"]} == {"sylla"}
    assert "Ignore H501 in this file" in result["action_titles"]
    assert result["applied"].endswith("(H501)")
    assert result["lines"][7:11] == [
        '    {"$phase": "2.test"},',
        '    {"$info": {"disable_updates": true}},',
        '    {"$repeat": {"$episode": "Pong"}, "count": 10},',
        '    {"$info": {}},',
    ]
    assert result["fixed_code_gone"] is True
    assert "H501" not in [d["code"] for d in result["diagnostics_after"]]
    print(f"neovim {result['version']}", file=sys.stderr)


def test_neovim_lints_a_science_birds_config_and_capitalises_its_boolean(tmp_path: Path) -> None:
    """config.xml opens as filetype xml; its one finding is notify_novelty="false" on line 5
    (0-based 4), where the game compares with "False" exactly."""
    config = tmp_path / "config.xml"
    shutil.copy(FIXTURES.parent / "birds" / "rules" / "B830_bad.xml", config)
    result = run_nvim(tmp_path, config, "B830")
    assert result["filetype"] == "xml"  # Neovim sends it as the languageId
    assert [(d["code"], d["lnum"]) for d in result["diagnostics"]] == [("B830", 4)]
    assert result["applied"].endswith("(B830)")
    assert 'notify_novelty="False"' in result["lines"][4]
    assert result["lines"][4].replace('"False"', '"false"') == config.read_text().splitlines()[4]
    assert result["fixed_code_gone"] is True
    assert result["diagnostics_after"] == []
