"""H503 learning-disabled-in-train."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import Info, PhaseMark
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class LearningDisabledInTrain(Rule):
    __doc__ = rule_doc(
        "Learning is turned off inside a train phase.",
        'A train phase with `"enable_updates": false`, or a `{"$info": {"disable_updates": true}}` '
        "inside a train phase. (A disable left over from the test phase before is H502.)",
        '{"$phase": "2.train", "enable_updates": false},',
        '{"$phase": "2.train"},',
        "Remove the flag or the `$info`, or make the phase a test phase.",
        why="**Why it matters.** A train phase in which the agent does not learn produces flat "
        "learning curves: saturation, time to saturation and every comparison to it are wrong.",
    )
    code, name, severity = "H503", "learning-disabled-in-train", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        phase: PhaseMark | None = None
        for ins in ctx.model.instructions:
            if isinstance(ins, PhaseMark):
                phase = ins
                if ins.kind == "train" and ins.enable_updates is False:
                    span = ins.enable_updates_span or ins.span
                    yield ctx.finding(self, f'train phase "{ins.label}" has "enable_updates": false', span)
            elif isinstance(ins, Info) and ins.disable_updates is True and phase is not None and phase.kind == "train":
                if phase.enable_updates is None:
                    yield ctx.finding(self, f'learning is disabled inside train phase "{phase.label}"', ins.span)
