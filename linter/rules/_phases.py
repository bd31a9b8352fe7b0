"""Shared views of the phase structure for the phase, type and hygiene rules."""

from __future__ import annotations

from sylla.grammar.syllabus.model import PhaseMark, Syllabus

from ..complete import blocks_by_phase  # noqa: F401 - the phase rules import it from here


def valid_phases(model: Syllabus) -> list[PhaseMark]:
    """Phase marks whose label follows ``<n>.<train|test>``."""
    return [p for p in model.phases if p.number is not None and p.kind is not None]


def is_pretest(phase: PhaseMark | None, profile: str) -> bool:
    """A leading ``0.test`` that the ``pretest`` profile allows."""
    return phase is not None and profile == "pretest" and phase.number == 0 and phase.kind == "test"
