"""``sylla lint --registry gymnasium`` (or ``registry = "gymnasium"`` in the config): R701-R703
ask the registry ``sylla run`` makes environments from (Gymnasium ids, the L2M names, the
config's tasks), so an unknown task or parameter is reported at its line and column with a
"did you mean", through the real ``sylla`` process. Without it nothing changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.grammar.core import LineIndex

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "runner"
SYLLA = [str(Path(sys.executable).parent / "sylla")]


def lint(*args: str, cwd: Path | None = None) -> list[dict]:
    proc = subprocess.run([*SYLLA, "lint", "--format", "json", *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return [f for f in json.loads(proc.stdout) if f["code"].startswith("R7")]


def at(path: Path, needle: str) -> tuple[int, int]:
    """The 1-based line and column of ``needle`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    return LineIndex(text).line_col(text.index(needle))


def where(finding: dict) -> tuple[int, int]:
    return finding["line"], finding["column"]


def test_unknown_tasks_and_parameters_at_their_place_with_did_you_mean() -> None:
    bad = FIX / "unknown-names.json"
    found = lint("--registry", "gymnasium", str(bad))
    by_code = {(f["code"], where(f)): f["message"] for f in found}
    assert by_code == {
        ("R701", at(bad, '"$minigridkit:Minigrid5x6"')): 'unknown task "$minigridkit:Minigrid5x6" (did you mean "$minigridkit:Minigrid6x6"?)',
        ("R702", at(bad, '"agent_poss"')): '"Minigrid5x5" has no parameter "agent_poss" (did you mean "agent_pos"?)',
        ("R702", at(bad, '"lava"')): '"MiniGrid-Empty-5x5-v0" has no parameter "lava"',
    }


def test_without_the_registry_nothing_changes() -> None:
    assert lint(str(FIX / "unknown-names.json")) == []


@pytest.mark.parametrize("name", ["ant-minigrid.json", "empty-5x5.json", "learning-flags.json"])
def test_syllabi_sylla_run_runs_are_clean(name: str) -> None:
    assert lint("--registry", "gymnasium", str(FIX / name)) == []


def test_a_misspelt_gymnasium_id_and_a_refused_value(tmp_path: Path) -> None:
    syllabus = tmp_path / "s.json"
    syllabus.write_text(json.dumps({"instructions": [
        {"$phase": "1.train"},
        {"$repeat": {"$episode": "MiniGrid-Empty-5x5-v1"}, "count": 3},
        {"$repeat": {"$episode": "$minigridkit:MinigridSimpleCrossing", "agent_pos": [2, 2]}, "count": 3},
        {"$repeat": {"$episode": "$minigridkit:MinigridSimpleCrossing", "agent_pos": [1, 1]}, "count": 3},
    ]}, indent=2), encoding="utf-8")
    found = {(f["code"], where(f)): f["message"] for f in lint("--registry", "gymnasium", str(syllabus))}
    assert found == {
        ("R701", at(syllabus, '"MiniGrid-Empty-5x5-v1"')): 'unknown task "MiniGrid-Empty-5x5-v1" (did you mean "MiniGrid-Empty-5x5-v0"?)',
        ("R703", at(syllabus, "[\n          2,")): '"agent_pos" of "MinigridSimpleCrossing" must be one of [1, 1] '
                                                 "(MiniGrid's crossing environments always start at [1, 1]), got [2, 2]",
    }


def test_the_config_key_with_the_projects_own_tasks(tmp_path: Path) -> None:
    (tmp_path / "sylla.toml").write_text(
        'registry = "gymnasium"\n\n[tasks.SmallRoom]\nenv = "MiniGrid-Empty-5x5-v0"\n'
        'params.start = { kwarg = "agent_start_pos", type = "array" }\n', encoding="utf-8")
    syllabus = tmp_path / "s.json"
    syllabus.write_text(json.dumps({"instructions": [
        {"$phase": "1.train"},
        {"$repeat": {"$episode": "SmallRoom", "start": [1, 1]}, "count": 3},
        {"$repeat": {"$episode": "SmallRoom", "strat": [1, 1]}, "count": 3},
        {"$repeat": {"$episode": "SmallRom"}, "count": 3},
    ]}, indent=2), encoding="utf-8")
    found = {(f["code"], where(f)): f["message"] for f in lint(str(syllabus), cwd=tmp_path)}
    assert found == {
        ("R702", at(syllabus, '"strat"')): '"SmallRoom" has no parameter "strat" (did you mean "start"?)',
        ("R701", at(syllabus, '"SmallRom"')): 'unknown task "SmallRom" (did you mean "SmallRoom"?)',
    }


def test_a_bad_registry_value_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "sylla.toml").write_text("registry = 3\n", encoding="utf-8")
    syllabus = tmp_path / "s.json"
    syllabus.write_bytes((FIX / "empty-5x5.json").read_bytes())
    proc = subprocess.run([*SYLLA, "lint", str(syllabus)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert 'registry must be "gymnasium" or a path' in proc.stderr


def test_parameters_from_default_params_are_checked_where_they_are_written(tmp_path: Path) -> None:
    syllabus = tmp_path / "s.json"
    syllabus.write_text(json.dumps({
        "default_params": {"agent_pos": [2, 2], "max_stepz": 10},
        "instructions": [
            {"$phase": "1.train"},
            {"$repeat": {"$episode": "$minigridkit:Minigrid5x5"}, "count": 3},
            {"$repeat": {"$episode": "$minigridkit:MinigridSimpleCrossing"}, "count": 3},
            {"$repeat": {"$episode": "$minigridkit:Minigrid5x5", "max_steps": 20}, "count": 3},
        ]}, indent=2), encoding="utf-8")
    found = sorted((f["code"], where(f), f["message"]) for f in lint("--registry", "gymnasium", str(syllabus)))
    key, value = at(syllabus, '"max_stepz"'), at(syllabus, "[\n      2,")
    assert found == sorted([
        ("R702", key, '"Minigrid5x5" has no parameter "max_stepz" (from default_params) (did you mean "max_steps"?)'),
        ("R702", key, '"MinigridSimpleCrossing" has no parameter "max_stepz" (from default_params) (did you mean "max_steps"?)'),
        ("R703", value, '"agent_pos" of "MinigridSimpleCrossing" (from default_params) must be one of [1, 1] '
                        "(MiniGrid's crossing environments always start at [1, 1]), got [2, 2]"),
    ])
    # sylla run refuses the same syllabus before any episode, naming the same parameters
    proc = subprocess.run([*SYLLA, "run", str(syllabus), "--agent", "random", "-o", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and '"max_stepz"' in proc.stderr and "agent_pos = [2, 2]" in proc.stderr, proc.stderr


def test_a_task_under_the_wrong_kit_is_named_with_its_kit(tmp_path: Path) -> None:
    syllabus = tmp_path / "s.json"
    syllabus.write_text(json.dumps({"instructions": [
        {"$phase": "1.train"},
        {"$repeat": {"$episode": "$otherkit:Minigrid5x5"}, "count": 3},
        {"$repeat": {"$episode": "$minigridkit:Minigrid5x6"}, "count": 3},
        {"$repeat": {"$episode": "Minigrid5x6"}, "count": 3},
    ]}, indent=2), encoding="utf-8")
    found = {(f["code"], where(f)): f["message"] for f in lint("--registry", "gymnasium", str(syllabus))}
    assert found == {
        ("R701", at(syllabus, '"$otherkit:Minigrid5x5"')):
            'unknown task "$otherkit:Minigrid5x5" (did you mean "$minigridkit:Minigrid5x5"?)',
        ("R701", at(syllabus, '"$minigridkit:Minigrid5x6"')):
            'unknown task "$minigridkit:Minigrid5x6" (did you mean "$minigridkit:Minigrid6x6"?)',
        ("R701", at(syllabus, '"Minigrid5x6"')): 'unknown task "Minigrid5x6" (did you mean "Minigrid6x6"?)',
    }
