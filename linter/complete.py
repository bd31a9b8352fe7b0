"""Edits that complete a syllabus: add a test block to a test phase, or open a test phase.

These are the building blocks of the *unsafe* fixes (T405, T410): they change the experiment
(more episodes, another evaluation), so ``--fix`` alone never applies them; ``--fix
--unsafe-fixes`` and the editor's code action do. Every edit keeps the file's conventions:
phase numbers (a new ``n.test`` follows ``n.train``), the file's learning-off style (the
``$info`` pair, or ``"enable_updates": false`` on the ``$phase`` when the file uses the flag),
the indentation of the surrounding instructions, and the parameters and task reference the
task is trained with.
"""

from __future__ import annotations

import json

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block, Info, PhaseMark, Syllabus
from sylla.kit.no_typing import TYPE_CHECKING

from .finding import Edit

if TYPE_CHECKING:
    from typing import Sequence


def uses_flag(model: Syllabus) -> bool:
    """Whether test phases turn learning off with ``"enable_updates"`` on the ``$phase``."""
    return any(p.enable_updates is not None for p in model.phases)


def test_count(model: Syllabus, trained: Block) -> int:
    """Episodes of a new test block: as the file's first test block, else 100 (the reference
    examples' test length) but never more than the task's training block."""
    for phase, blocks in blocks_by_phase(model):
        if phase is not None and phase.kind == "test" and blocks:
            return blocks[0].count
    return max(1, min(100, trained.count))


def block_text(trained: Block, count: int) -> str:
    """A ``$repeat`` of the task as it is trained (same reference, same own parameters)."""
    leaf = {f"${trained.leaf}": trained.task_ref, **trained.own_params}
    return json.dumps({"$repeat": leaf, "count": count}, ensure_ascii=False)


def blocks_by_phase(model: Syllabus) -> list[tuple[PhaseMark | None, list[Block]]]:
    """Instruction-order runs: the blocks after each phase mark (the first run's mark is None)."""
    runs: list[tuple[PhaseMark | None, list[Block]]] = [(None, [])]
    for ins in model.instructions:
        if isinstance(ins, PhaseMark):
            runs.append((ins, []))
        elif isinstance(ins, Block):
            runs[-1][1].append(ins)
    return runs


def indent_of(text: str, span: Span) -> str:
    start = text.rfind("\n", 0, span.start) + 1
    line = text[start : span.start]
    return line if not line.strip() else " " * (len(line) - len(line.lstrip()))


def append_to_phase(model: Syllabus, phase: PhaseMark, blocks: Sequence[Block], new: Sequence[str]) -> Edit:
    """Insert ``new`` block texts after the phase's last block, inside its learning-off region
    (before a closing ``{"$info": {}}``); in an empty phase, after its mark and the
    ``{"$info": {"disable_updates": true}}`` that follows it, if any."""
    if blocks:
        anchor = blocks[-1].span
    else:
        k = model.instructions.index(phase)
        nxt = model.instructions[k + 1] if k + 1 < len(model.instructions) else None
        anchor = nxt.span if isinstance(nxt, Info) and nxt.disable_updates else phase.span
    pad = indent_of(model.text, anchor)
    return Edit(Span(anchor.end, anchor.end), "".join(f",\n{pad}{b}" for b in new))


def phase_text(model: Syllabus, label: str, new: Sequence[str], pad: str) -> list[str]:
    """The instructions of a new test phase in the file's style."""
    if uses_flag(model):
        return [json.dumps({"$phase": label, "enable_updates": False}), *new]
    return [json.dumps({"$phase": label}), '{"$info": {"disable_updates": true}}', *new, '{"$info": {}}']


def open_phase_before(model: Syllabus, before: PhaseMark, label: str, new: Sequence[str]) -> Edit:
    pad = indent_of(model.text, before.span)
    lines = phase_text(model, label, new, pad)
    text = lines[0] + "".join(f",\n{pad}{x}" for x in lines[1:]) + f",\n\n{pad}"
    return Edit(Span(before.span.start, before.span.start), text)


def open_phase_at_end(model: Syllabus, label: str, new: Sequence[str]) -> Edit | None:
    if not model.instructions:
        return None
    last = model.instructions[-1]
    pad = indent_of(model.text, last.span)
    lines = phase_text(model, label, new, pad)
    return Edit(Span(last.span.end, last.span.end), f",\n\n{pad}" + f",\n{pad}".join(lines))


def test_every_phase(model: Syllabus, others_only: bool = False) -> tuple[Edit, ...]:
    """Edits opening ``n.test`` after every ``n.train`` of a syllabus that has no test phase.

    Each new phase tests every trained task in each parameter setting it is trained with
    (which covers every ANT-B transfer cell and every CL variation); with ``others_only``
    (ANT-C) it tests the tasks the phase did not train. Empty when a phase is not numbered
    ``n.train`` in sequence (a new ``n.test`` would then break the numbering; P302 first)."""
    runs = [(p, bs) for p, bs in blocks_by_phase(model) if p is not None]
    if not runs or any(p.kind != "train" or p.number != k + 1 for k, (p, _) in enumerate(runs)):
        return ()
    settings: dict[str, dict[str, Block]] = {}
    for _, blocks in runs:
        for b in blocks:
            settings.setdefault(b.task, {}).setdefault(json.dumps(dict(b.own_params), sort_keys=True), b)
    edits: list[Edit] = []
    for k, (phase, blocks) in enumerate(runs):
        trained_here = {b.task for b in blocks}
        tasks = [t for t in settings if not (others_only and t in trained_here)]
        new = [block_text(b, test_count(model, b)) for t in tasks for b in settings[t].values()]
        if not new:
            continue
        label = f"{phase.number}.test"
        if k + 1 < len(runs):
            edits.append(open_phase_before(model, runs[k + 1][0], label, new))
        else:
            end = open_phase_at_end(model, label, new)
            if end is not None:
                edits.append(end)
    return tuple(edits)
