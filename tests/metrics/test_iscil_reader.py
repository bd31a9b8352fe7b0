"""The continual-imitation reader on training_log.log files shaped like the trainer prints them
(config dict line, loss lines, `skill_seq`/`Stage Multi-task` prints beside the evaluations)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sylla.metrics.errors import MetricsError
from sylla.metrics.readers import detect, read_log
from sylla.metrics.readers.iscil import find_logs, parse_phases, read_iscil

from .conftest import FIXTURES

ISCIL = FIXTURES / "iscil"
TREE = ISCIL / "tree"
KITCHEN = TREE / "iscil" / "kitchen"
WORKED = KITCHEN / "exp_worked_seed0" / "training_log.log"
A, B, C = "microwave-kettle", "bottom-burner-light-switch", "slide-cabinet-hinge-cabinet"


def phases_of(path: Path):
    return parse_phases(path.read_bytes(), str(path))


def scores(phase) -> dict[str, tuple[float, float, int]]:
    return {t: (e.raw, e.max, e.line) for t, e in phase.evals.items()}


def test_new_style_worked_example_phases_names_and_lines():
    phases = phases_of(WORKED)
    # three config lines (4, 14, 26); names with spaces become '-'
    assert [(p.number, p.line, p.train) for p in phases] == [(1, 4, [A]), (2, 14, [B]),
                                                              (3, 26, [C])]
    assert scores(phases[0]) == {A: (3.0, 4.0, 11)}
    assert scores(phases[1]) == {A: (2.0, 4.0, 21), B: (4.0, 4.0, 23)}
    assert {t: e.score for t, e in phases[2].evals.items()} == {A: 0.25, B: 0.75, C: 0.5}


def test_old_style_lines_are_out_of_four_and_named_without_rew():
    phases = phases_of(KITCHEN / "ablation_oldstyle_seed0" / "training_log.log")
    assert [p.train for p in phases] == [[A], [B], [C]]
    assert scores(phases[2])[B][:2] == (3.0, 4.0)
    assert set(phases[2].evals) == {A, B, C}


def test_mixed_file_overwrites_drops_and_splits():
    phases = phases_of(ISCIL / "mixed" / "training_log.log")
    # the evaluation before the first phase (3.50) is ignored; phase 2 has no evaluation
    assert [(p.number, p.train) for p in phases] == [(1, [A]), (2, [B]), (3, [B, C]), (4, [A])]
    assert phases[1].evals == {}
    assert [p.line for p in phases] == [5, 14, 18, 26]
    # old-style 2.00 at line 10, then new-style 3.00 at line 12: the later line wins
    assert scores(phases[0]) == {A: (3.0, 4.0, 12)}
    assert scores(phases[2]) == {A: (2.0, 4.0, 23), B: (4.0, 4.0, 24), C: (1.0, 4.0, 25)}
    assert scores(phases[3]) == {A: (4.0, 4.0, 31), B: (3.0, 4.0, 32), C: (3.0, 4.0, 33)}
    log = read_iscil(ISCIL / "mixed")
    assert [p.number for p in log.experiments[0].phases] == [1, 3, 4]
    frame = log.frame
    assert frame.phase.tolist() == ["1.train", "1.test", "3.train", "3.train", "3.test",
                                    "3.test", "3.test", "4.train", "4.test", "4.test", "4.test"]
    assert frame.perf[frame.kind == "test"].tolist() == [0.75, 0.5, 1.0, 0.25, 1.0, 0.75, 0.75]


def test_crlf_reads_like_lf():
    lf, crlf = ISCIL / "mixed" / "training_log.log", ISCIL / "mixed_crlf" / "training_log.log"
    assert b"\r\n" in crlf.read_bytes()
    for a, b in zip(phases_of(lf), phases_of(crlf), strict=True):
        assert (a.number, a.line, a.train, scores(a)) == (b.number, b.line, b.train, scores(b))


def test_tree_filter_and_order():
    names = [n for n, _ in find_logs(TREE)]
    assert names == ["iscil/kitchen/ablation_oldstyle_seed0", "iscil/kitchen/exp_other_seed1",
                     "iscil/kitchen/exp_worked_seed0", "iscil/kitchen/exp_zthird_seed2"]
    assert [n for n, _ in find_logs(TREE, "exp_")] == names[1:]
    log = read_log(TREE, fmt=None, options={"iscil_filter": "seed2"})
    assert [e.name for e in log.experiments] == ["iscil/kitchen/exp_zthird_seed2"]
    with pytest.raises(MetricsError, match="contains 'nothing-matches'"):
        read_log(TREE, options={"iscil_filter": "nothing-matches"})


def test_single_file_and_experiment_folder():
    assert [n for n, _ in find_logs(WORKED)] == ["exp_worked_seed0"]
    assert find_logs(WORKED.parent) == [("exp_worked_seed0", WORKED)]


@pytest.mark.parametrize("path", [WORKED, WORKED.parent, TREE, ISCIL / "mixed_crlf"])
def test_detected_by_content(path):
    assert detect(path) == "iscil"


def test_detection_does_not_claim_other_logs(tmp_path):
    other = tmp_path / "training_log.log"
    other.write_text('{"episode": 0, "reward": 1.0}\n')
    assert detect(other) == "jsonl"
    assert detect(FIXTURES / "rewards.csv") == "csv"


BAD = ISCIL / "bad"


@pytest.mark.parametrize(("case", "line", "message"), [
    ("over_max", 9, "score 4.5 is over its max 4"),
    ("max_zero", 9, "max score of 0"),
    ("unreadable", 9, "unreadable number '2.6.7'"),
    ("unreadable_old", 9, "unreadable number 'nan'"),
    ("no_phase", None, "no phase"),
    ("binary", 5, "binary file"),
    ("no_eval", 4, "no metric: 1 phase(s) but no evaluation line"),
    ("no_match", 4, "no metric: no phase evaluates a task it trains"),
])
def test_bad_input_names_file_and_line(case, line, message):
    path = BAD / case / "training_log.log"
    with pytest.raises(MetricsError) as info:
        read_log(path)
    assert info.value.file == str(path)
    assert info.value.row == line
    assert message in info.value.message


def test_bad_input_through_the_cli(tmp_path):
    path = BAD / "over_max" / "training_log.log"
    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip() == f"sylla: {path}:9: score 4.5 is over its max 4"
    assert "Traceback" not in done.stderr


def test_sub_goal_lists_in_double_quotes_are_read_through_the_cli(tmp_path):
    """A trainer that prints its sub-goal lists with ``json.dumps`` (``["microwave",
    "kettle"]``: no single quote on the line) gets the metrics of the same log printed with
    Python's ``repr``; such lines were skipped when the reader only looked at lines holding a
    single quote."""
    source = ISCIL / "mixed" / "training_log.log"
    lines = source.read_text().split("\n")
    evaluation = re.compile(r"\s*(\[task\s+\d+\]\s*sub_goal sequence is|\[\d+\]skill is)")
    changed = [line.replace("'", '"') if evaluation.match(line) else line for line in lines]
    assert changed != lines
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "training_log.log").write_text("\n".join(changed))

    def metrics(path: Path) -> str:
        done = subprocess.run([sys.executable, "-m", "sylla", "metrics", "--log", str(path),
                               "--format", "json", "--no-progress"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert metrics(folder) == metrics(source.parent)


def test_compat_reader_reproduces_the_script_tokeniser(tmp_path):
    from sylla.metrics.readers.iscil import parse_compat

    log = tmp_path / "training_log.log"
    log.write_text(
        "{'data_name': 'bottom burner-light switch'}\n"  # no 'data_paths': first word only
        "[0]skill is  ['bottom burner', 'light switch'] rew : 3.00\n"
        "[task 0] sub_goal sequence is ['bottom burner', 'light switch'] task GC : 1% "
        "(1.00 / 4.00)\n"
        "{'data_name': 'a-b, c-d', 'data_paths': []}\n"  # comma-space: the second keeps a '-'
        "[task 0] sub_goal sequence is ['a', 'b'] task GC : 50.00% (2.00 / 4.00)\n"
        "[task 1] sub_goal sequence is ['c', 'd'] task GC : 50.0.0% (2.0.0 / 4.00)\n")
    phases = parse_compat(log.read_bytes(), str(log))
    assert phases == [
        (["bottom"], {"bottom-burner-light-switch-rew": (3.0, 4.0),
                      "bottom-burner-light-switch": (1.0, 4.0)}),
        (["a-b", "-c-d"], {"a-b": (2.0, 4.0), "c-d": (0.0, 4.0)}),
    ]
    # the strict reading: whole data_name, names without 'rew', and the bad number refused
    head = b"".join(log.read_bytes().splitlines(keepends=True)[:5])
    strict = parse_phases(head, str(log))
    assert [p.train for p in strict] == [["bottom-burner-light-switch"], ["a-b", "c-d"]]
    assert scores(strict[0])["bottom-burner-light-switch"] == (1.0, 4.0, 3)
    with pytest.raises(MetricsError, match="unreadable number '2.0.0'"):
        parse_phases(log.read_bytes(), str(log))


def test_copied_tree_keeps_working(tmp_path):
    """A root given with a trailing layout other than <algo>/<env> still finds every log."""
    shutil.copytree(KITCHEN, tmp_path / "runs")
    assert len(find_logs(tmp_path)) == 4


def _quoted_log(path: Path) -> None:
    """Dict-shaped loss lines (quotes on every line), indented and final lines without '\\n'."""
    lines = ["{'data_name': 'microwave-kettle', 'data_paths': []}"]
    lines += [f"{{'epoch': {i}, 'loss': 0.{i:04d}}}" for i in range(3000)]
    lines += ["  [task 0] sub_goal sequence is ['microwave', 'kettle'] task GC : 75.00% "
              "(3.00 / 4.00)",
              "{'data_name': 'bottom burner-light switch', 'data_paths': []}",
              "[12]skill is  ['microwave', 'kettle'] rew : 2.00"]
    lines += [f"{{'epoch': {i}, 'loss': 0.5}}" for i in range(3000)]
    lines += ["[task 1] sub_goal sequence is ['bottom burner', 'light switch'] task GC : 25.00% "
              "(1.00 / 4.00)"]
    path.write_text("\n".join(lines))  # no final newline


@pytest.mark.parametrize("window", [1, 1 << 12, 10**9])
def test_quote_windows_of_any_size_read_the_same(tmp_path, monkeypatch, window):
    """The reader hands the pattern spans of lines from each quoted line on (`WINDOW` bytes):
    a span of one line, of a few blocks or of the whole file finds the same lines with the
    same numbers."""
    import sylla.metrics.readers.iscil as module

    monkeypatch.setattr(module, "WINDOW", window)
    log = tmp_path / "training_log.log"
    _quoted_log(log)
    phases = phases_of(log)
    assert [(p.line, p.train) for p in phases] == [(1, [A]), (3003, [B])]
    assert scores(phases[0]) == {A: (3.0, 4.0, 3002)}
    assert scores(phases[1]) == {A: (2.0, 4.0, 3004), B: (1.0, 4.0, 6005)}
    for path in [WORKED, ISCIL / "mixed" / "training_log.log",
                 ISCIL / "mixed_crlf" / "training_log.log"]:
        monkeypatch.setattr(module, "WINDOW", 1 << 12)
        expected = [(p.line, p.train, scores(p)) for p in phases_of(path)]
        monkeypatch.setattr(module, "WINDOW", window)
        assert [(p.line, p.train, scores(p)) for p in phases_of(path)] == expected


LINES = [
    "{'data_name': 'microwave-kettle', 'data_paths': []}",
    "{'data_name': 'bottom burner-light switch,microwave-kettle', 'data_paths': []}",
    "[task 0] sub_goal sequence is ['microwave', 'kettle'] task GC : 75.00% (3.00 / 4.00)",
    "[task 1] sub_goal sequence is ['bottom burner', 'light switch'] task GC : 25% (1.00 / 4.00)",
    "[0]skill is  ['microwave', 'kettle'] rew : 2.00",
    "  [1]skill is  ['bottom burner', 'light switch'] rew : 3.50",
    "[0] skill_seq: ['microwave', 'kettle'], avg rew: 3.00",
    "{'epoch': 3, 'loss': 0.25}",
    "[epoch 3] loss : 0.25",
    "[12/5000] loss 0.1",
    "[Stage Multi-task(Total) GC] : 75.00% (3.00 / 4.00)",
    "",
    "x",
]
# lines the bulk pattern leaves to the line-at-a-time reading (non-ASCII, odd blanks, numbers
# or lists it cannot read, a list without a quote) and lines it reads whole in odd spacing
ODD_LINES = [
    "[task 2] sub_goal sequence is ['caf\u00e9 burner'] task GC : 50% (2.00 / 4.00)",
    "[task 0] sub_goal sequence is ['microwave', 'kettle'] task GC : 75.00% (3.00 / 4.00) \x0c",
    "\t[task  3]sub_goal sequence is\t['microwave']\ttask GC:x(1/2) (1e0 / 2)\t ",
    "[task 0] sub_goal sequence is ['microwave'] task GC : 1% (abc / 4.00)",
    "[task 0] sub_goal sequence is ['microwave'] task GC : 1% (1 / 4))",
    "[task 0] sub_goal sequence is ['a'] task GC : 1% (1 / 4)] task GC : 1% (x / 4)",
    "[task 0] sub_goal sequence is [\"kettle\"] task GC : 25% (1.00 / 4.00)",
    "[task 0] sub_goal sequence is ['a', 3] task GC : 25% (1.00 / 4.00)",
    "[task 0] sub_goal sequence is [] task GC : 25% (1.00 / 4.00)",
    "[4]skill is  ['microwave', 'kettle'] rew : 5.00",
    "[4]skill is  ['kettle']  rew:1",
    "[4]skill is ['kettle'] rew : nan",
    "[5]skill is  ['\u00e9'] rew : 1.00",
]


def _by_line(data: bytes):
    """The line-at-a-time reading (`PhaseScan._one`) of every line that opens like a wanted
    one: what the bulk pattern must agree with."""
    import sylla.metrics.readers.iscil as module

    data = bytes(module._normalise(data, "f"))
    scan, pos = module.PhaseScan("f"), 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        found = module._FIRST_LINE.match(data, pos, pos + len(line))
        if found is not None:
            scan._one(data, found, number)
        pos += len(line) + 1
    return scan.result()


def _outcome(read):
    try:
        return [(p.line, p.train, scores(p)) for p in read()]
    except MetricsError as exc:
        return str(exc)


@pytest.mark.parametrize("line", LINES + ODD_LINES)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_each_line_reads_as_the_line_reading_reads_it(line, newline):
    """Each line after a phase line, alone: the bulk pattern's reading (or error) is the
    line-at-a-time reading's."""
    data = newline.join([LINES[0], line, LINES[2], ""]).encode()
    assert _outcome(lambda: parse_phases(data, "f")) == _outcome(lambda: _by_line(data))


