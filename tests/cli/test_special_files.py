"""Pipes and FIFOs: a tree holding a FIFO is walked without opening it, and a pipe named on
the command line (``sylla lint <(gen)``) is read once (issue 38).

Opening a FIFO blocks until a writer comes, so ``sylla lint DIR`` with one in the tree waited
for ever; sniffing a pipe given by path consumed it, and the file then read as empty (S130,
a false error). Both through the real ``sylla`` process, as a shell runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

GOOD = Path(__file__).resolve().parents[1] / "fixtures" / "grammar" / "pretest.json"
SYLLA = [sys.executable, "-m", "sylla"]


@pytest.mark.parametrize("command", [["lint"], ["fmt", "--check"], ["explain"]])
def test_a_fifo_in_a_tree_is_skipped(tmp_path: Path, command: list[str]) -> None:
    shutil.copy(GOOD, tmp_path / "pretest.json")
    os.mkfifo(tmp_path / "waiting.json")  # nobody ever writes to it
    p = subprocess.run([*SYLLA, *command, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr and "waiting.json" not in p.stdout + p.stderr
    assert p.stdout + p.stderr == "" or "pretest.json" in p.stdout + p.stderr


@pytest.mark.parametrize("command", [["lint", "--format", "json"], ["explain", "--format", "json"], ["fmt", "--check"]])
def test_a_pipe_named_on_the_command_line_is_read_once(command: list[str]) -> None:
    if shutil.which("bash") is None:
        pytest.skip("process substitution needs bash")
    line = " ".join([*SYLLA, *command]) + f" <(cat {GOOD})"
    via_pipe = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120)
    direct = subprocess.run([*SYLLA, *command, str(GOOD)], capture_output=True, text=True, timeout=120)
    assert "S130" not in via_pipe.stdout + via_pipe.stderr and "Traceback" not in via_pipe.stderr
    assert via_pipe.returncode == direct.returncode, via_pipe.stderr
    if command[0] == "lint":
        codes = lambda out: sorted(f["code"] for f in json.loads(out))
        assert codes(via_pipe.stdout) == codes(direct.stdout)
    elif command[0] == "explain":
        assert json.loads(via_pipe.stdout)["totals"] == json.loads(direct.stdout)["totals"]
