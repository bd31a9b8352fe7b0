"""Shared views of the phase structure for the phase, type and hygiene rules."""

from __future__ import annotations

from sylla.grammar.model import Block, PhaseMark, Syllabus


def valid_phases(model: Syllabus) -> list[PhaseMark]:
    """Phase marks whose label follows ``<n>.<train|test>``."""
    return [p for p in model.phases if p.number is not None and p.kind is not None]


def is_pretest(phase: PhaseMark | None, profile: str) -> bool:
    """A leading ``0.test`` that the ``pretest`` profile allows."""
    return phase is not None and profile == "pretest" and phase.number == 0 and phase.kind == "test"


def next_instruction_span(model: Syllabus, index: int):  # noqa: ANN201 - Span | None
    return model.instructions[index + 1].span if index + 1 < len(model.instructions) else None


def blocks_by_phase(model: Syllabus) -> list[tuple[PhaseMark | None, list[Block]]]:
    """Instruction-order runs: the blocks after each phase mark (the first run's mark is None)."""
    runs: list[tuple[PhaseMark | None, list[Block]]] = [(None, [])]
    for ins in model.instructions:
        if isinstance(ins, PhaseMark):
            runs.append((ins, []))
        elif isinstance(ins, Block):
            runs[-1][1].append(ins)
    return runs
