"""``sylla lint [PATH ...]``: lint syllabi, report, optionally fix.

Exit codes: 0 clean (nothing at or above ``--fail-on``), 1 findings, 2 usage, config or I/O
error. Only the standard library is imported at registration; the linter loads on run.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from sylla.kit.no_typing import TYPE_CHECKING

from .severity import SEVERITY_RANK

if TYPE_CHECKING:
    from typing import Callable, Iterator

    from sylla.linter import Config

#: folders a walk never enters (tool caches, dependencies, VCS data)
SKIP_DIRS = ("node_modules", "__pycache__")


EXIT_CODES = (
    (0, "no finding at or above --fail-on (non-syllabi are skipped without a finding)"),
    (1, "findings at or above --fail-on"),
    (2, "usage error, bad config, or a file that cannot be read or written"),
)


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser(
        "lint", help="check syllabi against the phase, type and hygiene rules",
        description="Lint syllabi: syntax and schema, phase annotations, the rules of the syllabus "
        "type, test hygiene. Only syllabi are linted; other JSON files are skipped.",
    )
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .); - reads stdin")
    p.add_argument("-f", "--format", choices=("text", "json", "sarif", "github"), default="text",
                   help="report format: text for people, json for tools, sarif for code scanning, github for workflow annotations")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    p.add_argument("--diff", action="store_true", help="show the fixes as a diff without writing")
    p.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --diff: also apply the fixes that change the experiment (e.g. T410 adding "
                   "missing transfer-matrix tests); without it they are only offered in the editor")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="warning", help="lowest severity that fails")
    p.add_argument("--profile", choices=("l2m", "pretest"),
                   help="rule profile: l2m follows the reference text; pretest also allows a leading 0.test "
                   "(pre-training evaluation). Default: the config's, else l2m")
    p.add_argument("--type", choices=("CL", "ANT-A", "ANT-B", "ANT-C", "STE"),
                   help="lint every file as this syllabus type (CL, ANT-A/B/C, STE: single-task expert), "
                   "overriding the file's syllabus_type, per-file-types and inference")
    p.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to run (e.g. P3,T401)")
    p.add_argument("--ignore", metavar="CODES", help="comma-separated codes or prefixes to skip")
    p.add_argument("--registry", metavar="FILE", help="task registry (TOML or JSON) for the R7xx rules")
    p.add_argument("--require-metric", action="append", metavar="NAME",
                   help="a metric the syllabus must be able to yield (repeatable; adds to the config's "
                   "metrics = [...]); each one it cannot yield is an M901 finding")
    p.add_argument("--config", metavar="FILE", help="use this sylla.toml/pyproject.toml instead of discovery")
    p.add_argument("--stdin-filename", metavar="NAME",
                   help="with -: the name to report for standard input, and where to look for its config")
    p.add_argument("--trials", metavar="DIR", help="check PATH as a wave-3 delivery folder (predictions.csv, bests.csv, "
                   "samples.csv, description.md) against the trial files in DIR (json/)")
    p.set_defaults(run=run)


def _config_loader(config_path: str | None, overrides: dict | None = None) -> Callable[[str], "Config"]:
    """A cached ``path -> Config``: the ``--config`` file for every path, else the nearest
    sylla.toml/pyproject.toml of the path's folder (raises ``ConfigError``)."""
    from sylla.linter import load_config  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    cache: dict[str, "Config"] = {}

    def config_for(path: str) -> "Config":
        key = str(config_path) if config_path else str(Path(path).resolve().parent)
        if key not in cache:
            cache[key] = load_config(config_path or path, overrides)
        return cache[key]

    return config_for


def config_file_problem(path: str | None) -> str | None:
    """Why ``--config PATH`` cannot be used (a usage error, exit 2), or None: a config that is
    silently ignored is a set of rules that silently does not apply."""
    if path is None:
        return None
    if os.path.isdir(path):
        return f"--config {path}: is a directory; name a sylla.toml or pyproject.toml"
    if not os.path.isfile(path):
        return f"--config {path}: no such file"
    if not path.endswith(".toml"):
        return f"--config {path}: not a TOML file; name a sylla.toml or pyproject.toml"
    return None


def _default_config(path: str) -> "Config":
    from sylla.linter import Config, ConfigError, load_config  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    try:
        return load_config(path)
    except ConfigError:
        return Config()


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
    from sylla.linter import ConfigError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.languages import language_of, wants_file  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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


