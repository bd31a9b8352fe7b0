"""Unsafe fixes (ruff's distinction): T410/T405/T404 complete a syllabus only with
``--fix --unsafe-fixes``. Proven on mutations of real syllabi: the published ANT-B example and
``sylla new`` output with test phases removed get back to a lint-clean file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus.author import Spec, build
from sylla.linter import Config, format_text, lint
from sylla.linter.fixes import fix_all

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


def fixed(text: str, safe_only: bool, name: str = "x.json") -> str:
    return fix_all(lint(text, name, Config()), lambda t: lint(t, name, Config()), unsafe=not safe_only).text


def drop_test_phases(text: str, keep: list[bool]) -> str:
    """Remove the test phases whose flag is False (their $phase, $info pair and blocks)."""
    data = json.loads(text)
    out, k, dropping = [], -1, False
    for ins in data["instructions"]:
        if "$phase" in ins:
            is_test = ins["$phase"].endswith(".test")
            if is_test:
                k += 1
            dropping = is_test and not keep[k]
        if not dropping:
            out.append(ins)
    data["instructions"] = out
    return format_text(json.dumps(data, indent=2) + "\n") or ""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), style=st.sampled_from(["info", "enable_updates"]), data=st.data())
def test_removed_test_phases_come_back_only_with_unsafe_fixes(n: int, style: str, data: st.DataObject) -> None:
    tasks = ("Pong", "Breakout", "Freeway", "MsPacman")[:n]
    text = build(Spec("ANT-B", tasks, style=style, episodes=1000, test_episodes=50))
    keep = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    broken = drop_test_phases(text, keep)
    codes = {f.code for f in lint(broken, "x.json").findings}
    if all(keep):
        assert broken == text and codes == set()
        return
    assert codes & {"T410", "T405"}
    assert fixed(broken, safe_only=True) == broken  # --fix alone never changes the experiment
    repaired = fixed(broken, safe_only=False)
    assert [(f.code, f.message) for f in lint(repaired, "x.json").findings] == []
    assert format_text(repaired) == repaired  # the inserted text is already in fmt layout


def test_published_ant_b_example_missing_a_test() -> None:
    text = (FIX / "reference-ant-b.jsonc").read_text()
    # drop the reverse-transfer test of Pong (the published example's 2.test block)
    lines = text.splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if '"Pong"}, "count": 100' in line)
    mutated = "".join(lines[:i] + lines[i + 1 :])
    assert "T410" in {f.code for f in lint(mutated, "x.jsonc").findings}
    repaired = fixed(mutated, safe_only=False, name="x.jsonc")
    assert not [f for f in lint(repaired, "x.jsonc").findings if f.severity.value != "info"]
    assert '"$episode": "Pong"}, "count": 100}' in repaired.split('"2.test"')[1]


def test_cli_flag(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    original = (FIX / "T410_bad.json").read_text()
    f.write_text(original)
    run = lambda *a: subprocess.run([sys.executable, "-m", "sylla", "lint", str(f), *a],
                                    capture_output=True, text=True, timeout=60)
    proc = run("--fix")
    assert f.read_text() == original and "1 unsafe fix not applied" in proc.stderr and "--unsafe-fixes" in proc.stderr
    proc = run("--fix", "--unsafe-fixes")
    assert proc.returncode == 0, proc.stdout
    assert '{"$repeat": {"$episode": "Breakout"}, "count": 10}' in f.read_text().split('"1.test"')[1].split('"2.train"')[0]
