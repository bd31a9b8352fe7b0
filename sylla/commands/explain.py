"""``sylla explain FILE``: phases, blocks, episode ranges, learning and the syllabus type; of
a folder, every file in it, or a folder of wave-3 trial files as one schedule. Its options
are in ``explain_options``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from sylla.grammar.syllabus.explain import explain, render_text
from sylla.grammar.syllabus.parse import parse
from sylla.linter import Config, ConfigError, load_config
from sylla.linter.languages import FALLBACK, content_language, spec_for

from .files import discover, print_core_diagnostics, read_source

if TYPE_CHECKING:
    from sylla.grammar.syllabus.model import Syllabus
    from sylla.linter.language import LanguageSpec


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.worker < args.workers:
        print(f"sylla: --worker must be between 0 and {args.workers - 1} (--workers {args.workers})", file=sys.stderr)
        return 2
    if args.file != "-" and os.path.isdir(args.file):
        handled = explain_trials_folder(args.file, args.format)
        return handled if handled is not None else explain_folder(args.file, args.format)
    source = read_source(args.file)
    if source is None:
        return 2
    name, data = source
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


def explain_trials_folder(folder: str, fmt: str) -> int | None:
    """The protocol of a folder of wave-3 trial files as a schedule; None: no trial files here."""
    from sylla.grammar.trials.schedule import load_folder, schedule  # noqa: PLC0415 - lazy: start-up, the trial files' model and parser load only for a folder
    from sylla.grammar.trials.schedule import render_text as render_schedule  # noqa: PLC0415 - lazy: as above
    orderings, errors = load_folder(folder)
    if not orderings and not errors:
        return None
    for e in errors:
        print(e, file=sys.stderr)
    doc = schedule(orderings)
    if fmt == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_schedule(doc))
    return 1 if errors else 0


def explain_folder(folder: str, fmt: str) -> int:
    """Explain every file under ``folder`` that sylla reads, each in its language (JSON: a list of documents)."""
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
