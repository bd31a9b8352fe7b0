"""The ``sylla`` command line: a thin dispatcher over two modules per subcommand.

A subcommand's options are ``sylla/commands/<name>_options.py``: ``register(subparsers)`` adds
its parser, and ``EXIT_CODES`` its exit-code table. Those modules import only the standard
library (and ``sylla.metrics.readers``' format names, which are standard library too), so that
``sylla --help`` and the parse of every command stay fast. What the command does is
``sylla/commands/<name>.py``, which imports what it needs at its top and provides
``run(args) -> exit code``: `main` imports it, by name, once the arguments have parsed
(`command_body`), the one place a command's work is loaded late.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

from sylla.kit.gc_pause import paused_gc
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.version import __version__
from sylla.suggest import NATIVE_SUGGESTIONS, unrecognized_message, with_choice_hint

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, NoReturn, Sequence

# Order is the order of ``sylla --help``.
COMMANDS = ("new", "explain", "lint", "fmt", "rules", "rule", "lsp", "metrics", "simulate", "run", "sweep", "compare", "watch", "report")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

#: exit codes of the subcommands whose module does not declare ``EXIT_CODES`` itself
EXIT_CODES: dict[str, tuple[tuple[int, str], ...]] = {
    "fmt": (
        (0, "nothing to change, or the files were rewritten"),
        (1, "--check or --diff found files to reformat"),
        (2, "syntax errors, usage error, or a file that cannot be read or written"),
    ),
    "lsp": ((0, "the server shut down because the client asked it to"), (2, "usage error (e.g. a bad --tcp address)")),
    "metrics": (
        (0, "the metrics were computed"),
        (1, "bad input: a log or syllabus that cannot be read, aligned or measured (the message names file and row)"),
        (2, "usage error, or a file that cannot be read"),
    ),
}


class HelpFormatter(argparse.HelpFormatter):
    """Show each option's default (as argparse.ArgumentDefaultsHelpFormatter does) where a
    default exists and the help does not already say it; flags and unset options have none.
    Paragraphs with indented lines (the exit-code tables) keep their layout."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        # argparse imports shutil (and with it zlib, bz2, lzma) for the width, in every
        # formatter, and it makes one per add_argument: a tenth of `sylla lint`'s start-up
        # on one small file went to building parsers (issue 24)
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        unset = default is None or isinstance(default, bool) or default == [] or default is argparse.SUPPRESS
        if "%(default)" in text or "default" in text.lower() or unset or (
            not action.option_strings and action.nargs not in ("?", "*")
        ):
            return text
        return text + " (default: %(default)s)"

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text
        out = []
        for p in text.split("\n\n"):
            out.append(p if any(line.startswith("  ") for line in p.splitlines()) else fill(p, width, indent))
        return "\n\n".join(out)


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``$COLUMNS``, else the terminal's, else 80)
    without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0 and stdout is not None:
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def command_exit_codes(name: str, module: object) -> tuple[tuple[int, str], ...] | None:
    """A subcommand's exit codes: its module's ``EXIT_CODES``, else the table above."""
    return getattr(module, "EXIT_CODES", None) or EXIT_CODES.get(name)