# the scan's knobs: span size, and the stretch up to which newlines are counted on a copy
KNOBS = st.tuples(st.sampled_from([1, 64, 1 << 12]), st.sampled_from([0, 10, 1 << 16]))


@contextmanager
def _knobs(knobs: tuple[int, int]) -> Iterator[None]:
    import sylla.metrics.readers.iscil as module

    saved = module.WINDOW, module.SHORT
    module.WINDOW, module.SHORT = knobs
    try:
        yield
    finally:
        module.WINDOW, module.SHORT = saved


@given(st.lists(st.sampled_from(LINES + ODD_LINES), min_size=1, max_size=40),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), KNOBS)
@settings(max_examples=200, deadline=None)
def test_bulk_pattern_reads_what_the_line_reading_reads(lines, newline, final, knobs):
    """Whatever the mix of lines, line ends, final newline and the scan's knobs, the bulk
    pattern reads the same phases, lines and scores as the line-at-a-time reading (or fails
    with the same error on the same line)."""
    data = (newline.join(lines) + (newline if final else "")).encode()
    with _knobs(knobs):
        bulk = _outcome(lambda: parse_phases(data, "f"))
    assert bulk == _outcome(lambda: _by_line(data))


@given(st.lists(st.sampled_from(LINES + ODD_LINES), min_size=1, max_size=40), st.booleans(),
       st.lists(st.integers(min_value=0, max_value=40), max_size=6), KNOBS)
