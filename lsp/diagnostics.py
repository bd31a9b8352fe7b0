"""The one place the language server calls the linter, and findings -> LSP diagnostics.

Everything the server knows about findings comes through ``lint_text``; the conversion to
LSP (ranges in the negotiated encoding, ``code``, ``codeDescription``, related information)
happens here too, in the worker thread, so the event loop only forwards the result.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Sequence

from lsprotocol import types

import sylla.linter as linter
from sylla.grammar.core import Severity
from sylla.linter.languages import Language
from sylla.linter.languages import lint_text as lint_any

from .positions import PositionMap

log = logging.getLogger(__name__)

SOURCE = "sylla"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


@dataclass
class LintOutcome:
    """The findings of one version of one document, and the same as LSP diagnostics."""

    uri: str
    version: int | None
    text: str
    findings: list[Any]
    diagnostics: list[types.Diagnostic]
    positions: PositionMap
    config: Any = None
    config_problem: str | None = None
    syllabus: bool = True
    #: the file the document is (the linter reads its config and suffix), for re-linting
    path: str | None = None
    #: Fix All's text for this version, computed once when first asked (``code_actions.fix_all_text``)
    fixed: str | None = None
    #: the language the document was linted in (None: not served)
    language: Language | None = None


def doc_url(code: str) -> str | None:
    """The rule's documentation link (a file:// URI), or None for an unknown code."""
    try:
        if hasattr(linter, "doc_url"):
            return str(linter.doc_url(code))
        rule = linter.rule_for(code)
        url = getattr(rule, "doc_url", None)
        return str(url(code) if callable(url) else url) if url else None
    except Exception:  # noqa: BLE001 - a missing link must never lose the diagnostic
        return None


def lint_text(
    text: str, path: str | None, config: Any, parsed: Any = None, language: Language | None = None
) -> tuple[list[Any], PositionMap | None]:
    """Run the linter in ``language`` (None: the text's, by content), on ``parsed``, the text's
    parse in it, when the caller has it; returns its findings and the line index of the text
    it parsed."""
    result = lint_any(text, path, config, parsed=parsed, language=language)
    lines = result.parse.lines if result.parse is not None else None
    return list(result.findings), (PositionMap(lines) if lines is not None else None)


def to_lsp(findings: Sequence[Any], uri: str, positions: PositionMap) -> list[types.Diagnostic]:
    """LSP diagnostics for findings, in the positions' encoding."""
    links: dict[str, str | None] = {}
    out: list[types.Diagnostic] = []
    for f in findings:
        if f.code not in links:
            links[f.code] = doc_url(f.code)
        href = links[f.code]
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=positions.range(r.span)),
                message=r.message,
            )
            for r in f.related
        ]
        out.append(
            types.Diagnostic(
                range=positions.range(f.span),
                message=f.message,
                severity=_SEVERITY.get(Severity(f.severity), types.DiagnosticSeverity.Warning),
                code=f.code,
                code_description=types.CodeDescription(href=href) if href else None,
                source=SOURCE,
                related_information=related or None,
                data={"fixable": f.fix is not None},
            )
        )
    return out


def outcome_for(
    uri: str, version: int | None, text: str, path: str | None, config: Any, encoding: str,
    parsed: Any = None, positions: PositionMap | None = None, language: Language | None = None,
) -> LintOutcome:
    """Lint one snapshot and convert it (runs in the worker thread); ``parsed`` and
    ``positions`` are the version's shared parse (in ``language``) and position map, when
    there is one."""
    findings, linted = lint_text(text, path, config, parsed, language)
    if positions is None or positions.encoding != encoding:
        positions = PositionMap(linted.lines if linted is not None else text, encoding)
    return LintOutcome(
        uri, version, text, findings, to_lsp(findings, uri, positions), positions, config, path=path, language=language
    )


def failed_outcome(uri: str, version: int | None, text: str, encoding: str, error: BaseException) -> LintOutcome:
    """A lint that raised, shown as one error on the first line: publishing nothing would
    show a file whose findings are unknown as a clean one (issue 38). The findings stay
    empty, so no fix is offered from a lint that did not finish."""
    start = types.Position(line=0, character=0)
    diagnostic = types.Diagnostic(
        range=types.Range(start=start, end=start),
        message=f"sylla could not lint this file ({type(error).__name__}: {error}); its findings are "
        "unknown. The language server's log has the details; please report it.",
        severity=types.DiagnosticSeverity.Error,
        code="internal-error",
        source=SOURCE,
    )
    return LintOutcome(uri, version, text, [], [diagnostic], PositionMap(text, encoding), language=None)


def empty_outcome(uri: str, version: int | None, text: str, encoding: str) -> LintOutcome:
    """What a document sylla does not serve (JSON that is no syllabus, other XML) gets: nothing."""
    return LintOutcome(uri, version, text, [], [], PositionMap(text, encoding), syllabus=False)
