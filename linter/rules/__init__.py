"""Every rule, one module (or class) per rule, listed per language; the registry lists them in this order.

S1xx syntax/encoding, S2xx schema, P3xx phase annotations, T4xx syllabus type, H5xx test
hygiene, N6xx portability/names/structure, R7xx task registry, M9xx required metrics, B8xx Science
Birds trial configs (configMeta.xml and config.xml; they answer only the Science Birds engine,
``linter/birds.py``), W9xx wave-3 online trials (trial files: ``linter/trials.py``; deliveries:
``linter/deliveries.py``).

Each language's rules are listed in a module of their own (``syllabus_rules``, ``birds_rules``,
``trials_rules``) and imported only when a file of that language is linted, or when every rule
is asked for (``sylla rules``, the docs, the language server): a syllabus lint loads no Science
Birds or wave-3 rule, nor the models they read (issue 24). Each rule class also says its
language (``Rule.language``); the registry checks the two agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..rule import Rule

Language = Literal["syllabus", "birds", "trials"]

#: every language, in registry order
LANGUAGES: tuple[Language, ...] = ("syllabus", "birds", "trials")


def rule_classes(language: Language) -> tuple[type[Rule], ...]:
    """The rule classes of one language, importing that language's rule modules on first use."""
    if language == "syllabus":
        from . import syllabus_rules  # noqa: PLC0415 - lazy: each language's rule modules load only when a file of that language is linted

        return syllabus_rules.RULES
    if language == "birds":
        from . import birds_rules  # noqa: PLC0415 - lazy: each language's rule modules load only when a file of that language is linted

        return birds_rules.RULES
    if language == "trials":
        from . import trials_rules  # noqa: PLC0415 - lazy: each language's rule modules load only when a file of that language is linted

        return trials_rules.RULES
    raise ValueError(f"no rules for language {language!r}")
