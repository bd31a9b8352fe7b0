"""Every rule in ``all_rules()`` has at least one failing and one passing fixture, and each
fixture does what it says when linted by ``sylla lint`` (see ``rule_tester`` for the layout).

Adding a rule's cases: create ``tests/fixtures/rules/<CODE>/bad.<ext>`` with the smallest real
file that triggers the rule, and ``ok.<ext>`` with the minimal fix of it (the same file, one
change). Pin the position with a first-line comment ``// expect: LINE:COL CODE`` (JSONC),
``<!-- expect: LINE:COL CODE -->`` (XML) or a sidecar ``bad.expect.txt``. When the rule reads
more than one file (a sylla.toml with a registry or metrics, configMeta.xml beside config.xml,
a delivery folder), make the case a folder: ``bad/`` and ``ok/`` holding those files (and
``expect.txt`` with ``FILE:LINE:COL CODE``).
"""

from __future__ import annotations

import pytest

from sylla.linter import all_rules

from rule_tester import Case, check, find_cases

CODES = [r.code for r in all_rules()]

#: codes without a case of this kind, and why no file can be one
NO_CASE: dict[tuple[str, str], str] = {
}


def cases() -> list[Case]:
    return [case for code in CODES for case in find_cases(code)]


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("kind", ["bad", "ok"])
def test_rule_has_cases(code: str, kind: str) -> None:
    if (code, kind) in NO_CASE:
        assert not [c for c in find_cases(code) if c.kind == kind], f"{code} has a {kind} case now: drop it from NO_CASE"
        return
    assert [c for c in find_cases(code) if c.kind == kind], (
        f"{code} has no {kind} case: add tests/fixtures/rules/{code}/{kind}.<ext> (see this module's docstring)")


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c.code}-{c.id}")
def test_case(case: Case) -> None:
    check(case)


def test_allow_list_names_known_codes() -> None:
    assert {code for code, _ in NO_CASE} <= set(CODES)
