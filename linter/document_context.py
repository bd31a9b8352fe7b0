"""``DocumentContext``: what a rule of a non-syllabus language sees (Science Birds, trial files).

Every language after the syllabus gives its rules the same four things: the core's parse (text
and line index), the typed model, the config and the file's path, and a way to make a finding.
Each language subclasses this with its own parse and model types and adds only what its rules
need beyond that (a sibling file, a view of the model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from sylla.grammar.core import LineIndex, Span

from .finding import Finding, Fix, RelatedSpan

if TYPE_CHECKING:
    from .config import Config  # the rules import this module, and config checks selectors against the rules
    from .language import Parsed  # the engine's module: its runtime imports reach the rules, which import this one
    from .rule import Rule

ParseT = TypeVar("ParseT", bound="Parsed")
ModelT = TypeVar("ModelT")


@dataclass
class DocumentContext(Generic[ParseT, ModelT]):
    """The parse, the model, the config and the path of one document."""

    parse: ParseT
    model: ModelT
    config: Config
    path: str | None

    @property
    def text(self) -> str:
        return self.parse.text

    @property
    def lines(self) -> LineIndex:
        return self.parse.lines

    def finding(
        self, rule: "Rule", message: str, span: Span, fix: Fix | None = None, related: tuple[RelatedSpan, ...] = ()
    ) -> Finding:
        return Finding(rule.code, rule.name, rule.severity, message, span, fix, related)
