"""``sylla new``: write a complete syllabus of a chosen type (see ``sylla.grammar.syllabus.author``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .bounds import COUNT_MAX, integer

EXIT_CODES = (
    (0, "the syllabus was written (or printed, or explained with --dry-run)"),
    (2, "usage error (a bad combination of options), or the output file cannot be written or exists"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "new", help="write a complete syllabus of a given type",
        description="Write a syllabus that lints clean for its type: phases numbered, test phases with "
        "learning off, every ANT-B transfer cell covered, CL and ANT-C with the requested variation. "
        "The output is deterministic and in 'sylla fmt' layout.",
    )
    p.add_argument("--type", required=True, choices=("CL", "ANT-A", "ANT-B", "ANT-C", "STE"),
                   help="the syllabus type (STE: one task, the single-task-expert run)")
    p.add_argument("--task", action="append", default=[], metavar="NAME", required=True,
                   help="a task, in training order (repeat for several tasks)")
    p.add_argument("--episodes", type=integer(1, COUNT_MAX), default=5000, metavar="N", help="episodes of each training block")
    p.add_argument("--test-episodes", type=integer(1, COUNT_MAX), default=100, metavar="M", help="episodes of each test block")
    p.add_argument("--pretest", action="store_true",
                   help="evaluate every task in a 0.test phase before training (lint with profile pretest)")
    p.add_argument("--vary", action="append", default=[], metavar="TASK:PARAM=v1,v2,...",
                   help="values of one parameter of a task (CL: exactly one; ANT-C: at least one)")
    p.add_argument("--module", metavar="M", help="prefix every task as $M:NAME (e.g. l2arcadekit.l2agames)")
    p.add_argument("--style", choices=("info", "enable_updates"), default="info",
                   help='how test phases turn learning off: {"$info": {"disable_updates": true}} ... {"$info": {}}, '
                   'or "enable_updates": false on the $phase')
    p.add_argument("--name", help="the syllabus's name (default: type and tasks)")
    p.add_argument("--author", default="sylla new", help="the syllabus's author field")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--force", action="store_true", help="with -o: overwrite an existing file")
    p.add_argument("--dry-run", action="store_true", help="print 'sylla explain' of the syllabus instead of writing it")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="with --dry-run: the explain format")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.grammar.syllabus.author import AuthorError, Spec, build, parse_vary  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    try:
        spec = Spec(
            type=args.type, tasks=tuple(args.task), episodes=args.episodes, test_episodes=args.test_episodes,
            pretest=args.pretest, vary=tuple(parse_vary(v) for v in args.vary), module=args.module,
            style=args.style, name=args.name, author=args.author,
        )
        text = build(spec)
    except AuthorError as exc:
        print(f"sylla new: error: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        return _explain(text, args.format)
    if not args.output_file or args.output_file == "-":
        sys.stdout.write(text)
        return 0
    if os.path.exists(args.output_file) and not args.force:
        print(f"sylla new: error: {args.output_file} exists; pass --force to overwrite it", file=sys.stderr)
        return 2
    try:
        _write(args.output_file, text)
    except OSError as exc:
        print(f"sylla: cannot write {args.output_file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output_file} ({spec.type})", file=sys.stderr)
    return 0


def _explain(text: str, fmt: str) -> int:
    from sylla.grammar.syllabus.explain import explain, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.grammar.syllabus.parse import parse  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    result = parse(text, "<new>")
    assert result.model is not None  # build() emits valid syntax
    doc = explain(result.model, 1, 0)
    sys.stdout.write((json.dumps(doc, indent=2, ensure_ascii=False) if fmt == "json" else render_text(doc)) + "\n")
    return 0


def _write(path: str, text: str) -> None:
    """Through a temp file in the same folder and a rename, so a crash never leaves half a file;
    a symlink at ``path`` is followed (its target is written)."""
    from sylla.kit.atomic import default_mode, replace_file  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    target = os.path.realpath(path)
    mode = os.stat(target).st_mode & 0o7777 if os.path.exists(target) else default_mode()
    replace_file(target, lambda tmp: Path(tmp).write_bytes(text.encode("utf-8")), mode=mode)

