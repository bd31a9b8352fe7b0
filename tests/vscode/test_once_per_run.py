"""The extension's npm steps run once per test run however many xdist workers ask
(``vscode_support.once_per_run``): a second caller of the same run reads the first one's result,
a caller of another run runs the step again."""

from __future__ import annotations

from pathlib import Path

import pytest
from vscode_support import once_per_run

# starts nothing itself; it belongs with the extension's tests, which run in the editor tier
pytestmark = pytest.mark.editor


def test_a_step_runs_once_per_run_and_again_in_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def step() -> dict[str, object]:
        calls.append(len(calls))
        return {"call": len(calls)}

    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run-a")
    assert once_per_run(tmp_path, "step", step) == {"call": 1}
    assert once_per_run(tmp_path, "step", step) == {"call": 1}  # another worker of run-a
    assert calls == [0]
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run-b")
    assert once_per_run(tmp_path, "step", step) == {"call": 2}
    monkeypatch.delenv("PYTEST_XDIST_TESTRUNUID")
    assert once_per_run(tmp_path, "step", step) == {"call": 3}  # one process: no sharing
    assert len(calls) == 3
