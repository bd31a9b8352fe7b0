"""H501 test-phase-learning-on."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.model import Severity, Span

from ..context import Context
from ..edits import insert_after
from ..finding import Edit, Finding, Fix
from ..rule import Rule
from ._phases import next_instruction_span
from ..rule import rule_doc

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

    def _fix(self, ctx: Context, run, states: set, uses_flag: bool) -> Fix | None:  # noqa: ANN001
        phase = run.phase
        text = ctx.text
        if phase.enable_updates is True:
            span = phase.enable_updates_span
            return Fix('Set "enable_updates" to false', (Edit(span, "false"),)) if span else None
        if False in states or True in states:
            return None
        if uses_flag:
            at = phase.label_span.end
            return Fix('Add "enable_updates": false', (Edit(Span(at, at), ', "enable_updates": false'),))
        instructions = ctx.model.instructions
        last = phase.index
        for ins in instructions[phase.index + 1 :]:
            if ins.__class__.__name__ == "PhaseMark":
                break
            last = ins.index
        first = insert_after(text, phase.span, DISABLE, next_instruction_span(ctx.model, phase.index))
        second = insert_after(text, instructions[last].span, RESET, next_instruction_span(ctx.model, last))
        if first.span.start == second.span.start:
            return None
        return Fix("Turn learning off for the phase with an $info pair", (first, second))
