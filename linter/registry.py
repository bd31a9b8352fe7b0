"""The rule registry: every rule class under ``linter/rules``, one instance each, by code.

Rules register by being listed in their language's list in ``linter/rules`` (explicit, so
import order and the generated docs are stable and start-up does not walk the file system).
A lint asks for its language's rules only (``language_rules``), so a syllabus lint imports no
Science Birds or wave-3 rule module (issue 24); ``all_rules``, ``rule_for`` and
``known_selector`` load every language and see every rule.
"""

from __future__ import annotations

import functools

from .rule import Rule, known_selector_of
from .rules import LANGUAGES, Language, rule_classes


@functools.cache
def language_rules(language: Language) -> tuple[Rule, ...]:
    """The rules of one language, sorted by code; only that language's rule modules load."""
    rules = tuple(cls() for cls in rule_classes(language))
    wrong = [r.code for r in rules if r.language != language]
    assert not wrong, f"rules listed under {language} that say another language: {wrong}"
    return tuple(sorted(rules, key=lambda r: r.code))


@functools.cache
def _rules() -> tuple[Rule, ...]:
    rules = tuple(r for language in LANGUAGES for r in language_rules(language))
    codes = [r.code for r in rules]
    assert len(set(codes)) == len(codes), "duplicate rule code"
    return tuple(sorted(rules, key=lambda r: r.code))


@functools.cache
def _by_code() -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for r in _rules():
        out[r.code] = r
        out[r.name] = r
    return out


def all_rules() -> list[Rule]:
    """Every rule of every language, sorted by code."""
    return list(_rules())


def all_codes() -> list[str]:
    """Every rule's code (what a ``sylla: ignore[...]`` directive may name)."""
    return [r.code for r in _rules()]


def rule_for(code: str) -> Rule | None:
    """The rule with this code (``P301``) or name (``phase-label-format``), case-insensitive code."""
    by = _by_code()
    return by.get(code) or by.get(code.upper())


@functools.cache
def _kind_map(language: Language | None) -> dict[str, Rule]:
    rules = _rules() if language is None else language_rules(language)
    return {kind: r for r in rules for kind in r.kinds}


def rule_for_kind(kind: str, language: Language | None = None) -> Rule | None:
    """The rule that reports a core diagnostic kind (among one language's rules, or all)."""
    return _kind_map(language).get(kind)


def known_selector(selector: str) -> bool:
    """Whether ``select``/``ignore`` may name this (a code, a code prefix or ALL)."""
    return known_selector_of(selector, (r.code for r in _rules()))
