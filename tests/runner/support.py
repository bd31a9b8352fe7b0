"""Running the real ``sylla run`` process and reading what it wrote, for tests/runner."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "runner"
#: the fixture package (and its dist-info, so its sylla.tasks / sylla.agents entry points exist)
PY = FIX / "py"
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def env(extra: dict[str, str] | None = None) -> dict[str, str]:
    out = dict(os.environ) | (extra or {})
    out["PYTHONPATH"] = os.pathsep.join([str(PY), *filter(None, [os.environ.get("PYTHONPATH")])])
    return out


def command(*args: str) -> list[str]:
    if SYLLA is None:  # pragma: no cover - the editable install provides it
        pytest.fail("the sylla entry point is not installed (run scripts/setup.sh)")
    return [SYLLA, *args]


def sylla(*args: str, cwd: Path | None = None, timeout: int = 300,
          env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          env=env(env_extra))


def start(*args: str, env_extra: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env(env_extra))


def rows(run_dir: Path) -> list[dict[str, str]]:
    """Every row of an l2logger run in episode order (l2logger's own timestamp left out: it is
    the wall clock of the write)."""
    out: list[dict[str, str]] = []
    for path in run_dir.glob("worker-default/*/data-log.tsv"):
        with open(path, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                row.pop("timestamp")
                out.append(row)
    return sorted(out, key=lambda r: int(r["exp_num"]))


def row_count(run_dir: Path) -> int:
    """Lines written so far, headers left out (read while the run writes)."""
    total = 0
    for path in run_dir.glob("worker-default/*/data-log.tsv"):
        try:
            total += max(0, path.read_bytes().count(b"\n") - 1)
        except FileNotFoundError:
            pass
    return total
