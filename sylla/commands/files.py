"""The files ``sylla lint``, ``fmt`` and ``explain`` take: finding them under the paths given,
reading them, and printing what their parser found and what a fix would change."""

from __future__ import annotations

import os
import stat
import sys

from sylla.kit.no_typing import TYPE_CHECKING
from sylla.linter import Config, ConfigError, load_config
from sylla.linter.languages import language_of, wants_file

if TYPE_CHECKING:
    from typing import Callable, Iterator

    from sylla.grammar.syllabus.parse import ParseResult

#: folders a walk never enters (tool caches, dependencies, VCS data)
SKIP_DIRS = ("node_modules", "__pycache__")


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


def discover(paths: list[str], config_for: Callable[[str], "Config"] | None = None,
             logs: list[str] | None = None) -> Iterator[str]:
    """The syllabi among ``paths``: ``-`` as given, files and the ``.json``/``.jsonc`` files of
    folders when ``Config.is_syllabus`` (the one shared decision) says they are syllabi.

    An unreadable file is yielded, so that the caller reports it; a file that is not a syllabus
    is skipped without a finding. When nothing at all is found, stderr says so (as ruff says
    "No Python files found"), because a silent "All checks passed" on an empty set misleads.
    A path that holds no syllabus but is a log gets "this is a log; try sylla metrics" instead,
    and is appended to ``logs`` (so the caller can exit with the usage code).
    """
    config_for = config_for or _default_config
    found = False

    def wanted(full: str) -> bool:
        try:
            with open(full, "rb") as fh:
                data = fh.read()
        except OSError:
            return True  # the caller's read reports why
        try:
            return language_of(full, data, config_for(full)) is not None
        except ConfigError:
            return True  # the caller loads the same config and reports the error

    for path in paths:
        here = False
        if path == "-" or not os.path.isdir(path):
            # a pipe named on the command line (``sylla lint <(gen)``) is read once, by the
            # caller: sniffing it first consumed it, and the file then read as empty
            if path == "-" or _special(path) or wanted(path):
                here = True
                yield path
        else:
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
                for name in sorted(files):
                    # JSON syllabi by content; Science Birds configs by root element
                    if name.lower().endswith((".json", ".jsonc")) or wants_file(name):
                        full = os.path.join(root, name)
                        if _special(full):
                            continue  # a FIFO or device in a tree is no file to lint: opening it waited for ever
                        if wanted(full):
                            here = True
                            yield full
        hint = None
        if not here:
            from .hints import lint_hint  # noqa: PLC0415 - lazy: start-up, the log detector loads only for a path that holds no syllabus (issue 24)

            hint = lint_hint(path)
        if hint:
            print(f"sylla: {hint}", file=sys.stderr)
            if logs is not None:
                logs.append(path)
        found = found or here
    if not found and not (logs and len(logs) == len(paths)):
        shown = ", ".join(paths)
        print(f"sylla: warning: no syllabi found in {shown} (a syllabus is a JSON object whose "
              '"instructions" is a list, or a file with $phase/$repeat/$episode/$dataset/$info directives; '
              "a Science Birds config has a <config_generation> or <evaluation> root)",
              file=sys.stderr)


def _default_config(path: str) -> "Config":
    try:
        return load_config(path)
    except ConfigError:
        return Config()


def _special(path: str) -> bool:
    """Whether ``path`` exists and is not a regular file (after links): a FIFO, socket or
    device, which reads once, or blocks until a writer comes."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False  # missing, unreadable or a link loop: the caller's read says which


def print_diff(name: str, before: str, after: str) -> None:
    import difflib  # noqa: PLC0415 - lazy: start-up, difflib loads only for --diff (issue 24)

    sys.stdout.writelines(
        difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{name}", f"b/{name}")
    )
