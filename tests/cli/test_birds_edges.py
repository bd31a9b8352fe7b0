"""Science Birds configs at the edges (issue 38), through the installed ``sylla`` as a user runs
it: ``explain`` never turns a value it cannot read into a number (it says unknown), and its
totals are the sums of its per-item lines; detection finds a config whose root hides behind a
long prolog or a NUL byte, so the pre-commit hook never passes one unread; ``lint --fix``
exits as a fresh lint of what it wrote; a pristine game file passes the default lint; numbers
of any length and any nesting depth are findings at their position, never a traceback.

Every file is a fixture of tests/fixtures/birds with one change. Expected numbers are worked by
hand from the reference formulas (docs/guide.md, "Science Birds trial configs"), never copied
from sylla's output.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

FIX = Path(__file__).resolve().parents[1] / "fixtures"
BIRDS = FIX / "birds"
WORKED = (BIRDS / "worked-example.xml").read_text(encoding="utf-8")
B810 = (BIRDS / "rules" / "B810_bad.xml").read_text(encoding="utf-8")
SYLLA = shutil.which("sylla", path=str(Path(sys.executable).parent)) or shutil.which("sylla")


def sylla(*args: str, limit_memory: int | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    if SYLLA is None:  # pragma: no cover - the editable install provides it
        pytest.fail("the sylla entry point is not installed (run scripts/setup.sh)")

    def cap() -> None:
        if limit_memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    proc = subprocess.run([SYLLA, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=cap)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc


def write(tmp_path: Path, text: str | bytes, name: str = "configMeta.xml") -> Path:
    target = tmp_path / name
    target.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return target


def explain_json(path: Path) -> tuple[dict[str, Any], subprocess.CompletedProcess[str]]:
    proc = sylla("explain", "--format", "json", str(path))
    return json.loads(proc.stdout), proc


def line_col(text: str, needle: str, delta: int = 0) -> str:
    offset = text.index(needle) + delta
    return f"{text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"


# ---- 1. explain: unknown, never a default; totals from the per-item formula ---------------------


def test_an_unreadable_amount_makes_the_training_time_unknown_not_off(tmp_path: Path) -> None:
    """The issue's case: amount="two" on the only training set."""
    path = write(tmp_path, WORKED.replace('amount="2"', 'amount="two"', 1))
    text = sylla("explain", str(path))
    assert text.returncode == 1  # the schema error is on stderr
    assert "training time limit is off" not in text.stdout
    assert "time limit unknown" in text.stdout and "total_n_testsets = ? (time unknown)" in text.stdout
    doc, _ = explain_json(path)
    (t,) = doc["trials"]
    assert t["training"]["time_limit"] is None and t["test"]["total_n_testsets"] is None
    assert [s["n_testsets"] for s in t["test"]["sets"]] == [None, None]
    assert t["timeline"][1] == {**t["timeline"][1], "event": "checkpoint-tests", "count": None}
    assert "amount=\"two\"" in t["unknown"]["training time"]
    # the interaction limit is readable and on: training still ends at it (60000), known
    assert t["training"]["ends_when"] == ["60000 interactions", "3 attempts on every level"]


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
@pytest.mark.parametrize(
    "before,after,unknown,nulls",
    [
        # the per-level time: the training time and everything after it
        ('<limit type="time">180</limit>', '<limit type="time">3 min</limit>', "training time",
         [("training", "time_limit"), ("test", "total_n_testsets")]),
        # a checkpoint limit: total_n_testsets, though checkpoints are known to fire (interaction 200)
        ('<limit type="time">200</limit>', '<limit type="time">200s</limit>', "checkpoint time", [("test", "total_n_testsets")]),
        # the training interaction limit
        ('<limit type="interaction">60000</limit>', '<limit type="interaction">many</limit>', "training interaction",
         [("test", "total_n_testsets")]),
        # a number past int.Parse: unknown, not a number sylla computes with
        ('amount="2"', 'amount="99999999999"', "training time", [("training", "time_limit"), ("test", "total_n_testsets")]),
    ],
)
def test_every_quantity_an_unreadable_limit_decides_is_unknown(
    tmp_path: Path, before: str, after: str, unknown: str, nulls: list[tuple[str, str]]
) -> None:
    path = write(tmp_path, WORKED.replace(before, after, 1))
    doc, proc = explain_json(path)
    assert proc.returncode == 1
    (t,) = doc["trials"]
    assert unknown in t["unknown"], t["unknown"]
    for part, key in nulls:
        assert t[part][key] is None, (part, key)
    assert [s["n_testsets"] for s in t["test"]["sets"]] == [None, None]
    assert t["timeline"][1]["count"] is None
    what = unknown.split()[-1]  # "time" or "interaction"
    assert not any(f"{unknown.split()[0]} {what} limit is off" in n for n in t["notes"]), t["notes"]
    out = sylla("explain", str(path)).stdout
    assert "an unknown number of test sets in all" in out and f"{unknown.split()[0]} {what} limit is off" not in out


