"""Helpers shared by the subcommands: reading input and printing core diagnostics."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sylla.grammar.parse import ParseResult


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
