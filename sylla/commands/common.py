"""Helpers shared by the subcommands: reading input and printing core diagnostics."""

from __future__ import annotations

import os
import sys

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sylla.grammar.syllabus.parse import ParseResult


def read_source(path: str, stdin_name: str | None = None) -> tuple[str, bytes] | None:
    """The display name and bytes of a file (``-`` is standard input), or None after
    printing ``sylla: cannot read X: reason``."""
    if path == "-":
        return stdin_name or "<stdin>", sys.stdin.buffer.read()
    try:
        with open(path, "rb") as fh:
            return path, fh.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if os.path.isdir(path):
            reason = "Is a directory"
        print(f"sylla: cannot read {path}: {reason}", file=sys.stderr)
        return None


def print_core_diagnostics(result: "ParseResult", name: str) -> None:
    """``path:line:col: message`` for each syntax, encoding and schema problem."""
    lines = result.lines
    for d in result.diagnostics:
        line, col = lines.line_col(d.span.start)
        print(f"{name}:{line}:{col}: {d.severity.value}: {d.message}", file=sys.stderr)


def metric_params(items: list[str]) -> dict[str, str]:
    """The ``-P NAME=VALUE`` options of sylla metrics, watch and sweep as a dict (the last
    of a repeated name wins); a malformed one is a usage error, not a traceback."""
    from sylla.metrics.errors import EXIT_USAGE, MetricsError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise MetricsError(f"--param wants NAME=VALUE, got {item!r}", exit_code=EXIT_USAGE)
        params[name.strip()] = value.strip()
    return params
