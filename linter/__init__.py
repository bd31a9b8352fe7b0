"""The linter: rules with stable codes over the syllabus model, config, fixes, reporters.

The API the CLI and the language server use:

- ``lint(data, path=None, config=None) -> LintResult`` (findings sorted by offset, the parse,
  the syllabus type it was linted as, with the reason)
- ``load_config(path, overrides=None) -> Config`` (raises ``ConfigError``)
- ``apply_fixes(text, findings, safe_only=True) -> str``
- ``format_text(text) -> str | None``
- ``rule_for(code) -> Rule | None``, ``all_rules() -> list[Rule]``, ``doc_url(code)``

The package imports nothing at import time (module ``__getattr__``, as ``sylla.metrics``
does): ``from sylla.linter import load_config`` loads the config module only, not the
formatter, the fixes or the engine, which ``sylla lint`` on one file may not need (issue 24).
"""

from __future__ import annotations

import importlib

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from .config import Config as Config
    from .config import ConfigError as ConfigError
    from .config import load_config as load_config
    from .engine import LintResult as LintResult
    from .engine import lint as lint
    from .finding import Edit as Edit
    from .finding import Finding as Finding
    from .finding import Fix as Fix
    from .finding import RelatedSpan as RelatedSpan
    from .fixes import apply_fixes as apply_fixes
    from .registry import all_rules as all_rules
    from .registry import rule_for as rule_for
    from .rule import Rule as Rule
    from .rule import doc_url as doc_url
    from .syllabus_type import SyllabusType as SyllabusType

__all__ = [
    "Config", "ConfigError", "Edit", "Finding", "Fix", "LintResult", "RelatedSpan", "Rule", "SyllabusType",
    "all_rules", "apply_fixes", "doc_url", "format_text", "lint", "load_config", "rule_for",
]

_HOME = {
    "Config": ".config", "ConfigError": ".config", "load_config": ".config",
    "LintResult": ".engine", "lint": ".engine",
    "Edit": ".finding", "Finding": ".finding", "Fix": ".finding", "RelatedSpan": ".finding",
    "apply_fixes": ".fixes", "all_rules": ".registry", "rule_for": ".registry",
    "Rule": ".rule", "doc_url": ".rule", "SyllabusType": ".syllabus_type",
}


def format_text(text: str) -> str | None:
    """The canonical layout of a syllabus, or None when it has syntax errors (``sylla fmt``)."""
    from sylla.grammar.syllabus.fmt import format_text as _format  # noqa: PLC0415 - lazy: start-up, the formatter's token regex compiles only for sylla fmt

    return _format(text)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name], __name__), name)
