"""H505 duplicate-adjacent-blocks."""

from __future__ import annotations

from sylla.grammar.core import Severity, Span
from sylla.grammar.syllabus.model import Block
from sylla.grammar.syllabus.syllabus_type import canonical
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Edit, Finding, Fix
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Any, Iterator


def _same(a: Block, b: Block) -> bool:
    return (
        a.task_ref == b.task_ref
        and a.leaf == b.leaf
        and a.repeated == b.repeated
        and canonical(dict(a.own_params)) == canonical(dict(b.own_params))
    )


def _value_at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def _without_count(instruction: Any) -> Any:
    if not isinstance(instruction, dict):
        return instruction
    return canonical({k: v for k, v in instruction.items() if k != "count"})


class DuplicateAdjacentBlocks(Rule):
    __doc__ = rule_doc(
        "Two adjacent blocks are identical.",
        "Consecutive `$repeat` (or bare) instructions with the same task and parameters.",
        '{"$repeat": {"$episode": "Pong"}, "count": 100},\n{"$repeat": {"$episode": "Pong"}, "count": 100},',
        '{"$repeat": {"$episode": "Pong"}, "count": 200},',
        "Merges two `$repeat` blocks into one and sums the counts (offered only when nothing but a comma separates them, the second holds no comment and no key the first lacks, so nothing is lost).",
        why="**Why it matters.** The metrics treat each block as a unit (block-level saturation, "
        "recovery per block): an accidental split halves the block and doubles the bookkeeping.",
    )
    code, name, severity, fixable = "H505", "duplicate-adjacent-blocks", Severity.INFO, True

    def check(self, ctx: Context) -> Iterator[Finding]:
        ins = ctx.model.instructions
        for a, b in zip(ins, ins[1:]):
            if isinstance(a, Block) and isinstance(b, Block) and _same(a, b):
                yield ctx.finding(self, f'this block repeats the one before it ("{a.task}"): merge them', b.span, self._fix(ctx, a, b))

    def _fix(self, ctx: Context, a: Block, b: Block) -> Fix | None:
        if not (a.repeated and b.repeated) or a.count_span is None or a.count < 1 or b.count < 1:
            return None
        if ctx.text[a.span.end : b.span.start].strip() != ",":
            return None
        if any(b.span.start <= n.span.start < b.span.end for n in ctx.model.non_json):
            return None  # a comment or note inside the second block would be deleted with it
        try:
            same = _without_count(_value_at(ctx.model.value, a.path)) == _without_count(_value_at(ctx.model.value, b.path))
        except (KeyError, IndexError, TypeError):
            same = False
        if not same:
            return None  # keys beside "$repeat" differ ("x_seed"): merging would drop the second's
        total = a.count + b.count
        return Fix(f"Merge into one block of {total}", (Edit(a.count_span, str(total)), Edit(Span(a.span.end, b.span.end), "")))
