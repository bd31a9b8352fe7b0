"""``sylla run`` as a user meets it: the log, the manifest, the learning flags, the seeds, and
every bad input of issue 37 §5, each through the real process."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from sylla.grammar.core import LineIndex

from .support import FIX, row_count, rows, start, sylla

ANT = FIX / "ant-minigrid.json"


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle`` in a fixture."""
    text = path.read_text(encoding="utf-8")
    return LineIndex(text).line_col(text.index(needle))[0]


def scheduled(path: Path) -> list[tuple[str, str]]:
    """(task, block type) per episode, read from the syllabus with the stdlib: every $repeat
    under the $phase before it, test phases with learning off."""
    out: list[tuple[str, str]] = []
    kind = "train"
    for ins in json.loads(path.read_text(encoding="utf-8"))["instructions"]:
        if "$phase" in ins:
            kind = "train" if ins.get("enable_updates", ins["$phase"].endswith("train")) else "test"
        elif "$repeat" in ins:
            task = ins["$repeat"]["$episode"].split(":")[-1]
            out += [(task, kind)] * ins["count"]
    return out


def test_a_run_writes_one_l2logger_row_per_scheduled_episode(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    got = rows(out)
    assert [(r["task_name"], r["block_type"]) for r in got] == scheduled(ANT)
    assert [int(r["exp_num"]) for r in got] == list(range(len(got)))
    assert {r["task_params"] for r in got} == {json.dumps({"agent_pos": [1, 1]})}
    assert all(r["exp_status"] == "complete" and r["worker_id"] == "worker-default" for r in got)
    # l2logger's own files: its format version and metrics column
    info = json.loads((out / "logger_info.json").read_text())
    assert info == {"metrics_columns": ["reward"], "log_format_version": "1.1"}
    blocks = sorted({(int(r["block_num"]), r["block_type"]) for r in got})
    assert sorted(p.parent.name for p in out.glob("worker-default/*/data-log.tsv")) == sorted(f"{n}-{t}" for n, t in blocks)


def test_the_manifest_records_what_the_run_was_made_of(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sylla("run", str(ANT), "--agent", "tabular-q", "--agent-arg", "epsilon=0.2", "-o", str(out), "--seed", "9")
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "run.json").read_text())
    import hashlib

    assert manifest["syllabus_sha256"] == hashlib.sha256(ANT.read_bytes()).hexdigest()
    assert manifest["seed"] == 9 and manifest["agent"] == "tabular-q" and manifest["agent_args"] == {"epsilon": 0.2}
    assert manifest["status"] == "complete" and manifest["episodes"] == len(scheduled(ANT))
    assert {"sylla", "gymnasium", "minigrid", "l2logger"} <= set(manifest["versions"])
    assert manifest["command"][1:] == ["run", str(ANT), "--agent", "tabular-q", "--agent-arg", "epsilon=0.2",
                                       "-o", str(out), "--seed", "9"]
    assert (out / "syllabus.json").read_bytes() == ANT.read_bytes()