@settings(max_examples=150, deadline=None)
def test_lines_fed_in_pieces_read_as_the_whole(lines, final, cuts, knobs):
    """`PhaseScan` fed a log in pieces of whole lines (as ``sylla watch`` feeds the lines
    appended since its last update) reads what it reads from the whole file: the same phases,
    line numbers and scores, or the same error, whatever the scan's knobs."""
    import sylla.metrics.readers.iscil as module

    data = ("\n".join(lines) + ("\n" if final else "")).encode()
    starts = [0, *(len(("\n".join(lines[:c]) + "\n").encode()) for c in sorted(set(cuts))
                   if 0 < c < len(lines)), len(data)]
    results = []
    with _knobs(knobs):
        for pieces in ([data], [data[a:b] for a, b in zip(starts, starts[1:])]):
            scan = module.PhaseScan("f")
            try:
                for piece in pieces:
                    scan.feed(piece)
                results.append([(p.line, p.train, scores(p)) for p in scan.result()])
            except MetricsError as exc:
                results.append(str(exc))
    assert results[0] == results[1]


@pytest.mark.parametrize("shape", ["empty", "blank", "folder"])
def test_a_run_folder_whose_training_log_is_empty_or_a_folder_names_it(tmp_path, shape):
    """Issue 38: an empty ``training_log.log`` or a folder of that name gave "neither an
    l2logger log ... nor a learnkit log", as if continual-imitation logs did not exist. An
    empty or blank file is now the reader's, which says it is empty or holds no phase; a
    folder is named as such, in a message that lists continual-imitation logs."""
    run = tmp_path / "exp_seed0"
    run.mkdir()
    if shape == "folder":
        (run / "training_log.log").mkdir()
    else:
        (run / "training_log.log").write_text("" if shape == "empty" else "\n  \n")
    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", str(run)],
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr
    if shape == "folder":
        assert done.returncode == 2
        assert "nor a continual-imitation log (a training_log.log file): its training_log.log " \
               "is a directory, not a file" in done.stderr
    else:
        assert done.returncode == 1
        words = "the file is empty" if shape == "empty" else "no phase"
        assert done.stderr.startswith(f"sylla: {run / 'training_log.log'}: {words}")


def test_a_folder_of_no_known_format_lists_continual_imitation_logs(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sylla", "metrics", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "an l2logger log (logger_info.json), a learnkit log (worker-env-K folders) nor a " \
           "continual-imitation log (a training_log.log file)" in done.stderr
