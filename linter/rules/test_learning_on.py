"""H501 test-phase-learning-on."""

from __future__ import annotations

from sylla.grammar.core import Severity, Span
from sylla.grammar.syllabus.model import Info, Instruction, PhaseMark
from sylla.grammar.syllabus.schedule import PhaseRun
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..edits import insert_after, insert_before
from ..finding import Edit, Finding, Fix
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

DISABLE = '{"$info": {"disable_updates": true}}'
RESET = '{"$info": {}}'


class TestPhaseLearningOn(Rule):
    __doc__ = rule_doc(
        "A test phase does not turn learning off.",
        'A test phase whose blocks run with learning on or unspecified: no `"enable_updates": false` '
        'on its `$phase`, and no `{"$info": {"disable_updates": true}}` before its blocks.',
        '{"$phase": "1.test"},\n{"$repeat": {"$episode": "Pong"}, "count": 100},',
        '{"$phase": "1.test"},\n{"$info": {"disable_updates": true}},\n{"$repeat": {"$episode": "Pong"}, "count": 100},\n{"$info": {}},',
        'Inserts the `$info` pair around the phase\'s blocks, or sets `"enable_updates": false` '
        "on the `$phase` when the file already uses that style.",
        why="**Why it matters.** An agent that keeps learning during evaluation is trained on the "
        "test tasks: performance maintenance and transfer come out inflated and forward transfer is contaminated.",
    )
    code, name, severity, fixable = "H501", "test-phase-learning-on", Severity.WARNING, True

    def check(self, ctx: Context) -> Iterator[Finding]:
        model = ctx.model
        uses_flag = any(p.enable_updates is not None for p in model.phases)
        for run in ctx.schedule.phases:
            phase = run.phase
            if phase.kind != "test" or not run.blocks:
                continue
            states = {b.learning for b in run.blocks}
            if states == {False}:
                continue
            how = "on" if True in states else "not turned off"
            message = f'learning is {how} in test phase "{phase.label}": evaluation episodes would train the agent'
            yield ctx.finding(self, message, phase.span, self._fix(ctx, run, states, uses_flag))

    def _fix(self, ctx: Context, run: PhaseRun, states: set, uses_flag: bool) -> Fix | None:
        phase = run.phase
        text = ctx.text
        written = text[phase.span.start : phase.span.end].count('"enable_updates"')
        if written > 1 or (written == 1 and phase.enable_updates is None):
            return None  # a duplicated or non-boolean key: the schema finding (S111, S201) comes first
        if phase.enable_updates is True:
            span = phase.enable_updates_span
            return Fix('Set "enable_updates" to false', (Edit(span, "false"),)) if span else None
        if uses_flag:
            at = phase.label_span.end
            return Fix('Add "enable_updates": false', (Edit(Span(at, at), ', "enable_updates": false'),))
        return self._info_pair(ctx, run)

    def _info_pair(self, ctx: Context, run: PhaseRun) -> Fix | None:
        """``disable_updates`` right before the phase's first block and ``{}`` after its last,
        unless an ``$info`` that sets learning sits between them (a pair around the blocks
        would not turn learning off for all of them, and fixing again would add another pair).
        ``{}`` is left out when the phase already sets learning again after its last block."""
        text = ctx.text
        instructions = ctx.model.instructions
        first, last = run.blocks[0].block.index, run.blocks[-1].block.index
        if any(_sets_learning(ins) for ins in instructions[first:last]):
            return None
        edits = [insert_before(text, instructions[first].span, DISABLE)]
        following = []
        for ins in instructions[last + 1 :]:
            if isinstance(ins, PhaseMark):
                break
            following.append(ins)
        if not any(_sets_learning(ins) for ins in following):
            edits.append(insert_after(text, instructions[last].span, RESET))
        if len({e.span.start for e in edits}) < len(edits):
            return None
        return Fix("Turn learning off for the phase with an $info pair", tuple(edits))


def _sets_learning(ins: Instruction) -> bool:
    return isinstance(ins, Info) and (ins.resets or ins.disable_updates is not None)