def exit_codes_epilog(codes: tuple[tuple[int, str], ...]) -> str:
    import textwrap  # noqa: PLC0415 - lazy: start-up, textwrap loads only when help is shown (issue 24)

    return "exit codes:\n" + "\n".join(
        textwrap.fill(meaning, width=78, initial_indent=f"  {code}  ", subsequent_indent="     ")
        for code, meaning in codes
    )


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on usage errors, which is our usage exit code too. A misspelt
    command, option or choice gets "did you mean" (see `sylla.suggest`). The exit-code table
    joins the epilog when help is formatted, not when the parser is built (issue 24)."""

    #: the exit codes ``format_help`` appends to the epilog
    exit_codes: tuple[tuple[int, str], ...] = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        if NATIVE_SUGGESTIONS:
            kwargs.setdefault("suggest_on_error", True)
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # argparse.ArgumentParser's keyword types, passed through unchanged

    def format_help(self) -> str:
        if self.exit_codes:
            self.epilog = (self.epilog + "\n\n" if self.epilog else "") + exit_codes_epilog(self.exit_codes)
            self.exit_codes = ()
        return super().format_help()

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]  # typeshed overloads parse_args by namespace type; this parser returns a Namespace
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but unknown arguments are reported by the parser of the command they
        were typed after, so the usage shown and the options suggested are that command's."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            target = self._command_parser(parsed) or self
            target.error(unrecognized_message(extras, target))
        return parsed

    def _command_parser(self, parsed: argparse.Namespace) -> argparse.ArgumentParser | None:
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return action.choices.get(getattr(parsed, action.dest or "", None) or "")
        return None

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"sylla: {with_choice_hint(message)}\n")


class _OneCommand:
    """What a command's ``register`` is given when only that command is parsed: ``add_parser``
    makes the command's own parser as the subcommands action would (the same ``prog``, class
    and keywords), without the top-level parser around it."""

    def __init__(self) -> None:
        self.choices: dict[str, argparse.ArgumentParser] = {}

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        kwargs.pop("help", None)  # the top-level listing's line, not the command's
        kwargs.setdefault("prog", f"sylla {name}")
        parser = self.choices[name] = _Parser(**kwargs)
        return parser


def command_options(name: str) -> ModuleType | None:
    """The module of subcommand ``name``'s options; None when that command is not installed (an
    extra left out)."""
    module = f"sylla.commands.{name}_options"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


def command_body(name: str) -> ModuleType:
    """The module that runs subcommand ``name`` (``run(args)``). Its imports only allocate (the
    modules live as long as the process), so the cyclic garbage collector is paused while they
    load: its passes walked every young object over and over to free nothing (issue 24)."""
    with paused_gc():
        return importlib.import_module(f"sylla.commands.{name}")


def command_parser(name: str) -> argparse.ArgumentParser | None:
    """The parser of one subcommand alone, for its arguments after the name (what `main` builds
    when the first argument names a command: importing and building the other subcommands'
    parsers was a tenth of ``sylla metrics``' start-up, and the top-level parser around it 2M
    instructions of a small ``sylla lint``; issue 24). None: that command is not installed."""
    return _register(name, _OneCommand())


def _register(name: str, sub: Any) -> argparse.ArgumentParser | None:
    """Import subcommand ``name``'s options and add its parser to ``sub`` (subparsers), laid out
    with its exit codes; None when that command is not installed (an extra left out)."""
    module = command_options(name)
    if module is None:
        return None
    module.register(sub)
    command = sub.choices.get(name)
    if command is not None:
        _finish(command, name, module)
    return command


def _finish(command: argparse.ArgumentParser, name: str, module: object) -> None:
    """The help layout and the exit-code table of a subcommand's parser."""
    command.formatter_class = HelpFormatter
    codes = command_exit_codes(name, module)
    if codes:
        if isinstance(command, _Parser):
            command.exit_codes = codes
        else:
            command.epilog = (command.epilog + "\n\n" if command.epilog else "") + exit_codes_epilog(codes)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (``sylla --help``, the docs; `command_parser` builds one command)."""
    parser = _Parser(
        prog="sylla", description="Author, lint and measure lifelong-learning syllabi.",
        formatter_class=HelpFormatter,
        epilog="Run 'sylla COMMAND --help' for a command's options and exit codes.",
    )
    parser.exit_codes = ((0, "success"), (1, "findings or bad input (see each command)"), (2, "usage or I/O error"))
    parser.add_argument("--version", action="version", version=f"sylla {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        _register(name, sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Without ``argv`` (the ``sylla`` console script, ``python -m sylla``)
    the process ends when this returns, and the objects it made are frozen out of the garbage
    collector first: the collection the interpreter runs at exit would walk every one of them
    to find no garbage worth freeing, a tenth of `sylla lint` on a small file (issue 24). An
    in-process caller (tests, tools) passes ``argv`` and keeps its collector as it was, and its
    BLAS threads (`_one_blas_thread`)."""
    if argv is None:
        _one_blas_thread()
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    finally:
        if argv is None:
            gc.freeze()


def _one_blas_thread() -> None:
    """One OpenBLAS thread for this process (unless the environment says otherwise), set before
    numpy loads it. sylla spreads its own work over the cores (the CSV parse, the smoothing's
    stretches, the plugin lanes); OpenBLAS's threads, woken by a long dot product, spin beside
    them for nothing: on a 10M-episode log 6 % of the plugins' CPU and 30 MB of buffers, and a
    threaded dot product sums in an order that depends on the number of cores."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _run(argv: Sequence[str]) -> int:
    argv = list(argv)
    command = command_parser(argv[0]) if argv and argv[0] in COMMANDS else None
    parser = command or build_parser()
    args = parser.parse_args(argv[1:] if command is not None else argv)
    name = argv[0] if command is not None else getattr(args, "command", None)
    if not name:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(command_body(name).run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