@pytest.mark.parametrize(
    "before,after,fields",
    [
        ("<count>3</count>", "<count>three</count>", ["trials_generated", "executions"]),
        ("<count>3</count>", "<count>99999999999</count>", ["trials_generated", "executions"]),
        ("<repeats>2</repeats>", "<repeats>twice</repeats>", ["executions"]),
        ('notify_novelty="both"', 'notify_novelty="sometimes"', ["trials_generated", "executions"]),
    ],
)
def test_trial_counts_from_an_unreadable_value_are_unknown(tmp_path: Path, before: str, after: str, fields: list[str]) -> None:
    path = write(tmp_path, WORKED.replace(before, after, 1))
    doc, proc = explain_json(path)
    assert proc.returncode == 1
    (t,) = doc["trials"]
    for key in fields:
        assert t[key] is None and doc["totals"][key] is None, key
    header = sylla("explain", str(path)).stdout.splitlines()[0]
    assert "0 trial(s)" not in header and "0 execution(s)" not in header
    assert "unknown execution(s)" in header


def test_an_unreadable_step_leaves_the_request_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, WORKED.replace('step="1"', 'step="every"', 1))
    doc, _ = explain_json(path)
    assert doc["novelty_detection"]["requested"] is None
    assert "never requested" not in sylla("explain", str(path)).stdout


def test_test_sets_in_all_is_the_sum_of_the_per_set_counts(tmp_path: Path) -> None:
    """One 10 % test set: total_n_testsets = ceil(360 / 200) + ceil(60000 / 200) = 2 + 300 = 302,
    and the set is generated ceil(302 x 10 / 100) = ceil(30.2) = 31 times: 31 test sets in all."""
    one = WORKED.replace(
        '          <game_level_set novelty_level="1" novelty_type="1" amount="5" set_appearance_percentage="30" time="600" interaction="200" attempt_per_level="1" allow_level_selection="true" />\n',
        "",
    ).replace('set_appearance_percentage="50"', 'set_appearance_percentage="10"')
    path = write(tmp_path, one)
    doc, proc = explain_json(path)
    assert proc.returncode == 0, proc.stderr
    (t,) = doc["trials"]
    assert t["test"]["total_n_testsets"] == {"min": 302, "max": 302}
    assert [s["n_testsets"] for s in t["test"]["sets"]] == [{"min": 31, "max": 31}]
    assert t["timeline"][1]["count"] == {"min": 31, "max": 31}
    out = sylla("explain", str(path)).stdout
    assert "10% -> n_testsets 31" in out and "(31 test sets in all, shuffled)" in out and "302 test sets in all" not in out


def test_test_sets_in_all_of_the_worked_example() -> None:
    # ceil(302 x 50 / 100) = 151 and ceil(302 x 30 / 100) = ceil(90.6) = 91
    doc, _ = explain_json(BIRDS / "worked-example.xml")
    assert doc["trials"][0]["timeline"][1]["count"] == {"min": 151 + 91, "max": 151 + 91}


def test_a_lo_hi_amount_gives_the_range_of_the_sum(tmp_path: Path) -> None:
    """amount="2-4" draws 2 or 3 levels: 360-540 s of training; ceil(360/200) = 2, ceil(540/200) = 3;
    total 302-303; a 50 % set ceil(151, 151.5) = 151-152 and a 30 % set ceil(90.6, 90.9) = 91: 242-243."""
    path = write(tmp_path, WORKED.replace('amount="2"', 'amount="2-4"', 1))
    doc, proc = explain_json(path)
    assert proc.returncode == 0, proc.stderr
    (t,) = doc["trials"]
    assert t["test"]["total_n_testsets"] == {"min": 302, "max": 303}
    assert t["timeline"][1]["count"] == {"min": 151 + 91, "max": 152 + 91}


# ---- 2. detection: never a config skipped unread --------------------------------------------------


