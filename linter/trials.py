"""``lint_trials``: lint a wave-3 trial file (``json/cPPP_K.json``).

The same pipeline as syllabi and Science Birds configs, over a third language: the core
(``sylla.grammar.trials``) parses the JSON with positions into a ``TrialFile``; its diagnostics
become W901/W902 findings; the W9xx rules check the model, and the orderings of the same
problem found beside the file (W907, W908).
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, replace
from sylla.grammar.trials.model import TrialFile, name_parts
from sylla.grammar.trials.parse import TrialParse, parse

from .config import Config
from .document_context import DocumentContext
from .engine import LintResult
from .finding import Finding
from .registry import all_rules, rule_for_kind

#: the request's protocol: 5 orderings of 11 examples per problem
ORDERINGS, EXAMPLES = 5, 11


@dataclass
class TrialsContext(DocumentContext[TrialParse, TrialFile]):
    """What a W9xx rule sees: the parse, the model, the config, the file's path."""

    @property
    def name_parts(self) -> tuple[int, int] | None:
        return name_parts(os.path.basename(self.path)) if self.path else None

    @functools.cached_property
    def siblings(self) -> dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]] | None]:
        """ordering -> its examples (None when unreadable), for every ``cPPP_K.json`` of this
        file's problem in its folder, this file included."""
        parts = self.name_parts
        if parts is None or self.path is None or not os.path.isfile(self.path):
            return {}
        return sibling_orderings(os.path.dirname(os.path.abspath(self.path)), parts[0])


def sibling_orderings(folder: str, problem: int) -> dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]] | None]:
    out: dict[int, list | None] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return {}
    for name in names:
        parts = name_parts(name)
        if parts is None or parts[0] != problem:
            continue
        try:
            with open(os.path.join(folder, name), "rb") as fh:
                doc = json.loads(fh.read().decode("utf-8-sig"))
            out[parts[1]] = [(tuple(d["i"]), tuple(d["o"])) for d in doc["data"]]
        except (OSError, ValueError, KeyError, TypeError):
            out[parts[1]] = None
    return out


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
                findings.extend(rule.check(ctx))  # type: ignore[arg-type]
    out = []
    from .engine import _severity

    for f in findings:
        if not config.enabled(f.code, path):
            continue
        level = _severity(config, f.code)
        out.append(replace(f, severity=level) if level is not None and level != f.severity else f)
    out.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return LintResult(out, result, None, path)  # type: ignore[arg-type]
