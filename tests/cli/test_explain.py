"""``sylla explain`` as a user runs it: output, JSON contract, exit codes, start-up imports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

FIX = Path(__file__).parent.parent / "fixtures" / "grammar"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sylla", *args], capture_output=True, text=True, input=stdin, timeout=60
    )


def test_text_table_and_type() -> None:
    proc = run("explain", str(FIX / "reference" / "cl.txt"))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "CL (one task (Pong); bot/paddle/width varies (0.15, 0.2, 0.25))" in out
    assert "2.test   test   Pong  bot/paddle/width=0.25    100  [15400, 15500)  off" in out
    assert out.rstrip().endswith("total: 15500 episodes")


def test_json_contract() -> None:
    proc = run("explain", str(FIX / "full-enable-updates.json"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) >= {"path", "type", "type_reason", "episodes", "phases", "unphased_blocks"}
    assert doc["episodes"] == 300 + 20 + 300 + 20 + 1
    first = doc["phases"][0]
    assert (first["label"], first["number"], first["kind"], first["line"]) == ("1.train", 1, "train", 8)
    block = first["blocks"][0]
    assert block == {
        "task": "Minigrid5x5",
        "module": "minigridkit",
        "params": {"agent_pos": [1, 1], "max_steps": 100, "lava": 0.1},
        "overrides": {"lava": 0.1},  # agent_pos and max_steps are the file's default_params
        "count": 300,
        "start": 0,
        "end": 300,
        "learning": True,
        "leaf": "episode",
        "line": 9,
        "column": 5,
    }
    assert doc["phases"][1]["blocks"][0]["learning"] is False


def test_workers_split() -> None:
    doc = json.loads(run("explain", str(FIX / "reference" / "ant-b.txt"), "--format", "json", "--workers", "3").stdout)
    lanes = doc["workers"]
    # 5000 -> 1667, 1667, 1666 and 100 -> 34, 33, 33: remainders go to the first workers
    assert [lane["episodes"] for lane in lanes] == [3402, 3400, 3398]
    assert lanes[0]["blocks"][0] == {"count": 1667, "start": 0, "end": 1667}
    assert lanes[2]["blocks"][0] == {"count": 1666, "start": 0, "end": 1666}


def test_errors_print_path_line_col_and_exit_1() -> None:
    proc = run("explain", str(FIX / "schema-errors.json"))
    assert proc.returncode == 1
    assert f"{FIX / 'schema-errors.json'}:6:48: error: count must be a positive integer, got -5" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_stdin_and_io_errors() -> None:
    proc = run("explain", "-", stdin='[{"$phase": "1.train"}, {"$episode": "Pong"}]')
    assert proc.returncode == 0 and "total: 1 episodes" in proc.stdout
    missing = run("explain", "no/such/file.json")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "sylla: cannot read no/such/file.json: No such file or directory"
    usage = run("explain")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_explain_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys; from sylla.cli import main; "
        f"rc = main(['explain', {str(FIX / 'pretest.json')!r}]); "
        "heavy = [m for m in ('numpy', 'pandas', 'matplotlib') if m in sys.modules]; "
        "print('HEAVY', heavy)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stdout, proc.stdout + proc.stderr


CLI_FIX = Path(__file__).parent.parent / "fixtures" / "cli" / "explain"


def test_params_that_tell_blocks_apart_are_shown_and_defaults_once() -> None:
    proc = run("explain", str(CLI_FIX / "pong_paddle_ball.json"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    header = [line for line in lines if line.startswith("default_params")]
    assert len(header) == 1 and 'ball/color="white"' in header[0] and "court/width=1.0" in header[0]
    rows = {line.split()[0] + " " + re.search(r"\[\d+, \d+\)", line).group(): line for line in lines if line.startswith(("1.", "2.")) and "[" in line}
    # the block that differs in both parameters shows both, however many defaults it repeats
    assert 'agent/paddle/width=0.3, ball/color="red"' in rows["1.test [6100, 6200)"]
    assert "(defaults)" in rows["1.test [6000, 6100)"]
    assert "bot/skill" not in proc.stdout.replace(header[0], "")  # a default, said once


def test_worker_option_names_the_worker_shown() -> None:
    ref = str(FIX / "reference" / "ant-b.txt")
    doc = json.loads(run("explain", ref, "--format", "json", "--workers", "3", "--worker", "2").stdout)
    assert (doc["worker"], doc["worker_count"]) == (2, 3)
    assert doc["episodes"] == doc["workers"][2]["episodes"] == 3398
    text = run("explain", ref, "--workers", "3", "--worker", "2").stdout
    assert "schedule of worker 2 of workers 0..2" in text
    assert "worker 2: 3398 episodes  (shown above)" in text
    assert text.rstrip().endswith("total: 3398 episodes (worker 2)")
    bad = run("explain", ref, "--workers", "3", "--worker", "3")
    assert bad.returncode == 2 and "--worker must be between 0 and 2" in bad.stderr
