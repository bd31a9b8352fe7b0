"""``lint``: parse, turn the core's diagnostics into findings, run the rules, filter, sort.

Core syntax and schema diagnostics become findings with their own codes (S1xx, S2xx, or a
more specific rule that claims them, such as the phase-label rule). Model rules run when the
syntax is clean; they build on the lenient model, so schema errors do not silence them. The
rules that read the phase structure (P3xx, T4xx, H5xx) also wait for a structure without
typos: a misspelt directive or phase label is reported once, not with its consequences.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from sylla.grammar.gc_pause import paused_gc
from sylla.grammar.model import Diagnostic, Severity, Syllabus, Unknown
from sylla.grammar.parse import ParseResult, parse

from .config import Config
from .context import Context
from .finding import Finding, RelatedSpan
from .registry import all_codes, language_rules, rule_for_kind
from .suppress import suppressions
from .syllabus_type import SyllabusType, resolve_type


@dataclass
class LintResult:
    """The findings of one file (sorted by offset), its parse, and the type it was linted as."""

    findings: list[Finding]
    parse: ParseResult
    syllabus_type: SyllabusType | None
    path: str | None = None

    @property
    def text(self) -> str:
        return self.parse.text


#: per thread: a function the rule loop calls before each rule (``between_rules``)
_between_rules = threading.local()


@contextmanager
def between_rules(hook: Callable[[], object]) -> Iterator[None]:
    """Call ``hook`` before each rule of the lints this thread runs inside the block.

    The language server lints in a thread beside the one answering the editor's requests; both
    need the GIL, so a request that arrives while the rules run waits for them. With the hook
    the lint steps aside (the hook blocks) at the next rule while a request is answered."""
    previous = getattr(_between_rules, "hook", None)
    _between_rules.hook = hook
    try:
        yield
    finally:
        _between_rules.hook = previous


def lint(
    data: str | bytes, path: str | None = None, config: Config | None = None, *, parsed: ParseResult | None = None
) -> LintResult:
    """Lint one syllabus. ``config`` None means the defaults (callers that want discovery
    call ``load_config(path)`` first, as the CLI does). ``parsed`` is ``parse(data, path)``
    when the caller already has it (the language server shares one parse per version between
    the lint and its other features)."""
    with paused_gc():
        return _lint(data, path, config or Config(), parsed)


def _lint(data: str | bytes, path: str | None, config: Config, parsed: ParseResult | None = None) -> LintResult:
    result = parsed if parsed is not None else parse(data, path)
    model = result.model
    ctx: Context | None = None
    stype: SyllabusType | None = None
    if model is not None:
        stype = resolve_type(model, config)
        registry = None
        if config.registry is not None:
            from .task_registry import load_registry  # noqa: PLC0415 - lazy: the task registry file is read only when a config names one

            registry = load_registry(config.registry)
        ctx = Context(result, model, config, stype, registry, rule_codes=all_codes)
    rules = [r for r in language_rules("syllabus") if config.enabled(r.code, path)]
    findings: list[Finding] = []
    claimers = [r for r in rules if hasattr(r, "claims")]
    for diag in result.diagnostics:
        finding = _from_diagnostic(diag, ctx, claimers)
        if finding is not None:
            findings.append(finding)
    if ctx is not None and result.syntax_ok:
        typo = model is not None and structure_typo(model)
        pause = getattr(_between_rules, "hook", None)
        for rule in rules:
            if rule.kinds or (typo and rule.structural):
                continue
            if pause is not None:
                pause()
            findings.extend(rule.check(ctx))
    findings = _filter(findings, config, path, result)
    return LintResult(findings, result, stype, path)


def structure_typo(model: Syllabus) -> bool:
    """Whether the phase and block structure has a typo that other findings would follow from:
    an instruction with no known directive (``"$repaet"``, ``"$phse"``), a phase label that
    is not ``<n>.train``/``<n>.test``, or a misspelt ``disable_updates``. The typo itself is
    reported (N603, P301, N606)."""
    from .rules.unknown_info_key import has_misspelt_info  # noqa: PLC0415 - lazy: the rule modules load on the first lint (see registry)

    return (
        any(isinstance(i, Unknown) for i in model.instructions)
        or any(p.kind is None for p in model.phases)
        or has_misspelt_info(model)
    )


def _from_diagnostic(diag: Diagnostic, ctx: Context | None, claimers: list) -> Finding | None:
    for rule in claimers:
        if ctx is not None and rule.claims(diag, ctx):
            return rule.from_diagnostic(diag, ctx)
    rule = rule_for_kind(diag.keyword if diag.kind == "schema" and diag.keyword else diag.kind, "syllabus")
    if rule is None:
        rule = rule_for_kind("schema:*" if diag.kind == "schema" else "*", "syllabus")
    if rule is None:  # pragma: no cover - the fallback rules are always registered
        return None
    related = tuple(RelatedSpan(r.message, r.span) for r in diag.related)
    return Finding(rule.code, rule.name, rule.severity, diag.message, diag.span, None, related)


def _filter(findings: list[Finding], config: Config, path: str | None, result: ParseResult) -> list[Finding]:
    lines = result.lines
    quiet = suppressions(result.model, lines)
    seen: set[tuple[str, int, int, str]] = set()
    out: list[Finding] = []
    for f in findings:
        if not config.enabled(f.code, path):
            continue
        key = (f.code, f.span.start, f.span.end, f.message)
        if key in seen:
            continue
        seen.add(key)
        if quiet.suppressed(f.code, lines.line_col(f.span.start)[0]):
            continue
        level = configured_severity(config, f.code)
        if level is not None and level != f.severity:
            f = replace(f, severity=level)
        out.append(f)
    out.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return out


def configured_severity(config: Config, code: str) -> Severity | None:
    best = None
    for selector, level in config.severity.items():
        if code.startswith(selector) and (best is None or len(selector) > len(best[0])):
            best = (selector, level)
    return best[1] if best else None
