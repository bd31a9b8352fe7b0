"""Shared helpers for the per-type rules (T4xx)."""

from __future__ import annotations

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block
from sylla.grammar.syllabus.syllabus_type import canonical
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ._phases import valid_phases

if TYPE_CHECKING:
    from typing import Iterator

ANT = ("ANT-A", "ANT-B", "ANT-C")


def type_span(ctx: Context) -> Span:
    """Where to report a whole-syllabus type finding: the ``syllabus_type`` value if the
    file declares one, else the ``instructions`` key, else the start of the file."""
    sm = ctx.model.source_map
    if sm is not None and ctx.model.form != "array":
        if ctx.syllabus_type.source == "file":
            span = sm.span(("syllabus_type",))
            if span is not None:
                return span
        span = sm.key_span(("instructions",))
        if span is not None:
            return span
    return ctx.model.instructions[0].span if ctx.model.instructions else Span(0, 0)


def applies(ctx: Context, *types: str) -> bool:
    """Whether the type is one of ``types`` and the file has phases (P308 covers the rest)."""
    return ctx.syllabus_type.type in types and bool(valid_phases(ctx.model))


def has_test_phase(ctx: Context) -> bool:
    return any(p.kind == "test" for p in valid_phases(ctx.model))


def first_differing_block(ctx: Context, task: str, param: str) -> Block | None:
    """The first block of ``task`` whose ``param`` differs from the task's first block."""
    first = None
    for block in ctx.model.blocks:
        if block.task != task:
            continue
        value = canonical(block.params[param]) if param in block.params else None
        if first is None:
            first = (value,)
        elif value != first[0]:
            return block
    return None


def variations(ctx: Context) -> Iterator[tuple[str, str, tuple[str, ...], Span]]:
    """``(task, param, values, span)`` for every parameter that varies within a task, the span
    at the first block where its value changes (the place a person looks to undo it)."""
    for task, params in ctx.syllabus_type.inference.variation.items():
        for param, values in params.items():
            block = first_differing_block(ctx, task, param)
            span = block.param_span(param) if block is not None else None
            yield task, param, values, span or (block.leaf_span if block is not None else ctx.model.blocks[0].span)
