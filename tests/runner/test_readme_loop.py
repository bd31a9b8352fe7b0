"""The README's loop (author -> lint -> run -> watch -> metrics -> compare) runs as written: each
line of its block through the real ``sylla`` process in an empty folder; the ``--watch`` line
keeps its page up after the run until Ctrl-C, which the test sends once the run says so."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
from pathlib import Path

import pytest

from .support import command, env

pytestmark = pytest.mark.slow

README = Path(__file__).resolve().parents[2] / "README.md"


def loop_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### The loop"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_loop_runs_as_written(tmp_path: Path) -> None:
    lines = loop_block()
    assert [shlex.split(line)[:2] for line in lines] == [
        ["sylla", "new"], ["sylla", "lint"], ["sylla", "run"], ["sylla", "metrics"], ["sylla", "run"],
        ["sylla", "sweep"], ["sylla", "compare"]]
    for line in lines:
        words = command(*shlex.split(line)[1:])
        if "--watch" in words:
            proc = subprocess.Popen(words, cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    text=True, env=env())
            assert proc.stderr is not None
            seen = []
            for out in proc.stderr:
                seen.append(out)
                if "the page stays on" in out:
                    proc.send_signal(signal.SIGINT)
                    break
            assert proc.wait(timeout=600) == 0, "".join(seen) + proc.stderr.read()
            assert any("watching" in s for s in seen), seen
            continue
        done = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=900, env=env())
        assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
    assert len(list((tmp_path / "runs" / "grid").rglob("run.json"))) == 6
