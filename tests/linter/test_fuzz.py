"""The reliability target, bounded for the suite: structure-aware mutants of every fixture
and example go through parse, lint (every profile and type), --fix and fmt, and every
property of ``fuzzing.syllabus.check`` holds (no exception; fix and fmt idempotent; fmt keeps
the JSON value, comments, notes and the line each directive names; re-linting after --fix
does not report the fixed findings). ``bench/fuzz.py`` runs the long campaign."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fuzzing.syllabus import check, configs, hostile_mutation, mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: tests/fixtures/rules (the RuleTester's one-change bad/ok pairs) are near-copies of these: not seeds
SEEDS = sorted(p for p in REPO.glob("tests/fixtures/**/*.json*") if not p.is_relative_to(REPO / "tests/fixtures/rules")) + sorted(
    REPO.glob("examples/**/*.json*"))
TEXTS = {str(p.relative_to(REPO)): p.read_bytes().decode("utf-8", errors="replace") for p in SEEDS}
CONFIGS = configs()


def test_the_corpus_is_the_real_files() -> None:
    names = set(TEXTS)
    assert {"tests/fixtures/linter/reference-ant-b.jsonc", "tests/fixtures/linter/reference-cl.json", "examples/ant-b.jsonc"} <= names
    assert len(names) >= 40
    assert {(c.profile, c.type) for c in CONFIGS} >= {("l2m", None), ("pretest", "ANT-C"), ("l2m", "CL")}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_seed_file_holds_the_properties(name: str) -> None:
    for config in CONFIGS:
        assert check(TEXTS[name], config, name) == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.sampled_from(sorted(TEXTS)), st.integers(0, 2**32 - 1), st.integers(1, 4), st.sampled_from(CONFIGS),
       st.sampled_from(["s.json", "s.jsonc"]))
def test_mutants_hold_the_properties(name: str, seed: int, steps: int, config, path: str) -> None:
    mutant = mutate(TEXTS[name], random.Random(seed), steps)
    violations = check(mutant, config, path)
    assert violations == [], f"{name} seed={seed} steps={steps} {config.profile}/{config.type}:\n{mutant!r}"


def test_the_mutations_reach_what_they_are_for() -> None:
    """The mutator makes the shapes the issue found bugs in (a check that it can fail)."""
    rng = random.Random(7)
    text = TEXTS["tests/fixtures/linter/reference-cl.json"]
    mutants = [mutate(text, rng, 3) for _ in range(400)]
    assert any("\r\n" in m for m in mutants) and any(m.startswith("\ufeff") for m in mutants)
    assert any("// sylla: ignore[H50\n" in m for m in mutants) and any("<--" in m for m in mutants)
    assert any("\n  ,"in m for m in mutants)  # a comment before a leading comma
    assert any(m.lstrip("\ufeff").startswith('"instructions"') for m in mutants)  # fragments


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.sampled_from(sorted(TEXTS)), st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS), st.sampled_from(["s.json", "s.jsonc"]))
def test_hostile_mutants_hold_the_properties(name: str, seed: int, config, path: str) -> None:
    """Issue 38's classes as properties: no exception, no file with an error that passes,
    memory and reports bounded (``fuzzing.syllabus``'s module docstring)."""
    mutant = hostile_mutation(TEXTS[name], random.Random(seed))
    violations = check(mutant, config, path)
    assert violations == [], f"{name} seed={seed} {config.profile}/{config.type}:\n{mutant[:3000]!r}"


def test_thehostile_mutations_reach_what_they_are_for() -> None:
    """The hostile mutator makes each shape issue 38 found a failure in."""
    rng = random.Random(11)
    text = TEXTS["tests/fixtures/linter/reference-cl.json"]
    mutants = [hostile_mutation(text, rng) for _ in range(300)]
    assert any("\x00" in m[:1024] for m in mutants)
    assert any("[" * 70_000 in m for m in mutants) and any('{"a":' * 1000 in m for m in mutants)
    assert any("9" * 4301 in m for m in mutants) and any("1e400" in m for m in mutants)
    assert any(f'"count": {10**12}' in m for m in mutants)
    assert any('"$phase": "' + "7" * 4301 in m for m in mutants)
    assert any('{"$repeat": {"$phase": "1.train"}, "count": 100}' in m for m in mutants)
    assert any("\n" not in m and m.count('"$info"') > 100 for m in mutants)  # minified, many findings
