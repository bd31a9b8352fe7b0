"""Every rule in ``all_rules()`` has at least one failing and one passing fixture, and each
fixture does what it says when linted by ``sylla lint`` (see ``rule_tester`` for the layout).

Adding a rule's cases: create ``tests/fixtures/rules/<CODE>/bad.<ext>`` with the smallest real
file that triggers the rule, and ``ok.<ext>`` with the minimal fix of it (the same file, one
change). Pin the position with a first-line comment ``// expect: LINE:COL CODE`` (JSONC),
``<!-- expect: LINE:COL CODE -->`` (XML) or a sidecar ``bad.expect.txt``. When the rule reads
more than one file (a sylla.toml with a registry or metrics, configMeta.xml beside config.xml,
a delivery folder), make the case a folder: ``bad/`` and ``ok/`` holding those files (and
``expect.txt`` with ``FILE:LINE:COL CODE``). Wave-3 trial files go in a folder named as the request
names them (``c046_1.json`` ... ``c046_5.json``); a delivery folder (CSV files, description.md) is
checked against tests/fixtures/trials/json, or against its own ``json/`` when it holds one.
Run one rule's cases with ``pytest tests/linter/test_every_rule.py -k S107``. A rule no file can
trigger goes in ``NO_CASE`` below, with the reason.
"""

from __future__ import annotations

import pytest
from rule_tester import Case, check, find_cases

from sylla.linter import all_rules

CODES = [r.code for r in all_rules()]

#: codes without a case of this kind, and why no file can be one
NO_CASE: dict[tuple[str, str], str] = {
    ("S199", "bad"): "the fallback for core diagnostics newer than the linter: every kind the grammar "
                     "reports today has its own S1xx rule (its ok case shows S101 is not also S199)",
    ("S299", "bad"): "the fallback for schema keywords without a rule: the schema's failing keywords "
                     "(type, required/anyOf, enum/const, minimum, pattern, additionalProperties/propertyNames) "
                     "all have S201-S206 (its ok case shows S201 is not also S299)",
    ("W922", "ok"): "a clean samples.csv is exactly 10,000 rows (1.3 MB); test_deliveries.py's "
                    "test_clean_delivery_passes lints a generated one, and W922/bad pins the rule here",
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


def test_every_bad_case_pins_its_position() -> None:
    """A bad case that only says "somewhere" would pass with the finding on the wrong token."""
    assert [c.id for c in cases() if c.kind == "bad" and not c.expected] == []
