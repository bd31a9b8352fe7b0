"""Bad data never becomes a number: each corruption from issue 13 is an error naming the file and
row, or (where the data can still be read unambiguously) a warning under --allow-partial.

Plain logs are small files in tests/fixtures/metrics/corrupt (written by make_fixtures.py);
l2logger corruptions are made on a copy of the l2logger fixture, the way a crash, a manual edit
or a bad merge would leave it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sylla.cli import main
from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import read_log

from .conftest import FIXTURES, SYLLABUS

CORRUPT = FIXTURES / "corrupt"


@pytest.mark.parametrize("name, row, words", [
    ("non_utf8.csv", 2, "not UTF-8 text: byte 0xf6"),
    ("bool_reward.csv", 2, "reward is a boolean (true)"),
    ("bool_reward.jsonl", 1, "reward is a boolean (true)"),
    ("bool_episode.jsonl", 1, "episode is a boolean (false)"),
    ("text_reward.jsonl", 1, "reward is text ('0.457')"),
    ("two_tasks_one_episode.csv", 3, "episode 0 is logged with task 'Pong' and task 'Breakout'"),
    ("restarted.csv", 5, "episode 0 appears again after episode 2 (first logged at row 2)"),
    ("cut.csv", 4, "the last line (4) has no final newline"),
    ("big_episode.csv", 3, "got 1e+20 (it is too large to be an episode number)"),
    ("half_episode.csv", 3, "got 10.5 (it is not a whole number)"),
    ("huge_reward.csv", 3, "reward is 1e+308, beyond ±1e+100"),
    ("huge_reward.jsonl", 2, "reward is -1e+200, beyond ±1e+100"),
])
def test_plain_corruption_is_a_located_error(name, row, words):
    with pytest.raises(MetricsError) as info:
        read_log(CORRUPT / name)
    err = info.value
    assert err.file == str(CORRUPT / name) and err.row == row, str(err)
    assert words in err.message
    assert err.exit_code == 1
    assert "np.float64" not in err.message


def test_cut_last_line_is_dropped_with_allow_partial():
    log = read_log(CORRUPT / "cut.csv", allow_partial=True)
    assert log.frame.perf.tolist() == [0.5, 0.457]
    assert any("no final newline" in w and "dropped" in w for w in log.warnings)


def test_episode_logged_twice_warns_or_errors():
    log = read_log(CORRUPT / "twice.csv")
    assert log.frame.perf.tolist() == [2.0, 2.0]
    assert any("episode 0 is logged more than once" in w for w in log.warnings)
    with pytest.raises(MetricsError, match="episode 0 is logged more than once") as info:
        read_log(CORRUPT / "twice.csv", duplicates="error")
    assert info.value.row == 3


def test_per_step_rows_are_not_duplicates():
    log = read_log(FIXTURES / "rewards_steps.tsv")
    assert log.warnings == []


def test_variant_suffix_naming_another_task_is_refused(tmp_path):
    lines = ["episode,task,reward"]
    tasks = ["Pong"] * 8 + ["Breakout"] * 8 + ["Pong"] * 2 + ["Breakout"] * 2
    tasks[2] = "Pong_Breakout"
    lines += [f"{i},{t},1" for i, t in enumerate(tasks)]
    path = tmp_path / "variant.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MetricsError, match="the log has 'Pong_Breakout'") as info:
        compute_metrics(path, SYLLABUS)
    assert info.value.row == 4
    tasks[2] = "pong_v0"  # a real variant suffix is still Pong
    path.write_text("\n".join(["episode,task,reward"] + [f"{i},{t},1" for i, t in
                                                        enumerate(tasks)]) + "\n")
    compute_metrics(path, SYLLABUS, only=["normalized_integral"])


def _l2logger(tmp_path: Path) -> Path:
    d = tmp_path / "log"
    shutil.copytree(FIXTURES / "l2logger_v11", d)
    return d


def _edit(file: Path, line: int, column: str, value: str) -> None:
    lines = file.read_text().splitlines()
    header = lines[0].split("\t")
    cells = lines[line - 1].split("\t")
    cells[header.index(column)] = value
    lines[line - 1] = "\t".join(cells)
    file.write_text("\n".join(lines) + "\n")


def _delete_lines(file: Path, numbers: list[int]) -> None:
    lines = file.read_text().splitlines()
    file.write_text("\n".join(line for i, line in enumerate(lines, 1) if i not in numbers) + "\n")


@pytest.mark.parametrize("case, folder, row, words", [
    ("type", "2-train", 3, "block_type is 'test' inside folder 2-train"),
    ("number", "2-train", 3, "block_num is 17 inside folder 2-train"),
    ("task", "0-train", 4, "task 'pong' comes back in the middle of block 0"),
    ("gap", "0-train", 3, "2 experience(s) missing from the log (exp_num 1-2)"),
    ("dup", "2-train", 8, "exp_num 3 is logged again in another block"),
    ("again", "0-train", 8, "exp_num 1 is logged again after other experiences"),
])
def test_l2logger_contradictions_are_located(tmp_path, case, folder, row, words):
    d = _l2logger(tmp_path)
    f = d / "worker-default" / folder / "data-log.tsv"
    if case == "type":
        _edit(f, 3, "block_type", "test")
    elif case == "number":
        _edit(f, 3, "block_num", "17")
    elif case == "task":
        _edit(f, 3, "task_name", "breakout")
    elif case == "gap":
        _delete_lines(f, [3, 4])
    elif case == "dup":
        src = (d / "worker-default" / "0-train" / "data-log.tsv").read_text().splitlines()[4]
        cells = src.split("\t")
        cells[0], cells[3] = "2", "train"
        cells[-1] = "99"
        f.write_text(f.read_text() + "\t".join(cells) + "\n")
    elif case == "again":  # exp 1 logged a second time, with another value, at the end
        lines = f.read_text().splitlines()
        cells = lines[2].split("\t")
        cells[-1] = "42"
        f.write_text("\n".join(lines + ["\t".join(cells)]) + "\n")
    with pytest.raises(MetricsError) as info:
        read_log(d)
    err = info.value
    assert err.file == str(f) and err.row == row, str(err)
    assert words in err.message


def test_l2logger_deleted_block_folder(tmp_path):
    d = _l2logger(tmp_path)
    shutil.rmtree(d / "worker-default" / "1-test")
    with pytest.raises(MetricsError, match=r"block folder\(s\) 1 missing"):
        read_log(d)
    log = read_log(d, allow_partial=True)
    assert len(log.frame) == 16
    assert any("block folder(s) 1 missing" in w for w in log.warnings)
    assert any("4 experience(s) missing" in w for w in log.warnings)


@pytest.mark.parametrize("args, code", [
    (["--log", str(CORRUPT / "text_reward.jsonl")], 1),
    (["--log", str(FIXTURES / "nan.csv")], 1),
    (["--log", str(FIXTURES / "no_reward.csv")], 1),
    (["--log", str(FIXTURES / "does-not-exist.csv")], 2),
    (["--log", str(FIXTURES / "rewards.csv"), "-P", "nosuch=1"], 2),
])
def test_exit_codes(args, code, capsys):
    assert main(["metrics", "--syllabus", str(SYLLABUS)] + args) == code
    err = capsys.readouterr().err
    assert err.startswith("sylla: ") and "Traceback" not in err


def test_l2logger_bad_row_exit_code_matches_nan(tmp_path, capsys):
    d = _l2logger(tmp_path)
    _edit(d / "worker-default" / "2-train" / "data-log.tsv", 3, "reward", "oops")
    assert main(["metrics", "--log", str(d)]) == 1
    d2 = tmp_path / "b"
    shutil.copytree(FIXTURES / "l2logger_v11", d2)
    _edit(d2 / "worker-default" / "2-train" / "data-log.tsv", 3, "reward", "nan")
    assert main(["metrics", "--log", str(d2)]) == 1


def test_help_lists_exit_codes_and_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["metrics", "--help"])
    out = capsys.readouterr().out
    assert "exit codes:" in out and "  2  usage" in out and "  1  the data" in out
    assert "(default: text)" in out and "metrics_columns" in out


@pytest.mark.parametrize("value", ["1.5", "nan", "0", "-0.1", "inf", "abc"])
def test_bad_s_is_a_usage_error(value, capsys):
    args = ["metrics", "--syllabus", str(SYLLABUS), "--log", str(FIXTURES / "rewards.csv"),
            "-P", f"s={value}"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"parameter s: '{value}'" in err and "Traceback" not in err


def test_bad_window_length_is_a_usage_error(capsys):
    args = ["metrics", "--log", str(FIXTURES / "l2logger_v11"), "-P", "window_length=0"]
    assert main(args) == 2
    assert "must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("stream", [False, True])
def test_a_reward_whose_sums_overflow_is_a_located_error_in_an_l2logger_log(tmp_path, stream):
    """One reward of 1e308 overflowed a running sum to inf, which came out as a plausible
    small average (avg_train_perf 59.8 -> 1.34, exit 0): every reader refuses values beyond
    ±1e100, the streaming one by handing the log to the whole-log reader, which names the row."""
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "l2logger_v11", run)
    data = sorted(run.rglob("data-log.tsv"))[0]
    lines = data.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    cells = lines[2].split("\t")
    cells[header.index("reward")] = "1e308"
    lines[2] = "\t".join(cells)
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(MetricsError) as info:
        read_log(run, stream=stream, progress=False)
    assert info.value.file == str(data) and info.value.row == 3, str(info.value)
    assert "reward is 1e+308, beyond ±1e+100" in info.value.message


def test_a_parquet_reward_beyond_the_range_is_refused(tmp_path):
    import pandas as pd

    path = tmp_path / "log.parquet"
    pd.DataFrame({"episode": [0, 1, 2], "reward": [1.0, 2.0, 5e150]}).to_parquet(path)
    with pytest.raises(MetricsError, match=r"reward is 5e\+150, beyond ±1e\+100") as info:
        read_log(path)
    assert info.value.row == 3