LONG_PROLOGS = [
    "<!--" + "a comment of the real config's length\n" * 2000 + "-->\n",  # 76 KB
    "<!DOCTYPE config_generation [\n" + "  <!-- the schema, written out -->\n" * 2500 + "]>\n",  # 85 KB
    '<?xml-stylesheet href="view.xsl"?>\n' + " " * 70000 + "\n",
]


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
@pytest.mark.parametrize("prolog", LONG_PROLOGS, ids=["comment", "doctype", "pi-and-blanks"])
def test_a_root_after_64_kib_of_prolog_is_linted(tmp_path: Path, prolog: str) -> None:
    text = B810.replace("<config_generation>", prolog + "<config_generation>", 1)
    assert text.index("<config_generation>") > 65536
    path = write(tmp_path, text)
    for target in (path, tmp_path):  # the file, and a folder walk (the pre-commit hook's)
        proc = sylla("lint", "--format", "json", str(target))
        assert proc.returncode == 1, proc.stderr
        found = [(f["code"], f"{f['line']}:{f['column']}") for f in json.loads(proc.stdout)]
        assert found == [("B810", line_col(text, ">TRUE<", 1)), ("B810", line_col(text, 'ordered="True"', len('ordered="')))]


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
@pytest.mark.parametrize(
    "before,after",
    [
        ("<trials>", "<tri\x00als>"),  # a child's tag
        ("<config_generation>", "<config_gen\x00eration>"),  # the root's own tag
        ('<trial notify_novelty="both">', '<trial notify_novelty="bo\x00th">'),  # an attribute value
        ('version="1.0"', 'version="1.0\x00"'),  # the declaration
        ("<config_generation>", "\x00<config_generation>"),  # between the declaration and the root
        ("</config_generation>", "</config_generation>\x00"),  # after the root
    ],
)
def test_a_nul_byte_is_a_finding_at_its_position(tmp_path: Path, before: str, after: str) -> None:
    text = B810.replace(before, after, 1)
    path = write(tmp_path, text)
    for target in (path, tmp_path):
        proc = sylla("lint", "--format", "json", str(target))
        assert proc.returncode == 1, (proc.stdout, proc.stderr)
        (finding,) = json.loads(proc.stdout)
        assert (finding["code"], f"{finding['line']}:{finding['column']}") == ("B801", line_col(text, "\x00"))
        assert "NUL" in finding["message"]
    proc = sylla("explain", str(path))
    assert proc.returncode == 1 and f"{line_col(text, chr(0))}: error:" in proc.stderr


def test_binary_bytes_named_xml_are_a_finding_and_other_xml_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "configMeta.xml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "pom.xml").write_bytes(b'<?xml version="1.0"?>\n<project>\n  <!-- \x00 -->\n</project>\n')
    (tmp_path / "syllabus-named.xml").write_bytes((FIX / "linter" / "good.json").read_bytes())
    proc = sylla("lint", "--format", "json", str(tmp_path))
    assert proc.returncode == 1
    found = {(Path(f["path"]).name, f["code"]) for f in json.loads(proc.stdout)}
    assert found == {("configMeta.xml", "B801")}
    text = sylla("lint", str(tmp_path)).stdout
    assert text.rstrip().endswith("in 2 files.")  # configMeta.xml and the syllabus; pom.xml is not a config


def test_utf16_without_a_byte_order_mark_is_read_not_refused_as_binary(tmp_path: Path) -> None:
    text = B810.replace('encoding="utf-8"', 'encoding="utf-16"')
    path = write(tmp_path, text.encode("utf-16-le"))
    proc = sylla("lint", "--format", "json", str(path))
    assert [f["code"] for f in json.loads(proc.stdout)] == ["B810", "B810"]


# ---- 3. lint --fix exits as the lint of what it wrote ---------------------------------------------


@pytest.mark.parametrize("fail_on", ["warning", "info"])
def test_fix_exits_as_a_fresh_lint_of_what_it_wrote(tmp_path: Path, fail_on: str) -> None:
    """B810's two booleans are fixed; the utf-16 declaration on ASCII bytes (B803) stays, and is
    in the after-fix report and in its exit code, as in a fresh lint's."""
    path = write(tmp_path, B810.replace('encoding="utf-8"', 'encoding="utf-16"'))
    fixed = sylla("lint", "--fix", "--fail-on", fail_on, "--format", "json", str(path))
    fresh = sylla("lint", "--fail-on", fail_on, "--format", "json", str(path))
    assert [f["code"] for f in json.loads(fixed.stdout)] == ["B803"]
    assert json.loads(fixed.stdout) == json.loads(fresh.stdout)
    assert fixed.returncode == fresh.returncode == (1 if fail_on == "info" else 0)


