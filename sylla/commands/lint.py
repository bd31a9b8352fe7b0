"""``sylla lint [PATH ...]``: lint syllabi, report, optionally fix; with ``--trials``, check
wave-3 delivery folders. Its options are in ``lint_options``.

Exit codes: 0 clean (nothing at or above ``--fail-on``), 1 findings, 2 usage, config or I/O
error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from sylla.kit.gc_pause import paused_gc
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.linter import Config, ConfigError, load_config
from sylla.linter.languages import encode_fixed, language_of
from sylla.linter.languages import lint_text as lint  # every language, by content
from sylla.linter.reporters import FileReport, get, writer
from sylla.linter.write import write_bytes

from .files import discover, print_diff, read_source

if TYPE_CHECKING:
    from typing import Callable

#: ``--fail-on`` levels
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


def _config_loader(config_path: str | None, overrides: dict | None = None) -> Callable[[str], "Config"]:
    """A cached ``path -> Config``: the ``--config`` file for every path, else the nearest
    sylla.toml/pyproject.toml of the path's folder (raises ``ConfigError``)."""
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


def _overrides(args: argparse.Namespace) -> dict:
    split = lambda s: [c.strip() for c in s.split(",") if c.strip()] if s else None
    return {
        "profile": args.profile, "type": args.type, "select": split(args.select),
        "ignore": split(args.ignore), "registry": args.registry,
        "require-metric": args.require_metric,
    }


def run(args: argparse.Namespace) -> int:
    """Lint, fix and report with the cyclic garbage collector paused, as it was while this
    module's imports loaded (`sylla.cli`): it walked every young object eight times on a small
    file (3M instructions, issue 24), to free nothing, and the engine pauses it for each file's
    parse and rules anyway. Every file's result is kept for the report, so a long run holds
    what it would hold regardless."""
    with paused_gc():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    reports: list[FileReport] = []
    status = 0
    threshold = SEVERITY_RANK[args.fail_on]
    problem = config_file_problem(args.config)
    if problem:
        print(f"sylla: {problem}", file=sys.stderr)
        return 2
    config_for = _config_loader(args.config, _overrides(args))
    if getattr(args, "trials", None):
        return lint_deliveries(args, config_for)
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


def lint_deliveries(args: argparse.Namespace, config_for: Callable[[str], "Config"]) -> int:
    """``sylla lint DELIVERY_DIR ... --trials json/``: each PATH is a delivery folder, each of its
    files linted with the config of its path (``--select``, ``--ignore``, severities)."""
    from sylla.linter.deliveries import check_delivery  # noqa: PLC0415 - lazy: start-up, the delivery check loads only with --trials

    if not os.path.isdir(args.trials):
        print(f"sylla: --trials {args.trials}: not a folder of trial files (json/)", file=sys.stderr)
        return 2
    reports: list = []
    unread = False
    for folder in args.paths:
        if not os.path.isdir(folder):
            print(f"sylla: {folder}: with --trials, each PATH is a delivery folder", file=sys.stderr)
            return 2
        try:
            results, trial_errors = check_delivery(folder, args.trials, config_for)
        except ConfigError as exc:
            print(f"sylla: {exc}", file=sys.stderr)
            return 2
        for e in trial_errors:
            print(f"sylla: trial file: {e}", file=sys.stderr)
        unread = unread or bool(trial_errors)
        reports.extend(FileReport(path, result) for path, result in results)
    out = get(args.format)(reports)
    if args.output_file:
        Path(args.output_file).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    threshold = SEVERITY_RANK[args.fail_on]
    failed = any(SEVERITY_RANK[f.severity.value] >= threshold for r in reports for f in r.result.findings)
    return 1 if failed or unread else 0  # a trial file that could not be read left rows unchecked
