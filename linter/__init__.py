"""The linter: rules with stable codes over the syllabus model, config, fixes, reporters.

The API the CLI and the language server use:

- ``lint(data, path=None, config=None) -> LintResult`` (findings sorted by offset, the parse,
  the syllabus type it was linted as, with the reason)
- ``load_config(path, overrides=None) -> Config`` (raises ``ConfigError``)
- ``apply_fixes(text, findings, safe_only=True) -> str``
- ``format_text(text) -> str | None``
- ``rule_for(code) -> Rule | None``, ``all_rules() -> list[Rule]``, ``doc_url(code)``
"""

from __future__ import annotations

from .config import Config, ConfigError, load_config
from .engine import LintResult, lint
from .finding import Edit, Finding, Fix, RelatedSpan
from .fixes import apply_fixes
from .fmt import format_text as _format
from .registry import all_rules, rule_for
from .rule import Rule, doc_url
from .syllabus_type import SyllabusType


def format_text(text: str) -> str | None:
    """The canonical layout of a syllabus, or None when it has syntax errors (``sylla fmt``)."""
    return _format(text)


__all__ = [
    "Config", "ConfigError", "Edit", "Finding", "Fix", "LintResult", "RelatedSpan", "Rule", "SyllabusType",
    "all_rules", "apply_fixes", "doc_url", "format_text", "lint", "load_config", "rule_for",
]
