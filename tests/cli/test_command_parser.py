"""``sylla COMMAND ...`` is parsed by that command's parser alone (``cli.command_parser``, no
top-level parser around it: start-up, issue 24); it must read and say everything as the
command's parser inside the whole command line does."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from sylla.cli import COMMANDS, build_parser, command_parser, main


def _inside_whole_line(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command: argparse.ArgumentParser = sub.choices[name]
    return command


@pytest.mark.parametrize("name", COMMANDS)
def test_help_and_usage_are_those_of_the_whole_line(name: str) -> None:
    alone, inside = command_parser(name), _inside_whole_line(name)
    assert alone is not None
    assert alone.prog == inside.prog == f"sylla {name}"
    assert alone.format_help() == inside.format_help()
    assert alone.format_usage() == inside.format_usage()
    options = lambda p: [(a.dest, a.option_strings, a.default, a.nargs, a.choices) for a in p._actions]
    assert options(alone) == options(inside)
    assert alone._defaults == inside._defaults


def _run(argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code: object = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [
    ["lint", "--bogus"], ["lint", "--format", "jsn", "x"], ["lint", "-f"], ["lint", "--version"],
    ["metrics", "--no-such-option"], ["rule"], ["explain", "--workers", "x"],
])
def test_errors_are_those_of_the_whole_line(argv: list[str]) -> None:
    """The same exit code and message as when the top-level parser hands the arguments on."""
    code, out, err = _run(argv)
    parser = build_parser()
    whole_err = io.StringIO()
    with contextlib.redirect_stderr(whole_err), pytest.raises(SystemExit) as exc:
        parser.parse_args(argv)
    assert (code, out, err) == (exc.value.code, "", whole_err.getvalue())
