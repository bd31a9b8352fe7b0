"""``sylla explain FILE``: phases, blocks, episode ranges, learning and the syllabus type."""

from __future__ import annotations

import argparse
import json
import sys

from sylla.commands.common import read_source, print_core_diagnostics


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="show the schedule of a syllabus and its inferred type")
    p.add_argument("file", help="syllabus file ('-' reads standard input)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="split blocks across K parallel workers")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.grammar.explain import explain, render_text
    from sylla.grammar.parse import parse

    if args.workers < 1:
        print("sylla: --workers must be at least 1", file=sys.stderr)
        return 2
    from sylla.commands.birds_cli import explain_birds, explain_folder, is_folder

    if is_folder(args.file):
        return explain_folder(args.file, args.format)
    source = read_source(args.file)
    if source is None:
        return 2
    name, data = source
    handled = explain_birds(name, data, args.format)  # None: not a Science Birds config
    if handled is not None:
        return handled
    result = parse(data, name)
    print_core_diagnostics(result, name)
    if result.model is None or not result.syntax_ok:
        return 1  # a schedule read from a repaired text would mislead
    doc = explain(result.model, args.workers)
    if args.format == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(doc))
    return 0 if result.ok else 1
