"""``sylla explain FILE``: phases, blocks, episode ranges, learning and the syllabus type."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from sylla.commands.bounds import integer
from sylla.commands.common import print_core_diagnostics, read_source

#: the most parallel workers ``--workers`` lays out: each lane is the whole schedule again, so
#: the work and the output grow with workers x blocks (a billion workers ran for hours)
MAX_WORKERS = 1024

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.linter import Config
    from sylla.linter.language import LanguageSpec


EXIT_CODES = (
    (0, "the syllabus parsed cleanly"),
    (1, "syntax or schema errors (printed as path:line:col: message)"),
    (2, "usage error, unreadable file, or a file that is not a syllabus"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain", help="show the schedule of a syllabus and its inferred type",
        description="Print the phases and blocks of a syllabus with their episode ranges, "
        "learning on/off, totals, and the syllabus type with its reason.",
    )
    p.add_argument("file", metavar="FILE", help="syllabus file ('-' reads standard input)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text",
                   help="text: a table for people; json: the stable document tools read (keys are only added)")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the output to FILE instead of standard output")
    p.add_argument("--workers", type=integer(1, MAX_WORKERS), default=1, metavar="K", help="split blocks across K parallel workers")
    p.add_argument("--worker", type=integer(0, MAX_WORKERS - 1), default=0, metavar="I", help="with --workers K: show worker I's schedule (0 .. K-1)")
    p.add_argument("--metrics", action="store_true",
                   help="instead of the schedule: which metrics this syllabus can yield, each 'no' with its reason and "
                   "smallest fix (JSON: {\"metrics\": [{name, feasible, reason, fix, pairs}]})")
    p.add_argument("--ste-task", action="append", default=[], metavar="NAME",
                   help="with --metrics: a task that single-task-expert runs (--ste) will cover (repeatable)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sylla.grammar.syllabus.explain import explain, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.grammar.syllabus.parse import parse  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if not 0 <= args.worker < args.workers:
        print(f"sylla: --worker must be between 0 and {args.workers - 1} (--workers {args.workers})", file=sys.stderr)
        return 2
    if args.file != "-" and os.path.isdir(args.file):
        from sylla.commands.trials_cli import explain_trials_folder  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        handled = explain_trials_folder(args.file, args.format)  # None: no wave-3 trial files
        return handled if handled is not None else explain_folder(args.file, args.format)
    source = read_source(args.file)
    if source is None:
        return 2
    name, data = source
    from sylla.linter.languages import FALLBACK, content_language, spec_for  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    language = content_language(data, None if args.file == "-" else args.file)
    if language != FALLBACK:  # every other language explains itself through its descriptor
        return explain_document(spec_for(language), name, data, args.format)
    config = _config_for(args.file)
    if not config.is_syllabus(None if args.file == "-" else args.file, data):
        print(f"sylla: {name}: not a syllabus (no \"instructions\" list and no $phase, $repeat, "
              "$episode, $dataset or $info directive); nothing to explain", file=sys.stderr)
        return 2
    result = parse(data, name)
    print_core_diagnostics(result, name)
    if result.model is None or not result.syntax_ok:
        return 1  # a schedule read from a repaired text would mislead
    if args.metrics:
        out = _metrics(result.model, name, args)
        if out is None:
            return 2
    else:
        doc = explain(result.model, args.workers, args.worker)
        out = json.dumps(doc, indent=2, ensure_ascii=False) if args.format == "json" else render_text(doc)
    if args.output_file:
        try:
            with open(args.output_file, "w", encoding="utf-8") as fh:
                fh.write(out + "\n")
        except OSError as exc:
            print(f"sylla: cannot write {args.output_file}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(out + "\n")
    return 0 if result.ok else 1


def document(spec: "LanguageSpec[Any, Any]", name: str, data: bytes) -> tuple[Any, str, int]:
    """A file's explain document and text through its language's descriptor, and the exit
    status (1 when the file has errors; no document when its syntax is broken). The core's
    diagnostics go to stderr."""
    result = spec.parse(data, name)
    print_core_diagnostics(result, name)
    if result.model is None or not result.syntax_ok:
        return None, "", 1
    doc, text = spec.explain(result, name)
    return doc, text, 0 if result.ok else 1


def explain_document(spec: "LanguageSpec[Any, Any]", name: str, data: bytes, fmt: str) -> int:
    """``sylla explain FILE`` for a language whose descriptor says it all."""
    doc, text, status = document(spec, name, data)
    if doc is not None:
        _emit(doc, text, fmt)
    return status


def _emit(doc: Any, text: str, fmt: str) -> None:
    if fmt == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(text)


def explain_folder(folder: str, fmt: str) -> int:
    """Explain every file under ``folder`` that sylla reads, each in its language (JSON: a list of documents)."""
    from sylla.linter.languages import content_language, spec_for  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    from .lint import discover  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    docs: list[Any] = []
    texts: list[str] = []
    status = 0
    for path in discover([folder]):
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            print(f"sylla: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
            status = 2
            continue
        doc, text, code = document(spec_for(content_language(data, path)), path, data)
        status = max(status, code)
        if doc is not None:
            docs.append(doc)
            texts.append(text)
    if not docs and status == 0:
        print(f"sylla: {folder}: no syllabus or Science Birds config found", file=sys.stderr)
        return 2
    _emit(docs, "\n\n".join(texts), fmt)
    return status


def _config_for(path: str) -> "Config":
    """The file's config (for its ``syllabi`` globs); the defaults, with a warning, when the
    config is broken (explain does not lint, so a bad rule code there need not stop it)."""
    from sylla.linter import Config, ConfigError, load_config  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    try:
        return load_config(None if path == "-" else path)
    except ConfigError as exc:
        print(f"sylla: warning: {exc}", file=sys.stderr)
        return Config()


def _metrics(model: Syllabus, name: str, args: argparse.Namespace) -> str | None:
    """The feasibility table or its JSON contract; None (after a message) when the metrics
    plugins cannot be loaded (sylla installed without its metrics extra)."""
    try:
        from sylla.metrics.errors import MetricsError  # noqa: PLC0415 - optional dependency: absent without the extra
        from sylla.metrics.feasibility import feasibility, render_text  # noqa: PLC0415 - optional dependency: absent without the extra
    except ImportError as exc:
        print(f"sylla: --metrics needs the metrics extra (pip install 'sylla[metrics]'): {exc}", file=sys.stderr)
        return None
    try:
        results = feasibility(model, ste_tasks=args.ste_task or None)
    except MetricsError as exc:
        print(f"sylla: {exc}", file=sys.stderr)
        return None
    if args.format == "json":
        return json.dumps({"path": name, "metrics": [m.to_json() for m in results]}, indent=2, ensure_ascii=False)
    return render_text(results, name)