def _special(path: str) -> bool:
    """Whether ``path`` exists and is not a regular file (after links): a FIFO, socket or
    device, which reads once, or blocks until a writer comes."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False  # missing, unreadable or a link loop: the caller's read says which


def _overrides(args: argparse.Namespace) -> dict:
    split = lambda s: [c.strip() for c in s.split(",") if c.strip()] if s else None
    return {
        "profile": args.profile, "type": args.type, "select": split(args.select),
        "ignore": split(args.ignore), "registry": args.registry,
        "require-metric": args.require_metric,
    }


def run(args: argparse.Namespace) -> int:
    """Lint, fix and report with the cyclic garbage collector paused: the start-up's imports
    made it walk every young object eight times on a small file (3M instructions, issue 24),
    to free nothing, and the engine pauses it for each file's parse and rules anyway. Every
    file's result is kept for the report, so a long run holds what it would hold regardless."""
    from sylla.kit.gc_pause import paused_gc  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    with paused_gc():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from sylla.linter import ConfigError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.languages import encode_fixed, language_of  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.languages import lint_text as lint  # every language, by content  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.linter.reporters import FileReport, writer  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    from .common import read_source  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if getattr(args, "trials", None):
        from .trials_cli import lint_deliveries  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        return lint_deliveries(args)
    reports: list[FileReport] = []
    status = 0
    threshold = SEVERITY_RANK[args.fail_on]
    problem = config_file_problem(args.config)
    if problem:
        print(f"sylla: {problem}", file=sys.stderr)
        return 2
    config_for = _config_loader(args.config, _overrides(args))
    logs: list[str] = []
    for path in discover(args.paths, config_for, logs):
        source = read_source(path, args.stdin_filename)
        if source is None:
            status = 2
            continue
        name, data = source
        where = (args.stdin_filename or os.path.join(os.getcwd(), "<stdin>")) if path == "-" else path
        try:
            config = config_for(where)
            if path == "-" and language_of(where, data, config) is None:  # the one decision discover asks too
                if args.fix:
                    sys.stdout.buffer.write(data)  # the input passes through unchanged
                continue
            result = lint(data, name, config)
            if args.fix or args.diff:
                from sylla.linter.fixes import fix_all  # noqa: PLC0415 - lazy: start-up, the fix loop loads only with --fix/--diff (issue 24)
                from sylla.linter.write import write_bytes  # noqa: PLC0415 - lazy: start-up, the writer loads only with --fix/--diff (issue 24)

                text = result.text
                # each round lints the bytes it would write, not the text: what is written is
                # encoded as the file was (a BOM, a config's declared encoding), and findings
                # on those bytes (N601 on a BOM, B803) belong in the report and the exit code,
                # which a fresh lint of the file gives (issue 38)
                relint = lambda t, name=name, config=config, language=result.language, data=data: lint(
                    encode_fixed(data, t, language), name, config, language=language)
                safe_only = not args.unsafe_fixes
                loop = fix_all(result, relint, unsafe=args.unsafe_fixes)
                fixed = loop.text
                if path == "-" and args.fix and not args.diff:
                    sys.stdout.buffer.write(data if fixed == text else encode_fixed(data, fixed, result.language))  # always, as ruff
                    sys.stdout.flush()
                if fixed != text:
                    if args.diff:
                        print_diff(name, text, fixed)
                    elif path != "-":
                        write_bytes(path, encode_fixed(data, fixed, result.language))
                    result = loop.result  # the lint of the fixed text
                if safe_only:  # the findings of the fixed text: no second lint for this count
                    unsafe = sum(1 for f in result.findings if f.fix is not None and not f.fix.safe)
                    if unsafe:
                        print(f"sylla: {name}: {unsafe} unsafe fix{'es' if unsafe > 1 else ''} not applied "
                              "(they change the experiment; add --unsafe-fixes)", file=sys.stderr)
        except ConfigError as exc:
            print(f"sylla: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"sylla: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            status = 2
            continue
        reports.append(FileReport(name, result))
    if logs and not reports:
        return 2  # only logs were given: "try sylla metrics" was said, nothing was checked
    unread_and_clean = status == 2 and not any(r.result.findings for r in reports)
    if args.format == "text" and unread_and_clean:
        pass  # "All checks passed" would be false: a file could not be read (said on stderr)
    elif not args.diff or args.format != "text":
        write = writer(args.format)  # finding by finding: a report is never held whole (issue 38)
        if args.output_file:
            try:
                with open(args.output_file, "w", encoding="utf-8") as fh:
                    write(reports, fh)
            except OSError as exc:
                print(f"sylla: cannot write {args.output_file}: {exc.strerror or exc}", file=sys.stderr)
                return 2
        else:
            # with the fixed text on stdout (as ruff does), what is left to fix goes to stderr
            write(reports, sys.stderr if args.fix and "-" in args.paths else sys.stdout)
    if status:
        return status
    failing = any(SEVERITY_RANK[f.severity.value] >= threshold for r in reports for f in r.result.findings)
    return 1 if failing else 0


def print_diff(name: str, before: str, after: str) -> None:
    import difflib  # noqa: PLC0415 - lazy: start-up, difflib loads only for --diff (issue 24)

    sys.stdout.writelines(
        difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{name}", f"b/{name}")
    )
