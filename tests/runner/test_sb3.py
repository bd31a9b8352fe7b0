"""The stable-baselines3 adapter through ``sylla run``: PPO and DQN learn in train blocks and
their weights do not move in a test block; the same seed gives the same rewards.

Needs the ``run-sb3`` extra (torch and stable-baselines3), which the ``test`` extra leaves out
for its size: ``scripts/setup.d/60-sb3.sh`` installs it (a CPU build of torch), and
``pytest -m sb3 tests/runner`` runs these tests. The module is in the ``sb3`` tier and, so that
the fast tier needs no torch, in ``slow`` too.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import time
from pathlib import Path

import pytest

from .support import row_count, rows, start, sylla

pytestmark = [
    pytest.mark.sb3,
    pytest.mark.slow,
    # in CI the setup installs the extra, so a missing one there is a failure, never a skip
    pytest.mark.skipif(importlib.util.find_spec("stable_baselines3") is None and not os.environ.get("CI"),
                       reason="the run-sb3 extra is not installed; run scripts/setup.d/60-sb3.sh"),
]

ARGS = {"sb3-ppo": ["--agent-arg", "n_steps=32", "--agent-arg", "batch_size=32"],
        "sb3-dqn": ["--agent-arg", "learning_starts=32", "--agent-arg", "train_freq=4"]}


def syllabus(folder: Path, blocks: list[tuple[str, int]]) -> Path:
    path = folder / ("-".join(f"{k}{n}" for k, n in blocks) + ".json")
    instructions: list[dict] = []
    for i, (kind, n) in enumerate(blocks):
        instructions += [{"$phase": f"{i + 1}.{kind}"},
                         {"$repeat": {"$episode": "MiniGrid-Empty-5x5-v0", "max_steps": 30}, "count": n}]
    path.write_text(json.dumps({"name": "sb3", "author": "sylla tests", "contains": "episodes",
                                "instructions": instructions}))
    return path


def final_weights(agent: str, out: Path) -> dict:
    import stable_baselines3

    pointer = json.loads((out / ".sylla-run" / "checkpoint.json").read_text())
    cls = stable_baselines3.PPO if agent == "sb3-ppo" else stable_baselines3.DQN
    model = cls.load(out / pointer["agent_dir"] / "sb3-model.zip", device="cpu")
    return {k: v.clone() for k, v in model.policy.state_dict().items()}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(bool((a[k] == b[k]).all()) for k in a)


@pytest.mark.parametrize("agent", ["sb3-ppo", "sb3-dqn"])
def test_weights_move_in_train_blocks_and_not_in_test_blocks(agent: str, tmp_path: Path) -> None:
    weights = {}
    for name, blocks in (("train", [("train", 12)]), ("then-test", [("train", 12), ("test", 6)]),
                         ("then-train", [("train", 12), ("train", 6)])):
        out = tmp_path / name
        proc = sylla("run", str(syllabus(tmp_path, blocks)), "--agent", agent, *ARGS[agent], "--seed", "3",
                     "--checkpoint-every", "1", "-o", str(out))
        assert proc.returncode == 0, proc.stderr
        assert len(rows(out)) == sum(n for _, n in blocks)
        weights[name] = final_weights(agent, out)
    assert same(weights["train"], weights["then-test"])
    assert not same(weights["train"], weights["then-train"])


def test_same_seed_same_rewards(tmp_path: Path) -> None:
    path = syllabus(tmp_path, [("train", 10), ("test", 3)])
    got = []
    for name in ("a", "b"):
        proc = sylla("run", str(path), "--agent", "sb3-ppo", *ARGS["sb3-ppo"], "--seed", "5", "-o", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
        got.append(rows(tmp_path / name))
    assert got[0] == got[1]



@pytest.mark.parametrize("agent", ["sb3-ppo", "sb3-dqn"])
def test_a_run_and_its_resume_leave_nothing_in_the_temporary_directory(agent: str, tmp_path: Path) -> None:
    """SB3 makes an ``SB3-<date>`` folder in the temporary directory for every ``learn()`` of a
    model without a logger of its own (and ``load`` drops the logger): neither a run nor its
    resume from a checkpoint may leave them behind. The run is killed once its log has 5 rows
    (an event, not a time), so the resume loads the saved model."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    quiet = {"TMPDIR": str(scratch)}
    path = syllabus(tmp_path, [("train", 16), ("test", 2)])
    out = tmp_path / "out"
    run = ("run", str(path), "--agent", agent, *ARGS[agent], "--seed", "2", "-o", str(out), "--checkpoint-every", "1")
    proc = start(*run, env_extra=quiet)
    deadline = time.monotonic() + 240
    while proc.poll() is None and row_count(out) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the run ended before 5 of its 18 rows were seen"
    # DQN's buffer is allocated for a million transitions; a checkpoint holds the few it stored
    checkpoint = sum(p.stat().st_size for p in (out / ".sylla-run").rglob("*") if p.is_file())
    assert checkpoint < 20_000_000
    resumed = sylla(*run, "--resume", env_extra=quiet)
    assert resumed.returncode == 0, resumed.stderr
    assert len(rows(out)) == 18
    assert sorted(p.name for p in scratch.glob("SB3-*")) == []
