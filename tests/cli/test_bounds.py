"""Number options refuse values the command cannot honour, before any work (issue 38).

Each case once hung, blew up or wrote bad numbers: a billion ``explain`` workers, 10^12
bootstrap resamples, a negative seed reaching numpy, a port past 65535 reaching
``socket.bind``, a ``--gain`` that wrote ``inf`` rewards. The guard test walks every
command's parser, so an option added later with a bare ``type=int`` fails here.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.cli import COMMANDS, command_parser
from sylla.commands.bounds import COUNT_MAX
from sylla.grammar.syllabus.schedule import MAX_EPISODES

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SYLLABUS = ROOT / "examples" / "cl-pong.json"
SWEEP = ROOT / "tests" / "fixtures" / "compare" / "sweep"
BIG = "1" + "0" * 5000  # past Python's 4,300-digit int() limit


def sylla(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


@pytest.mark.parametrize("args, option", [
    (["explain", str(SYLLABUS), "--workers", "1000000000"], "--workers"),
    (["explain", str(SYLLABUS), "--workers", BIG], "--workers"),
    (["explain", str(SYLLABUS), "--worker", "-1"], "--worker"),
    (["compare", str(SWEEP), "--reps", "1000000000000"], "--reps"),
    (["compare", str(SWEEP), "--seed", "-3"], "--seed"),
    (["compare", str(SWEEP), "--gamma", "nan"], "--gamma"),
    (["simulate", str(SYLLABUS), "-o", "out.csv", "--seed", "-1"], "--seed"),
    (["simulate", str(SYLLABUS), "-o", "out.csv", "--gain", "1e308"], "--gain"),
    (["simulate", str(SYLLABUS), "-o", "out.csv", "--noise", "inf"], "--noise"),
    (["simulate", str(SYLLABUS), "-o", "out.csv", "--forgetting", "1.5"], "--forgetting"),
    (["new", "--type", "CL", "--task", "Pong", "-o", "out.json", "--episodes", "10000000000000"], "--episodes"),
    (["sweep", str(SWEEP), "--jobs", "1000000000", "--out", "out"], "--jobs"),
    (["watch", "out", "--port", "99999"], "--port"),
])
def test_an_out_of_range_number_is_refused_before_any_work(args: list[str], option: str, tmp_path: Path) -> None:
    p = sylla(*args, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert f"argument {option}" in p.stderr and ": wants " in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr) < 2000  # the value is shown cut, not as 5,000 digits
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_every_number_option_of_every_command_declares_its_range() -> None:
    bare = []
    for name in COMMANDS:
        parser = command_parser(name)
        if parser is None:
            continue
        for action in parser._actions:  # argparse keeps no public list of a parser's options
            if action.type in (int, float):
                bare.append(f"sylla {name} {'/'.join(action.option_strings) or action.dest}")
    # ``lsp --port`` checks its range itself (with --tcp HOST:PORT's port), in sylla/commands/lsp.py
    assert bare == ["sylla lsp --port"]


def test_the_count_bound_of_sylla_new_is_the_linters() -> None:
    assert COUNT_MAX == MAX_EPISODES


def test_a_value_in_range_passes_through_unchanged() -> None:
    parser = argparse.ArgumentParser()
    from sylla.commands.bounds import integer, real

    parser.add_argument("--n", type=integer(1, 10))
    parser.add_argument("--x", type=real(0, 1))
    ns = parser.parse_args(["--n", "10", "--x", "0.5"])
    assert (ns.n, ns.x) == (10, 0.5)
