"""A misspelt command, option or choice gets "did you mean" (sylla.suggest), through the real
console entry point, and the usage shown is the command's own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sylla.suggest import NATIVE_SUGGESTIONS, with_choice_hint


def sylla(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sylla", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "guess"), [
    (("lnit", "x.json"), "'lint'"),
    (("metrics", "--sylabus", "s.json", "log.csv"), "--syllabus"),
    (("lint", "--fial-on", "error", "x.json"), "--fail-on"),
    (("lint", "-f", "jsn", "x.json"), "'json'"),
    (("--verison",), "--version"),
])
def test_misspelling_gets_did_you_mean(args: tuple[str, ...], guess: str) -> None:
    proc = sylla(*args)
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert guess in last and ("did you mean" in last or "maybe you meant" in last), proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_option_shows_the_commands_usage() -> None:
    proc = sylla("metrics", "--sylabus", "s.json", "log.csv")
    assert proc.stderr.startswith("usage: sylla metrics"), proc.stderr


def test_nothing_close_gets_no_guess() -> None:
    proc = sylla("lint", "--zzzzqqq", "x.json")
    assert proc.returncode == 2
    assert "unrecognized arguments: --zzzzqqq" in proc.stderr and "did you mean" not in proc.stderr


def test_a_message_argparse_already_completed_is_left_alone() -> None:
    native = "argument COMMAND: invalid choice: 'lnit', maybe you meant 'lint'? (choose from 'lint', 'fmt')"
    assert with_choice_hint(native) == native


def test_python_314_uses_argparse_suggestions() -> None:
    from sylla.cli import build_parser

    parser = build_parser()
    assert getattr(parser, "suggest_on_error", False) is NATIVE_SUGGESTIONS
