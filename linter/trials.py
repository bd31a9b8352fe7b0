"""``lint_trials``: lint a wave-3 trial file (``json/cPPP_K.json``).

The same pipeline as syllabi and Science Birds configs, over a third language: the core
(``sylla.grammar.trials``) parses the JSON with positions into a ``TrialFile``; its diagnostics
become W901/W902 findings; the W9xx rules check the model, and the orderings of the same
problem found beside the file (W907, W908).
"""

from __future__ import annotations

from dataclasses import replace

from sylla.grammar.trials.parse import parse

from .config import Config
from .engine import LintResult, configured_severity
from .finding import Finding
from .registry import all_rules, rule_for_kind
from .trials_context import TrialsContext


def lint_trials(data: str | bytes, path: str | None = None, config: Config | None = None) -> LintResult:
    """Lint one trial file; the result has the shape of a syllabus ``LintResult``."""
    config = config or Config()
    result = parse(data, path)
    findings: list[Finding] = []
    for diag in result.diagnostics:
        rule = rule_for_kind(diag.kind)
        if rule is not None:
            findings.append(Finding(rule.code, rule.name, rule.severity, diag.message, diag.span))
    if result.model is not None:
        ctx = TrialsContext(result, result.model, config, path)
        for rule in all_rules():
            if rule.code.startswith("W9") and not rule.kinds and config.enabled(rule.code, path):
                findings.extend(rule.check(ctx))  # type: ignore[arg-type]  # rules are typed for the syllabus Context; this language's rules take its own context (issue 28 item 1)
    out = []
    for f in findings:
        if not config.enabled(f.code, path):
            continue
        level = configured_severity(config, f.code)
        out.append(replace(f, severity=level) if level is not None and level != f.severity else f)
    out.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return LintResult(out, result, None, path)  # type: ignore[arg-type]  # LintResult.parse is typed for syllabi but carries this language's parse (issue 28 item 1)
