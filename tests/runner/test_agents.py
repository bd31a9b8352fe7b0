"""The agents through ``sylla run``: tabular-q learns MiniGrid's 5×5 room in a few hundred
episodes, and a tella-shaped agent is driven by tella 2.1's events."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean

import pytest

from .support import FIX, rows, sylla

ROOM = FIX / "empty-5x5.json"


def rewards(out: Path) -> list[float]:
    return [float(r["reward"]) for r in rows(out)]


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["0", "1", "2"])
def test_tabular_q_learns_the_5x5_room(tmp_path: Path, seed: str) -> None:
    learner, baseline = tmp_path / "q", tmp_path / "random"
    for agent, out in (("tabular-q", learner), ("random", baseline)):
        proc = sylla("run", str(ROOM), "--agent", agent, "-o", str(out), "--seed", seed)
        assert proc.returncode == 0, proc.stderr
    q = rewards(learner)
    # MiniGrid pays 1 - 0.9 * steps / max_steps on reaching the goal; from (1, 1) facing east the
    # goal (3, 3) of the 5x5 room is 5 steps away (forward, forward, right, forward, forward)
    # and max_steps is 4 * 5 * 5 = 100
    best = 1 - 0.9 * 5 / 100
    assert mean(q[-50:]) >= 0.95 * best
    assert mean(q[-50:]) > mean(q[:50])
    assert mean(q[-50:]) > mean(rewards(baseline)[-50:]) + 0.2


def test_a_tella_shaped_agent_gets_tella_events(tmp_path: Path) -> None:
    calls_file = tmp_path / "calls.jsonl"
    flags = FIX / "learning-flags.json"
    proc = sylla("run", str(flags), "--agent", "sylla_runner_fixtures.agents:TellaShaped",
                 "--agent-arg", f"config_file={calls_file}", "--seed", "7", "-o", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    calls = [json.loads(line) for line in calls_file.read_text().splitlines()]
    assert calls[0] == {"call": "__init__", "rng_seed": 7, "num_envs": 1, "actions": 7}
    learning = [True, False, True, False, False, True]  # the fixture's blocks, as test_run reads them
    per_block: list[list[str]] = []
    for call in calls[1:]:
        if call["call"] == "block_start":
            per_block.append([])
        per_block[-1].append(call["call"])
    assert per_block == [["block_start", "task_start", "task_variant_start", "done", "done",
                          "task_variant_end", "task_end", "block_end"]] * len(learning)
    starts = [c for c in calls if c["call"] == "block_start"]
    assert [c["is_learning_allowed"] for c in starts] == learning
    assert [c["attribute"] for c in starts] == learning  # is_learning_allowed is set before block_start
    assert {c["task_name"] for c in calls if "task_name" in c} == {"MiniGrid-Empty-5x5-v0"}
    assert {c["variant_name"] for c in calls if "variant_name" in c} == {"{}"}
    done = [c for c in calls if c["call"] == "done"]
    assert all(c["fields"] == ["observation", "action", "reward", "done", "next_observation"] for c in done)
    # as tella does, rewards are hidden while learning is off; MiniGrid pays only on the last
    # step, so a shown last reward is the episode's return
    logged = [float(r["reward"]) for r in rows(tmp_path / "run")]
    expected = [logged[i] if on else None for i, on in enumerate(on for on in learning for _ in range(2))]
    assert [d["reward"] for d in done] == expected


@pytest.mark.slow
def test_the_example_syllabus_lints_clean_and_shows_learning(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "minigrid-ant.json"
    lint = sylla("lint", str(example))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    proc = sylla("run", str(example), "--agent", "tabular-q", "-o", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    blocks: dict[tuple[int, str, str], list[float]] = {}
    for r in rows(tmp_path / "run"):
        blocks.setdefault((int(r["block_num"]), r["block_type"], r["task_name"]), []).append(float(r["reward"]))
    trained: set[str] = set()
    tested_before: dict[str, float] = {}
    for (_, kind, task), values in sorted(blocks.items()):
        if kind == "train":
            assert mean(values[-20:]) > mean(values[:20]), task
            trained.add(task)
        elif task not in trained:
            tested_before[task] = mean(values)
        elif task in tested_before:
            assert mean(values) > tested_before[task], task
    assert trained == {"Minigrid5x5", "Minigrid6x6", "Minigrid8x8"} and set(tested_before) == {"Minigrid6x6", "Minigrid8x8"}
