"""``sylla lint [PATH ...]``: lint syllabi, report, optionally fix.

Exit codes: 0 clean (nothing at or above ``--fail-on``), 1 findings, 2 usage, config or I/O
error. Only the standard library is imported at registration; the linter loads on run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Iterator

SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


def register(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("lint", help="check syllabi against the phase, type and hygiene rules")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .); - reads stdin")
    p.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    p.add_argument("--diff", action="store_true", help="show the fixes as a diff without writing")
    p.add_argument("--fail-on", choices=("error", "warning", "info"), default="warning", help="lowest severity that fails (default: warning)")
    p.add_argument("--profile", choices=("l2m", "pretest"))
    p.add_argument("--type", choices=("CL", "ANT-A", "ANT-B", "ANT-C"))
    p.add_argument("--select", help="comma-separated codes or prefixes to run")
    p.add_argument("--ignore", help="comma-separated codes or prefixes to skip")
    p.add_argument("--registry", help="task registry (TOML or JSON)")
    p.add_argument("--config", help="use this sylla.toml/pyproject.toml instead of discovery")
    p.add_argument("--stdin-filename", help="name to report for - (and to find the config from)")
    p.set_defaults(run=run)


def discover(paths: list[str]) -> Iterator[str]:
    """Files as given; folders searched for *.json/*.jsonc files that hold ``instructions``."""
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
            for name in sorted(files):
                if name.endswith((".json", ".jsonc")):
                    full = os.path.join(root, name)
                    try:
                        with open(full, "rb") as fh:
                            if b'"instructions"' in fh.read():
                                yield full
                    except OSError:
                        continue


def _overrides(args: argparse.Namespace) -> dict:
    split = lambda s: [c.strip() for c in s.split(",") if c.strip()] if s else None  # noqa: E731
    return {
        "profile": args.profile, "type": args.type, "select": split(args.select),
        "ignore": split(args.ignore), "registry": args.registry,
    }


def run(args: argparse.Namespace) -> int:
    from sylla.linter import ConfigError, lint, load_config
    from sylla.linter.fixes import fix_until_stable
    from sylla.linter.reporters import FileReport, get
    from sylla.linter.write import encode_like, write_text

    from .common import read_source

    reports: list[FileReport] = []
    status = 0
    threshold = SEVERITY_RANK[args.fail_on]
    configs: dict[str, object] = {}
    for path in discover(args.paths):
        source = read_source(path, args.stdin_filename)
        if source is None:
            status = 2
            continue
        name, data = source
        where = args.config or (args.stdin_filename if path == "-" else path)
        key = str(Path(where).resolve().parent) if where and not args.config else str(args.config)
        try:
            if key not in configs:
                configs[key] = load_config(where, _overrides(args))
            config = configs[key]
            result = lint(data, name, config)  # type: ignore[arg-type]
            if args.fix or args.diff:
                text = result.text
                relint = lambda t: lint(t, name, config).findings  # type: ignore[arg-type]  # noqa: E731
                fixed = fix_until_stable(text, relint) if result.parse.syntax_ok else text
                if path == "-" and args.fix and not args.diff:
                    sys.stdout.buffer.write(data if fixed == text else encode_like(data, fixed))  # always, as ruff
                    sys.stdout.flush()
                if fixed != text:
                    if args.diff:
                        _print_diff(name, text, fixed)
                    elif path != "-":
                        write_text(path, data, fixed)
                    result = lint(fixed, name, config)  # type: ignore[arg-type]
        except ConfigError as exc:
            print(f"sylla: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"sylla: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            status = 2
            continue
        reports.append(FileReport(name, result))
    unread_and_clean = status == 2 and not any(r.result.findings for r in reports)
    if args.format == "text" and unread_and_clean:
        pass  # "All checks passed" would be false: a file could not be read (said on stderr)
    elif not args.diff or args.format != "text":
        out = get(args.format)(reports)
        # with the fixed text on stdout (as ruff does), what is left to fix goes to stderr
        (sys.stderr if args.fix and "-" in args.paths else sys.stdout).write(out)
    if status:
        return status
    failing = any(SEVERITY_RANK[f.severity.value] >= threshold for r in reports for f in r.result.findings)
    return 1 if failing else 0


def _print_diff(name: str, before: str, after: str) -> None:
    import difflib

    sys.stdout.writelines(
        difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{name}", f"b/{name}")
    )
