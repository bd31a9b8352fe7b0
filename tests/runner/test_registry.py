"""The task registry: the L2M names reach the MiniGrid rooms the reference table names, with the
start position where the syllabus puts it; what a constructor takes is read from it; the
config's tasks table is checked at its line; the linter's side can ask for names without
gymnasium; and `sylla lint` accepts a config that has a tasks table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.runner.tasks import l2m
from sylla.runner.tasks.errors import TaskError
from sylla.runner.tasks.l2m import TASKS
from sylla.runner.tasks.registry import Registry

from .support import FIX, sylla

DOC = Path(__file__).resolve().parents[2] / "docs" / "run.md"


def doc_table() -> dict[str, tuple[str, str]]:
    """L2M name -> (Farama id, what agent_pos becomes), from docs/run.md's table."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `(Minigrid\w+)` \| `([\w-]+)` \| ([^|]+) \|", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(3).strip())
    return out


def test_the_documented_table_is_the_registry() -> None:
    table = doc_table()
    assert set(table) == set(TASKS) == {"Minigrid5x5", "Minigrid6x6", "Minigrid8x8", "Minigrid16x16", "MinigridFourRooms",
                                        "MinigridSimpleCrossing", "MinigridLava1", "MinigridLava2"}
    for name, (env_id, start) in table.items():
        spec = TASKS[name]
        assert spec.env_id == env_id
        if name in ("MinigridFourRooms", "MinigridSimpleCrossing"):
            assert spec.params.get("agent_pos") is None or spec.params["agent_pos"].kwarg is None
        else:
            assert spec.params["agent_pos"].kwarg == "agent_start_pos" and start == "`agent_start_pos`"


@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_l2m_name_makes_its_room_with_the_start_position(name: str) -> None:
    registry = Registry([l2m.TASKS])
    spec = registry.require(name, "minigridkit")
    start = [1, 1]
    env = registry.make(spec, registry.kwargs(spec, {"agent_pos": start}))
    env.reset(seed=0)
    assert env.spec.id == spec.env_id
    assert tuple(env.unwrapped.agent_pos) == tuple(start)


@pytest.mark.parametrize(("name", "start"), [("Minigrid6x6", [2, 3]), ("MinigridFourRooms", [3, 2]), ("MinigridLava1", [1, 3])])
def test_agent_pos_is_the_start_position(name: str, start: list[int]) -> None:
    registry = Registry([l2m.TASKS])
    spec = registry.require(name)
    env = registry.make(spec, registry.kwargs(spec, {"agent_pos": start}))
    for seed in range(3):
        env.reset(seed=seed)
        assert tuple(env.unwrapped.agent_pos) == tuple(start)


def test_crossings_take_only_their_own_start() -> None:
    registry = Registry([l2m.TASKS])
    spec = registry.require("MinigridSimpleCrossing")
    assert registry.kwargs(spec, {"agent_pos": [1, 1]}) == {}
    with pytest.raises(TaskError, match=r"cannot take agent_pos = \[2, 2\]"):
        registry.kwargs(spec, {"agent_pos": [2, 2]})


def test_a_constructor_says_what_it_takes() -> None:
    registry = Registry([l2m.TASKS])
    accepted = registry.accepted(registry.require("MiniGrid-Empty-5x5-v0")).params
    # EmptyEnv's own arguments and those it hands MiniGridEnv through **kwargs ...
    assert {"size", "agent_start_pos", "agent_start_dir", "max_steps", "agent_view_size"} <= set(accepted)
    # ... but not those it sets itself in its super().__init__ call, nor MiniGridEnv's required one
    assert not {"grid_size", "see_through_walls", "mission_space"} & set(accepted)
    assert set(registry.accepted(registry.require("CartPole-v1")).params) == {"render_mode", "sutton_barto_reward"}


def test_unknown_names_get_did_you_mean() -> None:
    registry = Registry([l2m.TASKS])
    with pytest.raises(TaskError, match=r'unknown task "MiniGrid-Empty-5x5-v1" \(did you mean "MiniGrid-Empty-5x5-v0"\?\)'):
        registry.require("MiniGrid-Empty-5x5-v1")
    with pytest.raises(TaskError, match=r'unknown task "\$otherkit:Minigrid5x5"'):
        registry.require("Minigrid5x5", "otherkit")
    spec = registry.require("MinigridFourRooms")
    with pytest.raises(TaskError, match=r'no parameter "goal_poss" \(did you mean "goal_pos"\?\)') as caught:
        registry.kwargs(spec, {"goal_poss": [5, 5]})
    assert caught.value.param == "goal_poss"


def test_names_and_parameters_of_non_gymnasium_tasks_load_no_gymnasium() -> None:
    code = ("import sys\nfrom sylla.runner.tasks.registry import Registry\nr = Registry.for_run('.')\n"
            "assert r.lookup('Minigrid5x5') is not None and 'Minigrid16x16' in r.names(with_gymnasium=False)\n"
            "print('gymnasium' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(("table", "line", "message"), [
    ('[tasks.Room]\nenv = "MiniGrid-Empty-5x5-v0"\nkwarg = { max_steps = 5 }\n', 5,
     'tasks.Room: unknown key "kwarg" (did you mean "kwargs"?)'),
    ('[tasks.Room]\nenv = "MiniGrid-Empty-5x5-v0"\nentry-point = "a.b:c"\n', 3, "tasks.Room: needs exactly one of env"),
    ('[tasks.Room]\nenv = "MiniGrid-Empty-5x5-v0"\nparams.start = { kwargs = "agent_start_pos" }\n', 5,
     'tasks.Room: params."start": unknown key "kwargs" (did you mean "kwarg"?)'),
])
def test_a_bad_tasks_table_is_named_at_its_line(tmp_path: Path, table: str, line: int, message: str) -> None:
    config = tmp_path / "sylla.toml"
    config.write_text("# the project's tasks\n\n" + table)
    syllabus = tmp_path / "s.json"
    syllabus.write_bytes((FIX / "empty-5x5.json").read_bytes())
    proc = sylla("run", str(syllabus), "--agent", "random", "-o", str(tmp_path / "run"))
    assert proc.returncode == 2, proc.stderr
    assert f"{config}:{line}: {message}" in proc.stderr, proc.stderr


def test_lint_accepts_a_config_with_a_tasks_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.sylla]\nprofile = "l2m"\n\n[tool.sylla.tasks.Room]\nenv = "MiniGrid-Empty-5x5-v0"\n')
    syllabus = tmp_path / "s.json"
    syllabus.write_bytes((FIX / "empty-5x5.json").read_bytes())
    proc = sylla("lint", str(syllabus))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "unknown config key" not in proc.stdout + proc.stderr
