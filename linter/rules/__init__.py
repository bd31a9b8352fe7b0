"""Every rule, one module (or class) per rule, listed per language; the registry lists them in this order.

S1xx syntax/encoding, S2xx schema, P3xx phase annotations, T4xx syllabus type, H5xx test
hygiene, N6xx portability/names/structure, R7xx task registry, M9xx required metrics, B8xx Science
Birds trial configs (configMeta.xml and config.xml), W9xx wave-3 online trials (W901-W908 trial
files, W910-W923 delivery folders). One engine runs them all (``linter/engine.py``), each
language through its descriptor (``linter/language.py``).

Each language's rules are listed in a module of their own (``<language>_rules``, e.g.
``syllabus_rules``) and imported only when a file of that language is linted, or when every rule
is asked for (``sylla rules``, the docs, the language server): a syllabus lint loads no Science
Birds or wave-3 rule, nor the models they read (issue 24). Each rule class also says its
language (``Rule.language``); the registry checks the two agree.
"""

from __future__ import annotations

import importlib

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Literal

    from ..rule import Rule

    Language = Literal["syllabus", "birds", "trials", "delivery"]
else:  # the name at run time, without importing typing (start-up, issue 24)
    Language = str

#: every language, in registry order
LANGUAGES: tuple[Language, ...] = ("syllabus", "birds", "trials", "delivery")


def rule_classes(language: Language) -> tuple[type[Rule], ...]:
    """The rule classes of one language (``<language>_rules.RULES``), importing that
    language's rule modules on first use."""
    if language not in LANGUAGES:
        raise ValueError(f"no rules for language {language!r}")
    rules: tuple[type[Rule], ...] = importlib.import_module(f".{language}_rules", __name__).RULES
    return rules
