"""``SYLLABUS``: the syllabus language's descriptor for the lint engine.

Syllabi are the language with the most to say: their rule context carries the schedule, the
syllabus type and the task registry; the rules that read the phase structure (P3xx, T4xx, H5xx)
wait while the structure has a typo (a misspelt directive or phase label is reported once, not
with its consequences); ``// sylla: ignore[...]`` comments and ``"sylla_ignore"`` suppress findings.
"""

from __future__ import annotations

from sylla.grammar.syllabus.model import Syllabus, Unknown
from sylla.grammar.syllabus.parse import ParseResult, checked, parse
from sylla.kit.no_typing import TYPE_CHECKING

from .context import Context
from .language import LanguageSpec
from .registry import all_codes
from .suppress import Suppressions, suppressions
from .syllabus_type import SyllabusType, resolve_type

if TYPE_CHECKING:
    from typing import Any, Callable

    from .config import Config
    from .rule import Rule


class SyllabusSpec(LanguageSpec[ParseResult, Context]):
    name = "syllabus"

    def parse(self, data: str | bytes, path: str | None) -> ParseResult:
        return parse(data, path)

    def context(self, parsed: ParseResult, config: "Config", path: str | None) -> Context | None:
        model = parsed.model
        if model is None:
            return None
        registry = None
        if config.registry is not None:
            from .task_registry import task_registry  # noqa: PLC0415 - lazy: the task registry loads only when a config names one

            registry = task_registry(config)
        return Context(parsed, model, config, resolve_type(model, config), registry, rule_codes=all_codes)

    def explain(self, parsed: ParseResult, name: str) -> tuple[Any, str]:
        """The schedule for one worker; ``sylla explain`` adds ``--workers`` and ``--metrics``."""
        from sylla.grammar.syllabus.explain import explain, render_text  # noqa: PLC0415 - lazy: the explain layout loads only for sylla explain

        assert parsed.model is not None
        doc = explain(parsed.model)
        return doc, render_text(doc)

    def held_back(self, ctx: Context) -> Callable[["Rule"], bool] | None:
        if not structure_typo(ctx.model):
            return None
        return lambda rule: rule.structural

    def suppressions(self, parsed: ParseResult) -> Suppressions:
        return suppressions(parsed.model, parsed.lines)

    def inferred(self, ctx: Context | None) -> SyllabusType | None:
        """The syllabus type the file was linted as (declared, configured or inferred)."""
        return ctx.syllabus_type if ctx is not None else None

    def parse_unchecked(self, text: str, path: str | None) -> ParseResult:
        """The parse without its schema check (nine tenths of a 500 KB syllabus's first parse)."""
        return parse(text, path, schema=False)

    def checked(self, parsed: ParseResult, between: "Callable[[], None] | None" = None) -> ParseResult:
        return checked(parsed, between)

    def reparse(self, previous: ParseResult, text: str, path: str | None) -> ParseResult | None:
        """The instructions an edit touches, or the top level around them (``incremental``)."""
        if previous.path != path:
            return None
        from sylla.grammar.syllabus.incremental import reparse  # noqa: PLC0415 - lazy: only the editor reparses; the CLI's start-up never loads it

        return reparse(previous, text)


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


SYLLABUS = SyllabusSpec()