def test_sylla_metrics_reads_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert sylla("run", str(ANT), "--agent", "tabular-q", "-o", str(out)).returncode == 0
    proc = sylla("metrics", "--syllabus", str(ANT), str(out), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert set(result["tasks"]) >= {"Minigrid5x5", "Minigrid6x6"}
    assert all(isinstance(v, float) for v in result["lifetime"].values())


def test_same_seed_same_rewards_row_for_row(tmp_path: Path) -> None:
    runs = {}
    for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
        assert sylla("run", str(ANT), "--agent", "tabular-q", "-o", str(tmp_path / name), "--seed", seed).returncode == 0
        runs[name] = rows(tmp_path / name)
    assert runs["a"] == runs["b"]
    assert [r["reward"] for r in runs["a"]] != [r["reward"] for r in runs["c"]]


def test_learning_follows_the_schedule(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    flags = FIX / "learning-flags.json"
    proc = sylla("run", str(flags), "--agent", "recorder", "--agent-arg", f"path={events}", "-o", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    starts = [json.loads(line) for line in events.read_text().splitlines() if '"block_start"' in line]
    # 1.train; $info disable_updates; $info {} resets to the phase's; 1.test; 2.train with
    # enable_updates false; 2.test with enable_updates true
    assert [s["learning"] for s in starts] == [True, False, True, False, False, True]
    assert [r["block_type"] for r in rows(tmp_path / "run")] == [
        t for t in ("train", "test", "train", "test", "test", "train") for _ in range(2)]


def test_a_user_agent_sees_the_events_in_order(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    proc = sylla("run", str(FIX / "learning-flags.json"), "--agent", "sylla_runner_fixtures.agents:Recorder",
                 "--agent-arg", f"path={events}", "-o", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr
    kinds = [json.loads(line)["event"] for line in events.read_text().splitlines()]
    one_block = ["block_start", "episode_start", "episode_end", "episode_start", "episode_end", "block_end"]
    assert kinds == one_block * 6
    ends = [json.loads(line) for line in events.read_text().splitlines() if '"episode_end"' in line]
    assert [str(e["reward"]) for e in ends] == [r["reward"] for r in rows(tmp_path / "run")]


def test_config_tasks_and_entry_point_tasks_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sylla("run", str(FIX / "project" / "small-room.json"), "--agent", "random", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert [r["task_name"] for r in rows(out)] == ["SmallRoom"] * 4 + ["PluginRoom"] * 2


def test_unknown_task_and_parameters_stop_before_any_episode(tmp_path: Path) -> None:
    bad = FIX / "unknown-names.json"
    out = tmp_path / "run"
    proc = sylla("run", str(bad), "--agent", "random", "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    task_line, poss_line, lava_line = (line_of(bad, s) for s in ("Minigrid5x6", "agent_poss", '"lava"'))
    assert any(f"{bad}:{task_line}:" in x and '"$minigridkit:Minigrid5x6"' in x and 'did you mean "$minigridkit:Minigrid6x6"' in x
               for x in lines), proc.stderr
    assert any(f"{bad}:{poss_line}:" in x and '"agent_poss"' in x and 'did you mean "agent_pos"' in x for x in lines), proc.stderr
    assert any(f"{bad}:{lava_line}:" in x and '"lava"' in x for x in lines), proc.stderr
    assert "Traceback" not in proc.stderr
    assert row_count(out) == 0


def test_a_value_the_environment_refuses_stops_before_any_episode(tmp_path: Path) -> None:
    bad = FIX / "start-on-wall.json"
    proc = sylla("run", str(bad), "--agent", "random", "-o", str(tmp_path / "run"))
    assert proc.returncode == 2, proc.stderr
    assert f"{bad}:{line_of(bad, '[0, 0]')}:" in proc.stderr and "agent_start_pos=(0, 0)" in proc.stderr
    assert "Traceback" not in proc.stderr and row_count(tmp_path / "run") == 0


def test_an_environment_that_raises_names_episode_task_and_line(tmp_path: Path) -> None:
    syllabus = FIX / "project" / "breaking.json"
    out = tmp_path / "run"
    proc = sylla("run", str(syllabus), "--agent", "random", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    # two SmallRoom episodes, then Breaking fails in its episode 3 (0-based): run episode 5
    line = line_of(syllabus, '"Breaking"')
    assert 'episode 5 (task "Breaking"' in proc.stderr and f"{syllabus}:{line}:" in proc.stderr, proc.stderr
    assert "RuntimeError: the simulator lost its connection" in proc.stderr and "Traceback" not in proc.stderr
    assert [int(r["exp_num"]) for r in rows(out)] == [0, 1, 2, 3, 4]
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    read = sylla("metrics", str(out), "--format", "json")
    assert read.returncode == 0, read.stderr


def test_an_invalid_action_names_episode_task_and_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sylla("run", str(ANT), "--agent", "sylla_runner_fixtures.agents:OutOfRange", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    line = line_of(ANT, "Minigrid5x5")
    assert 'episode 2 (task "Minigrid5x5"' in proc.stderr and f"{ANT}:{line}:" in proc.stderr, proc.stderr
    assert "99" in proc.stderr and "Discrete(7)" in proc.stderr and "Traceback" not in proc.stderr
    assert len(rows(out)) == 2


def test_an_agent_that_raises_is_named_the_same_way(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sylla("run", str(ANT), "--agent", "sylla_runner_fixtures.agents:Raising", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    line = line_of(ANT, "Minigrid5x5")
    assert 'episode 2 (task "Minigrid5x5"' in proc.stderr and f"{ANT}:{line}:" in proc.stderr, proc.stderr
    assert "the agent raised KeyError: 'no such state'" in proc.stderr and "Traceback" not in proc.stderr
    assert len(rows(out)) == 2


def test_an_existing_output_is_refused_without_force_or_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--seed", "1").returncode == 0
    before = rows(out)
    proc = sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--seed", "2")
    assert proc.returncode == 2 and "--resume" in proc.stderr and "--force" in proc.stderr
    assert rows(out) == before
    assert sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--seed", "2", "--force").returncode == 0
    assert rows(out) != before and json.loads((out / "run.json").read_text())["seed"] == 2


def test_force_never_deletes_a_folder_sylla_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "thesis"
    mine.mkdir()
    (mine / "chapter1.tex").write_text("precious")
    proc = sylla("run", str(ANT), "--agent", "random", "-o", str(mine), "--force")
    assert proc.returncode == 2 and "not a sylla run" in proc.stderr
    assert (mine / "chapter1.tex").read_text() == "precious"


def test_an_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    proc = sylla("run", str(ANT), "--agent", "random", "-o", str(blocker / "run"))
    assert proc.returncode == 2 and "cannot write" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_agent_gets_did_you_mean(tmp_path: Path) -> None:
    proc = sylla("run", str(ANT), "--agent", "tabular_q", "-o", str(tmp_path / "run"))
    assert proc.returncode == 2 and 'did you mean "tabular-q"' in proc.stderr


def test_resume_checks_that_it_is_the_same_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert sylla("run", str(ANT), "--agent", "random", "-o", str(out)).returncode == 0
    proc = sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--seed", "3", "--resume")
    assert proc.returncode == 2 and "seed differs" in proc.stderr
    done = sylla("run", str(ANT), "--agent", "random", "-o", str(out), "--resume")
    assert done.returncode == 0, done.stderr


def test_ctrl_c_stops_after_a_checkpoint_and_prints_the_resume_command(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    args = ["run", str(ANT), "--agent", "tabular-q", "--seed", "2", "--checkpoint-every", "1000"]
    assert sylla(*args, "-o", str(whole)).returncode == 0
    proc = start(*args, "-o", str(cut))
    deadline = time.monotonic() + 120
    while row_count(cut) < 20 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "--resume" in err and f"-o {cut}" in err
    stopped_at = row_count(cut)
    assert 20 <= stopped_at < len(scheduled(ANT))
    resumed = sylla(*args, "-o", str(cut), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed at episode {stopped_at}" in resumed.stderr
    assert rows(cut) == rows(whole)
    manifest = json.loads((cut / "run.json").read_text())
    assert manifest["status"] == "complete" and "--resume" not in manifest["command"]
    assert [c[-1] for c in manifest["resumed"]] == ["--resume"]
