"""The one lint engine: parse, turn the core's diagnostics into findings, run the rules, filter, sort.

Every language goes through ``run`` with its descriptor (``language.LanguageSpec``): syllabi,
Science Birds configs and wave-3 trial files share every step, and what differs (the parse,
the rule context, the rules a syllabus holds back while its structure has a typo, suppression
comments) is the descriptor's. Core syntax and schema diagnostics become findings with their
own codes (S1xx, S2xx, B80x, W90x, or a more specific rule that claims them, such as the
phase-label rule). Model rules run when the syntax is clean; they build on the lenient model,
so schema errors do not silence them.

``lint`` is the syllabus entry point (``sylla.linter.lint``); ``languages.lint_text`` picks
the language by content.
"""

from __future__ import annotations

from _thread import _local as thread_local  # threading.local itself: importing threading (and weakref) costs start-up
from contextlib import contextmanager

from sylla.grammar.core import Diagnostic, Severity
from sylla.grammar.syllabus.parse import ParseResult
from sylla.kit.gc_pause import paused_gc
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record, replace

from .config import Config
from .finding import Finding, RelatedSpan
from .language import CoreParse, LanguageSpec, Parsed
from .registry import language_rules, rule_for_kind
from .rule import Rule
from .rules import Language
from .syllabus import SYLLABUS
from .syllabus_type import SyllabusType

__all__ = ["LintResult", "between_rules", "configured_severity", "lint", "run"]

if TYPE_CHECKING:
    from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar
else:  # a subscriptable base, without importing typing (start-up, issue 24)
    from sylla.kit.no_typing import Generic, TypeVar

ParseT = TypeVar("ParseT", bound=Parsed)
P = TypeVar("P", bound=CoreParse)
C = TypeVar("C")


@record()
class LintResult(Generic[ParseT]):
    """The findings of one file (sorted by offset), its parse in its language (a syllabus
    ``ParseResult``, a ``BirdsParse``, a ``TrialParse``, a delivery file's), what the lint
    inferred of it (``LanguageSpec.inferred``: a syllabus's type) and the language."""

    findings: list[Finding]
    parse: ParseT
    inferred: object | None
    path: str | None = None
    language: Language = "syllabus"

    @property
    def text(self) -> str:
        return self.parse.text

    @property
    def syllabus_type(self) -> SyllabusType | None:
        """The syllabus type the file was linted as (``sylla.linter.lint``'s result); None for
        a file of another language, whose lint infers no syllabus type."""
        return self.inferred if isinstance(self.inferred, SyllabusType) else None


#: the longest message a finding carries: a message quotes the file (a task name, a key), and a
#: name of megabytes quoted by each of thousands of findings would make a report (and the
#: editor's diagnostics) of their product; the longest message a real file gets is 250 (issue 38)
MAX_MESSAGE = 1000

#: per thread: a function the rule loop calls before each rule (``between_rules``)
_between_rules = thread_local()


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
) -> LintResult[ParseResult]:
    """Lint one syllabus. ``config`` None means the defaults (callers that want discovery
    call ``load_config(path)`` first, as the CLI does). ``parsed`` is ``parse(data, path)``
    when the caller already has it (the language server shares one parse per version between
    the lint and its other features)."""
    return run(SYLLABUS, data, path, config, parsed=parsed)


def run(
    spec: LanguageSpec[P, Any], data: str | bytes, path: str | None = None, config: Config | None = None,
    *, parsed: P | None = None,
) -> LintResult[P]:
    """Lint one file of ``spec``'s language: every step every language shares."""
    config = config or Config()
    with paused_gc():
        result = parsed if parsed is not None else spec.parse(data, path)
        ctx = spec.context(result, config, path) if result.model is not None else None
        rules = [r for r in language_rules(spec.name) if config.enabled(r.code, path)]
        claimers: list[Any] = [r for r in rules if hasattr(r, "claims")]
        findings: list[Finding] = []
        for diag in result.diagnostics:
            finding = _from_diagnostic(spec, diag, ctx, claimers)
            if finding is not None:
                findings.append(finding)
        if ctx is not None and result.syntax_ok:
            held_back = spec.held_back(ctx)
            pause = getattr(_between_rules, "hook", None)
            for rule in rules:
                if rule.kinds or (held_back is not None and held_back(rule)):
                    continue
                if pause is not None:
                    pause()
                findings.extend(rule.check(ctx))
        findings = _filter(spec, spec.prune(findings), config, path, result)
        return LintResult(findings, result, spec.inferred(ctx), path, spec.name)


def _from_diagnostic(spec: LanguageSpec[Any, Any], diag: Diagnostic, ctx: object, claimers: list[Any]) -> Finding | None:
    for claimer in claimers:
        if ctx is not None and claimer.claims(diag, ctx):
            found: Finding = claimer.from_diagnostic(diag, ctx)
            return found
    rule: Rule | None = rule_for_kind(diag.keyword if diag.kind == "schema" and diag.keyword else diag.kind, spec.name)
    if rule is None:  # the syllabus's catch-all rules (S299, S199); the other languages name every kind
        rule = rule_for_kind("schema:*" if diag.kind == "schema" else "*", spec.name)
    if rule is None:
        return None
    related = tuple(RelatedSpan(r.message, r.span) for r in diag.related)
    return Finding(rule.code, rule.name, spec.core_severity(rule, diag), diag.message, diag.span, None, related)


def _filter(
    spec: LanguageSpec[P, Any], findings: Sequence[Finding], config: Config, path: str | None, result: P
) -> list[Finding]:
    """The config's selection, one finding per (code, span, message), suppression comments,
    the config's severities, and text order."""
    quiet = spec.suppressions(result)
    lines = result.lines if quiet is not None else None
    seen: set[tuple[str, int, int, str]] = set()
    out: list[Finding] = []
    for f in findings:
        if not config.enabled(f.code, path):
            continue
        key = (f.code, f.span.start, f.span.end, f.message)
        if key in seen:
            continue
        seen.add(key)
        if quiet is not None and lines is not None and quiet.suppressed(f.code, lines.line_col(f.span.start)[0]):
            continue
        level = configured_severity(config, f.code)
        if level is not None and level != f.severity:
            f = replace(f, severity=level)
        if len(f.message) > MAX_MESSAGE:
            f = replace(f, message=f.message[: MAX_MESSAGE - 1] + "…")
        out.append(f)
    return spec.order(out)


def configured_severity(config: Config, code: str) -> Severity | None:
    best = None
    for selector, level in config.severity.items():
        if code.startswith(selector) and (best is None or len(selector) > len(best[0])):
            best = (selector, level)
    return best[1] if best else None
