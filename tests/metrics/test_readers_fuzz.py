"""The readers' property on fuzzed logs (issue 38): never a traceback, never a silent number.

Mutants of real logs (`tests/fuzzing/readers.py`: rows deleted, repeated, swapped, moved or
renumbered; block types, subtypes, statuses, task and worker names spoilt; performance values
that are not numbers; files cut inside their last line) in every plain format and in l2logger
logs of one and of several workers, read by each of the l2logger reader's paths, with and
without the syllabus and ``--allow-partial``. Each is refused with a located error, or computed
with a warning the original did not have, or computed to the original's numbers. The long
campaign is ``bench/reader_fuzz.py``.
"""

from __future__ import annotations

import functools
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fuzzing import readers as fuzz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.metrics.readers import l2logger_stream

from .conftest import FIXTURES, SYLLABUS

pytestmark = pytest.mark.slow

PLAIN_LOG = FIXTURES / "simulated_two_tasks.csv"
L2LOGGER = [(FIXTURES / "simulated_two_tasks_l2logger", SYLLABUS),
            (FIXTURES / "l2logger_v11", None), (FIXTURES / "l2logger_workers", None)]
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@functools.cache
def original(kind: str, syllabus: Path | None) -> dict[str, Any]:
    """The unmutated log's metrics document, read under the name its mutants get."""
    with tempfile.TemporaryDirectory() as tmp:
        if kind in fuzz.PLAIN:
            log = Path(tmp) / f"log.{kind}"
            fuzz.write_table(fuzz.read_table(PLAIN_LOG), log, kind)
        else:
            log = Path(shutil.copytree(FIXTURES / kind, Path(tmp) / kind))
        doc = fuzz.outcome(log, syllabus)
    assert doc is not None, f"the unmutated {kind} log must be read"
    return doc


def assert_holds(violations: list[fuzz.Violation], what: str) -> None:
    assert not violations, f"{what}: {violations[0].prop}: {violations[0].detail}"


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), fmt=st.sampled_from(fuzz.PLAIN),
       with_syllabus=st.booleans(), partial=st.booleans(), steps=st.integers(1, 3))
def test_plain_mutants_are_refused_warned_or_unchanged(seed, fmt, with_syllabus, partial, steps):
    syllabus = SYLLABUS if with_syllabus else None
    mutant, what = fuzz.mutate_table(fuzz.read_table(PLAIN_LOG), random.Random(seed), fmt, steps)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / f"log.{fmt}"
        fuzz.write_table(mutant, log, fmt)
        assert_holds(fuzz.check(log, original(fmt, syllabus), syllabus, partial), what)


@pytest.mark.parametrize("parse", ["whole", "small", "pyarrow"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), base=st.sampled_from(range(len(L2LOGGER))),
       with_syllabus=st.booleans(), partial=st.booleans(), steps=st.integers(1, 2))
def test_l2logger_mutants_are_refused_warned_or_unchanged(monkeypatch, parse, seed, base,
                                                          with_syllabus, partial, steps):
    if parse == "pyarrow":  # the block reader parses every file with pyarrow, as a large log's
        # (a size threshold, not a stub: `SMALL` is the bytes up to which the standard library
        # parses instead)
        monkeypatch.setattr(l2logger_stream, "SMALL", -1)
    source, syllabus = L2LOGGER[base]
    syllabus = syllabus if with_syllabus else None
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / source.name
        what = fuzz.mutate_l2logger(source, log, random.Random(seed), steps)
        assert_holds(fuzz.check(log, original(source.name, syllabus), syllabus, partial,
                                stream=parse != "whole"), what)


def test_the_property_catches_a_silent_number(tmp_path):
    """The check itself: a log whose numbers change without a word breaks it."""
    table = fuzz.read_table(PLAIN_LOG)
    table.rows[3][table.columns.index("reward")] = 1e6  # a value no reader can call wrong
    log = tmp_path / "log.csv"
    fuzz.write_table(table, log, "csv")
    (violation,) = fuzz.check(log, original("csv", None))
    assert violation.prop == "silent-number"
