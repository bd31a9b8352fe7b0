"""``sylla metrics --format l2metrics`` on the log shapes it refused or wrote otherwise than
l2metrics (issue 38), against the files l2metrics 3.1.0's own command line writes for the log.

The logs are `tests/fixtures/metrics/l2m_shapes/` (written by l2logger, see its
``make_l2m_shapes_fixture.py``): two workers testing three tasks at once (refused with exit 2);
the same without STE data (``se_task_saturation``/``se_task_exp_to_sat`` left out, where
l2metrics writes NaN); two variants of a task tested one after the other in one test block, in
variant-agnostic mode (refused with exit 2) and variant-aware (task parameters, incomplete first
and last experiences: a runtime over experiences l2metrics leaves out); a task trained on
experience 0 alone (l2metrics computes no sample efficiency then, sylla did for the other task).
Both tools run as their users run them: ``python -m l2metrics -l LOG`` and the ``sylla``
console script. `differential/files.py` compares the two files key for key and cell for cell.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .differential import files, harness

pytestmark = [
    pytest.mark.parity,
    pytest.mark.skipif(
        not harness.L2M_PY.exists() and not os.environ.get("CI"),
        reason=f"l2metrics 3.1.0 venv missing at {harness.L2M_PY}; run "
               "scripts/setup.d/20-l2metrics.sh (in CI it is installed, so this never skips there)"),
]

SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "metrics" / "l2m_shapes"
SYLLA = Path(sys.executable).parent / "sylla"

#: (log, with the STE runs, l2metrics' flags, the same in sylla's words)
CASES = [
    ("workers", False, (), ()),
    ("workers", True, (), ()),
    ("variants", True, ("-r", "agnostic"), ("-P", "variant_mode=agnostic")),
    ("variants", True, (), ()),
    ("exp0", True, (), ()),
]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """An l2metrics store (``$L2DATA``) holding the fixture's STE runs, and an empty one."""
    held, empty = tmp_path_factory.mktemp("l2data"), tmp_path_factory.mktemp("l2data-none")
    harness.store_ste_l2m(SHAPES / "ste", "a", held)
    return {True: held, False: empty}


def _l2metrics(log: Path, flags: tuple[str, ...], l2data: Path, out: Path) -> None:
    env = dict(os.environ, L2DATA=str(l2data), MPLBACKEND="Agg",
               PYTHONPATH=str(harness.HERE / "l2m_shim"))
    proc = subprocess.run([str(harness.L2M_PY), "-m", "l2metrics", "-l", str(log), "-O", str(out),
                           "--no-plot", "--no-save-settings", *flags],
                          capture_output=True, text=True, env=env, cwd=out.parent, timeout=600)
    assert (out / f"{log.name}_metrics.json").exists(), proc.stderr[-3000:]


@pytest.mark.parametrize(("name", "with_ste", "flags", "options"), CASES,
                         ids=[f"{c[0]}-{'ste' if c[1] else 'no-ste'}{''.join(c[2])}" for c in CASES])
def test_files_equal_the_files_l2metrics_writes(name: str, with_ste: bool, flags: tuple[str, ...],
                                                options: tuple[str, ...], stores: dict[bool, Path],
                                                tmp_path: Path) -> None:
    log = SHAPES / name
    theirs, mine = tmp_path / "l2metrics", tmp_path / "sylla"
    _l2metrics(log, flags, stores[with_ste], theirs)
    ste = ["--ste", str(SHAPES / "ste")] if with_ste else []
    proc = subprocess.run([str(SYLLA), "metrics", str(log), "--format", "l2metrics", "-o",
                           str(mine), "--no-progress", *ste, *options],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    comparison = files.compare_files(mine, theirs, name)
    assert not comparison.mismatches, "\n".join(comparison.mismatches[:40])
    assert comparison.compared > 100  # every key and cell, not an empty document
