"""H502 info-disable-not-reset."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import Info, PhaseMark
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..edits import insert_after
from ..finding import Finding, Fix, RelatedSpan
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

RESET = '{"$info": {}}'


class InfoDisableNotReset(Rule):
    __doc__ = rule_doc(
        'A `{"$info": {"disable_updates": true}}` is still in force when the next train phase starts.',
        'After a test phase turns learning off with `$info`, a `{"$info": {}}` must reset it before the next train phase.',
        '{"$phase": "1.test"},\n{"$info": {"disable_updates": true}},\n{"$repeat": {"$episode": "Pong"}, "count": 100},\n{"$phase": "2.train"},',
        '{"$phase": "1.test"},\n{"$info": {"disable_updates": true}},\n{"$repeat": {"$episode": "Pong"}, "count": 100},\n{"$info": {}},\n{"$phase": "2.train"},',
        'Inserts `{"$info": {}}` before the train phase.',
        why="**Why it matters.** The engine keeps the disabled state: the agent does not learn in "
        "the next training phase, and the learning curves and saturation of that phase are flat.",
    )
    code, name, severity, fixable = "H502", "info-disable-not-reset", Severity.WARNING, True

    def check(self, ctx: Context) -> Iterator[Finding]:
        disabled: Info | None = None
        instructions = ctx.model.instructions
        for ins in instructions:
            if isinstance(ins, Info):
                if ins.resets or ins.disable_updates is False:
                    disabled = None
                elif ins.disable_updates is True:
                    disabled = ins
            elif isinstance(ins, PhaseMark) and ins.kind == "train" and disabled is not None:
                line = ctx.lines.line_col(disabled.span.start)[0]
                fix = None
                if ins.index > 0:
                    edit = insert_after(ctx.text, instructions[ins.index - 1].span, RESET, ins.span)
                    fix = Fix('Insert {"$info": {}} before the train phase', (edit,))
                yield ctx.finding(
                    self,
                    f'learning is still disabled by the $info on line {line} when "{ins.label}" starts: reset it with {{"$info": {{}}}}',
                    ins.span,
                    fix,
                    (RelatedSpan("learning disabled here", disabled.span),),
                )
                disabled = None
