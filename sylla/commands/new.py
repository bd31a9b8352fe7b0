"""``sylla new``: write a complete syllabus of a chosen type (see ``sylla.grammar.syllabus.author``).
Its options are in ``new_options``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sylla.grammar.syllabus.author import AuthorError, Spec, build, parse_vary
from sylla.grammar.syllabus.explain import explain, render_text
from sylla.grammar.syllabus.parse import parse
from sylla.kit.atomic import default_mode, replace_file


def run(args: argparse.Namespace) -> int:
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
    result = parse(text, "<new>")
    assert result.model is not None  # build() emits valid syntax
    doc = explain(result.model, 1, 0)
    sys.stdout.write((json.dumps(doc, indent=2, ensure_ascii=False) if fmt == "json" else render_text(doc)) + "\n")
    return 0


def _write(path: str, text: str) -> None:
    """Through a temp file in the same folder and a rename, so a crash never leaves half a file;
    a symlink at ``path`` is followed (its target is written)."""
    target = os.path.realpath(path)
    mode = os.stat(target).st_mode & 0o7777 if os.path.exists(target) else default_mode()
    replace_file(target, lambda tmp: Path(tmp).write_bytes(text.encode("utf-8")), mode=mode)

