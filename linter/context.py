"""What a rule sees while checking one syllabus: the model, schedule, type, config, registry."""

from __future__ import annotations

import functools

from sylla.grammar.core import LineIndex, Span
from sylla.grammar.syllabus.model import Syllabus
from sylla.grammar.syllabus.parse import ParseResult
from sylla.grammar.syllabus.schedule import schedule
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

from .finding import Finding, Fix, RelatedSpan
from .syllabus_type import SyllabusType

if TYPE_CHECKING:
    from typing import Callable, Iterable

    from sylla.grammar.syllabus.schedule import Schedule
    from sylla.runner.tasks.registry import Registry

    from .config import Config  # the rules import this module, and config checks selectors against the rules
    from .rule import Rule


@record()
class Context:
    parse: ParseResult
    model: Syllabus
    config: Config
    syllabus_type: SyllabusType
    #: the task registry the R7xx rules ask (config ``registry``), None without one
    registry: "Registry | None" = None
    #: every rule's code, of every language (``bad-suppression``); the engine passes the
    #: registry's, since only the syllabus rule modules are imported during a syllabus lint
    rule_codes: "Callable[[], Iterable[str]] | None" = None

    @property
    def text(self) -> str:
        return self.model.text

    @property
    def lines(self) -> LineIndex:
        return self.parse.lines

    @functools.cached_property
    def schedule(self) -> "Schedule":
        return schedule(self.model)

    @property
    def profile(self) -> str:
        return self.config.profile

    def finding(
        self,
        rule: "Rule",
        message: str,
        span: Span,
        fix: Fix | None = None,
        related: tuple[RelatedSpan, ...] = (),
    ) -> Finding:
        return Finding(rule.code, rule.name, rule.severity, message, span, fix, related)
