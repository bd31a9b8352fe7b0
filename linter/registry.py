"""The rule registry: every rule class under ``linter/rules``, one instance each, by code.

Rules register by being listed in ``rules/__init__.py`` (explicit, so import order and the
generated docs are stable and start-up does not walk the file system).
"""

from __future__ import annotations

import functools

from .rule import Rule, known_selector_of


@functools.cache
def _rules() -> tuple[Rule, ...]:
    from .rules import RULE_CLASSES  # noqa: PLC0415 - lazy: the rule modules load on the first lint, not when config or the CLI import the registry

    rules = tuple(cls() for cls in RULE_CLASSES)
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
    """Every rule, sorted by code."""
    return list(_rules())


def rule_for(code: str) -> Rule | None:
    """The rule with this code (``P301``) or name (``phase-label-format``), case-insensitive code."""
    by = _by_code()
    return by.get(code) or by.get(code.upper())


@functools.cache
def _kind_map() -> dict[str, Rule]:
    return {kind: r for r in _rules() for kind in r.kinds}


def rule_for_kind(kind: str) -> Rule | None:
    """The rule that reports a core diagnostic kind."""
    return _kind_map().get(kind)


def known_selector(selector: str) -> bool:
    """Whether ``select``/``ignore`` may name this (a code, a code prefix or ALL)."""
    return known_selector_of(selector, (r.code for r in _rules()))
