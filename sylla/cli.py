"""The ``sylla`` command line: a thin dispatcher over one module per subcommand.

Each subcommand lives in ``sylla/commands/<name>.py`` and provides ``register(subparsers)``;
the module may import only the standard library at import time, so that start-up stays fast
(heavy libraries are imported inside the command's run function).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

# Order is the order of ``sylla --help``.
COMMANDS = ("explain", "lint", "fmt", "rules", "rule", "lsp", "metrics")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on usage errors, which is our usage exit code too."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"sylla: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from sylla import __version__

    parser = _Parser(prog="sylla", description="Author, lint and measure lifelong-learning syllabi.")
    parser.add_argument("--version", action="version", version=f"sylla {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"sylla.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"sylla.commands.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
