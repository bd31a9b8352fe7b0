"""``lint_birds``: lint a Science Birds trial config (configMeta.xml or config.xml).

The same pipeline as syllabi, over the other language: the core (``sylla.grammar.birds``)
decodes, reads and validates the XML; its diagnostics become findings under the B80x rules;
the B81x (configMeta.xml) and B83x (config.xml) rules check the model. A schema error on a
value that a more specific rule already reports (``True`` where ``true`` belongs, a misspelt
limit type) is dropped, so each problem is reported once, by the rule that can explain and fix it.
"""

from __future__ import annotations

from dataclasses import replace

from sylla.grammar.birds.parse import BirdsParse, parse
from sylla.grammar.model import Diagnostic

from .birds_context import BirdsContext
from .config import Config
from .engine import LintResult, configured_severity
from .finding import Finding, RelatedSpan
from .registry import all_rules, rule_for_kind


def lint_birds(
    data: str | bytes, path: str | None = None, config: Config | None = None, *, parsed: BirdsParse | None = None
) -> LintResult:
    """Lint one Science Birds config; the result has the shape of a syllabus ``LintResult``
    (``findings``, ``parse.lines``, ``text``), so every reporter and the language server take it.
    ``parsed`` is ``parse(data, path)`` when the caller already has it."""
    config = config or Config()
    result = parsed if parsed is not None else parse(data, path)
    rules = [r for r in all_rules() if r.code.startswith("B8") and config.enabled(r.code, path)]
    findings: list[Finding] = []
    for diag in result.diagnostics:
        f = _from_diagnostic(diag)
        if f is not None:
            findings.append(f)
    if result.model is not None and result.syntax_ok:
        ctx = BirdsContext(result, result.model, config, path)
        for rule in rules:
            if not rule.kinds:
                findings.extend(rule.check(ctx))  # type: ignore[arg-type]  # rules are typed for the syllabus Context; this language's rules take its own context (issue 28 item 1)
    findings = _filter(findings, config, path)
    return LintResult(findings, result, None, path)  # type: ignore[arg-type]  # LintResult.parse is typed for syllabi but carries this language's parse (issue 28 item 1)


def _from_diagnostic(diag: Diagnostic) -> Finding | None:
    rule = rule_for_kind(diag.kind)
    if rule is None:
        return None
    related = tuple(RelatedSpan(r.message, r.span) for r in diag.related)
    return Finding(rule.code, rule.name, diag.severity if rule.code == "B803" else rule.severity, diag.message, diag.span, None, related)


def _filter(findings: list[Finding], config: Config, path: str | None) -> list[Finding]:
    specific = [f.span for f in findings if f.code not in ("B804",)]
    out: list[Finding] = []
    seen: set[tuple[str, int, int, str]] = set()
    for f in findings:
        if not config.enabled(f.code, path):
            continue
        if f.code == "B804" and any(s.start <= f.span.start and f.span.end <= s.end for s in specific):
            continue
        key = (f.code, f.span.start, f.span.end, f.message)
        if key in seen:
            continue
        seen.add(key)
        level = configured_severity(config, f.code)
        if level is not None and level != f.severity:
            f = replace(f, severity=level)
        out.append(f)
    out.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return out
