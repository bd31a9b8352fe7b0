"""What ``sylla explain`` does with Science Birds trial configs and with folders.

Kept apart from ``explain.py`` so that the syllabus command stays as it is: ``explain`` asks
``explain_birds`` first (None means "not a Science Birds config, go on"), and hands a folder to
``explain_folder``, which explains every syllabus and Science Birds config in it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def is_folder(path: str) -> bool:
    return path != "-" and os.path.isdir(path)


def _print_diagnostics(result: Any, name: str) -> None:
    lines = result.lines
    for d in result.diagnostics:
        line, col = lines.line_col(d.span.start)
        print(f"{name}:{line}:{col}: {d.severity.value}: {d.message}", file=sys.stderr)


def birds_doc(name: str, data: bytes) -> tuple[dict[str, Any] | None, str, int]:
    """The explain document, its text, and the exit status (1 when the file has errors)."""
    from sylla.grammar.birds import parse  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.grammar.birds.explain import explain, explain_generated, render_generated_text, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    result = parse(data, name)
    _print_diagnostics(result, name)
    if result.model is None or not result.syntax_ok:
        return None, "", 1
    if result.model.kind == "meta":
        doc = explain(result.model)
        text = render_text(doc)
    else:
        doc = explain_generated(result.model)
        text = render_generated_text(doc)
    return doc, text, 0 if result.ok else 1


def explain_birds(name: str, data: bytes, fmt: str) -> int | None:
    from sylla.linter.languages import is_birds  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    if not is_birds(data):
        return None
    doc, text, status = birds_doc(name, data)
    if doc is None:
        return status
    _emit(doc, text, fmt)
    return status


def _emit(doc: Any, text: str, fmt: str) -> None:
    if fmt == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(text)


def explain_folder(folder: str, fmt: str) -> int:
    """Explain every syllabus and Science Birds config under ``folder`` (JSON: a list of documents)."""
    from sylla.grammar.explain import explain, render_text  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.grammar.parse import parse  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

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
        from sylla.linter.languages import is_birds  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

        if is_birds(data):
            doc, text, code = birds_doc(path, data)
        else:
            result = parse(data, path)
            _print_diagnostics(result, path)
            if result.model is None or not result.syntax_ok:
                doc, text, code = None, "", 1
            else:
                doc = explain(result.model)
                text, code = render_text(doc), (0 if result.ok else 1)
        status = max(status, code)
        if doc is not None:
            docs.append(doc)
            texts.append(text)
    if not docs and status == 0:
        print(f"sylla: {folder}: no syllabus or Science Birds config found", file=sys.stderr)
        return 2
    if fmt == "json":
        json.dump(docs, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(texts))
    return status
