"""Every subcommand's --help describes every option, shows defaults, lists its exit codes, and
the short options mean the same thing everywhere."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sylla.cli import build_parser

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


COMMANDS = sorted(_subcommands())


def test_all_commands_are_covered() -> None:
    assert {"lint", "explain", "fmt", "rules", "rule", "lsp", "metrics"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_described(name: str) -> None:
    parser = _subcommands()[name]
    undocumented = [a.option_strings or [a.dest] for a in parser._actions if not (a.help or "").strip()]
    assert undocumented == []


@pytest.mark.parametrize("name", COMMANDS)
def test_help_lists_exit_codes(name: str) -> None:
    text = _subcommands()[name].format_help()
    codes = re.findall(r"^  ([0-9])  \S", text.split("exit codes:")[-1], re.M)
    assert "exit codes:" in text and "0" in codes and "2" in codes, text


@pytest.mark.parametrize("name", COMMANDS)
def test_defaults_are_shown(name: str) -> None:
    parser = _subcommands()[name]
    text = " ".join(parser.format_help().split())  # unwrap
    for action in parser._actions:
        default = action.default
        if not action.option_strings or default is None or isinstance(default, bool) or default in ([], argparse.SUPPRESS):
            continue
        assert f"default: {default}" in text or f"(default: {default})" in text, (name, action.dest)


@pytest.mark.parametrize("name", COMMANDS)
def test_short_options_are_consistent(name: str) -> None:
    meaning = {"-f": ("--format",), "-o": ("--output-file", "--out")}
    for action in _subcommands()[name]._actions:
        for short, longs in meaning.items():
            if short in action.option_strings:
                assert any(o in action.option_strings for o in longs), (name, action.option_strings)
        if "--format" in action.option_strings:
            assert "-f" in action.option_strings, name


def test_help_through_the_console_script() -> None:
    proc = subprocess.run([sys.executable, "-m", "sylla", "lint", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    out = " ".join(proc.stdout.split())
    assert "--profile {l2m,pretest} rule profile" in out and "STE: single-task expert" in out
    assert "lowest severity that fails (default: warning)" in out
    assert "1 findings at or above --fail-on" in out


def test_output_file_option(tmp_path: Path) -> None:
    from sylla.cli import main

    target = tmp_path / "report.json"
    assert main(["lint", "-f", "json", "-o", str(target), str(FIX / "N602_bad.json")]) == 1
    assert [i["code"] for i in json.loads(target.read_text())] == ["N602"]
    explained = tmp_path / "explain.json"
    assert main(["explain", "-f", "json", "-o", str(explained), str(FIX / "good.json")]) == 0
    assert json.loads(explained.read_text())["type"] == "CL"