# ---- 4. a pristine game config passes the default lint ----------------------------------------------


def test_the_game_s_own_files_pass_the_default_lint() -> None:
    """tests/fixtures/birds/game: configMeta.xml and the config.xml generated from it, as the
    game writes them (encoding="utf-16" declared on ASCII bytes, CRLF)."""
    game = BIRDS / "game"
    for name in ("configMeta.xml", "config.xml"):
        data = (game / name).read_bytes()
        assert data.isascii() and data.startswith(b'<?xml version="1.0" encoding="utf-16"?>\r\n')
    proc = sylla("lint", str(game))
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.count("B803") == 2  # shown, as information
    assert sylla("lint", "--fail-on", "info", str(game)).returncode == 1
    assert sylla("explain", str(game / "configMeta.xml")).returncode == 0
    page = sylla("rule", "B803").stdout
    assert "Why info, not a warning" in page and "never consults the declaration" in page


# ---- 5. numbers of any length, nesting of any depth ------------------------------------------------


HUGE = "9" * 5000


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
@pytest.mark.parametrize(
    "before,after,needle",
    [
        ('amount="2"', f'amount="{HUGE}"', 'amount="'),
        ('amount="2"', f'amount="1-{HUGE}"', 'amount="'),
        ('step="1"', f'step="{HUGE}"', 'step="'),
        ('set_appearance_percentage="50"', f'set_appearance_percentage="{HUGE}"', 'set_appearance_percentage="'),
        ("<count>3</count>", f"<count>-{HUGE}</count>", "<count>"),
        ('<limit type="time">180</limit>', f'<limit type="time">{HUGE}</limit>', '<limit type="time">'),
    ],
)
def test_a_huge_number_is_a_finding_in_every_command(tmp_path: Path, before: str, after: str, needle: str) -> None:
    text = WORKED.replace(before, after, 1)
    path = write(tmp_path, text)
    where = line_col(text, after, len(needle))
    lint = sylla("lint", "--format", "json", str(path))
    assert lint.returncode == 1
    assert [(f["code"], f"{f['line']}:{f['column']}") for f in json.loads(lint.stdout) if f["severity"] == "error"] == [("B805", where)]
    assert all(len(f["message"]) < 300 for f in json.loads(lint.stdout))
    explain = sylla("explain", str(path))
    assert explain.returncode == 1 and explain.stderr.count(f":{where}: error:") == 1
    fix = sylla("lint", "--fix", str(path))
    assert fix.returncode == 1 and f":{where}: B805" in fix.stdout
    assert path.read_text(encoding="utf-8") == text  # no fix to apply
    fmt = sylla("fmt", "--check", str(path))
    assert fmt.returncode == 0 and "not formatted by sylla" in fmt.stderr


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
def test_a_number_of_ten_million_digits_in_bounded_memory(tmp_path: Path) -> None:
    text = WORKED.replace('amount="2"', f'amount="{"7" * 10_000_000}"', 1)
    path = write(tmp_path, text)
    proc = sylla("lint", "--format", "json", str(path), limit_memory=1024 * 1024 * 1024)
    assert proc.returncode == 1, proc.stderr[-500:]
    assert [f["code"] for f in json.loads(proc.stdout) if f["severity"] == "error"] == ["B805"]


@pytest.mark.slow  # a process per command and variant; tests/grammar/test_birds_edges.py runs the same cases in process
@pytest.mark.parametrize("depth", [65, 100_000])
def test_deep_nesting_is_a_finding_in_every_command(tmp_path: Path, depth: int) -> None:
    text = WORKED.replace("<trials>", "<trials>" + "<x>" * depth + "</x>" * depth, 1)
    path = write(tmp_path, text)
    # <config_generation> is level 1 and <trials> level 2: the 63rd <x> is level 65, one too deep
    where = line_col(text, "<trials>", len("<trials>") + 62 * len("<x>"))
    lint = sylla("lint", "--format", "json", str(path), limit_memory=1024 * 1024 * 1024)
    assert lint.returncode == 1
    assert [(f["code"], f"{f['line']}:{f['column']}") for f in json.loads(lint.stdout) if f["severity"] == "error"] == [("B801", where)]
    explain = sylla("explain", str(path))
    assert explain.returncode == 1 and f":{where}: error: elements are nested more than 64 levels deep" in explain.stderr
    fix = sylla("lint", "--fix", str(path))
    assert fix.returncode == 1 and path.read_text(encoding="utf-8") == text
    assert sylla("fmt", str(path)).returncode == 0 and path.read_text(encoding="utf-8") == text
