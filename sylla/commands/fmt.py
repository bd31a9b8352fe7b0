"""``sylla fmt [PATH ...] [--check] [--diff]``: the canonical layout, the same code the
language server formats with. Exit 0 when nothing changes (or was rewritten), 1 when
``--check``/``--diff`` finds files to reformat, 2 on syntax or I/O errors. Its options are in
``fmt_options``."""

from __future__ import annotations

import argparse
import sys

from sylla.linter import format_text
from sylla.linter.languages import content_language, spec_for
from sylla.linter.write import write_text

from .files import discover, print_diff, read_source


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in discover(args.paths):
        source = read_source(path, args.stdin_filename)
        if source is None:
            status = 2
            continue
        name, data = source
        unformatted = spec_for(content_language(data)).unformatted  # by content alone, as the printer reads it
        if unformatted is not None:
            print(f"sylla: {name}: {unformatted} is not formatted by sylla; left as is", file=sys.stderr)
            continue
        try:
            text = data.decode("utf-8")  # not utf-8-sig: a BOM is kept, and compared, as text
        except UnicodeDecodeError:
            print(f"sylla: {name}: not UTF-8; not formatted", file=sys.stderr)
            status = 2
            continue
        formatted = format_text(text)
        if formatted is None:
            print(f"sylla: {name}: has syntax errors (see sylla lint); not formatted", file=sys.stderr)
            status = 2
            continue
        if path == "-" and not (args.check or args.diff):
            _stdout(formatted.encode("utf-8"))
            continue
        if formatted == text:
            continue
        if args.diff:
            print_diff(name, text, formatted)
            status = max(status, 1)
        elif args.check:
            print(f"would reformat {name}")
            status = max(status, 1)
        else:
            try:
                write_text(path, data, formatted)
            except OSError as exc:
                print(f"sylla: cannot write {name}: {exc.strerror or exc}", file=sys.stderr)
                status = 2
                continue
            print(f"reformatted {name}", file=sys.stderr)
    return status


def _stdout(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
