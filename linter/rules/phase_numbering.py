"""P302 phase-numbering."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import PhaseMark
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import valid_phases

if TYPE_CHECKING:
    from typing import Iterator


def expected_label(prev: PhaseMark | None, current: PhaseMark, profile: str) -> str | None:
    """The label ``current`` should have after ``prev``, or None when it is fine."""
    if prev is None:
        ok = {("1", "train")}
        if profile == "pretest":
            ok.add(("0", "test"))
        return None if (str(current.number), current.kind) in ok else "1.train"
    assert prev.number is not None
    if current.kind == "train":
        want = prev.number + 1
        return None if current.number == want else f"{want}.train"
    if prev.kind == "train":
        return None if current.number == prev.number else f"{prev.number}.test"
    return f"{prev.number + 1}.train"


class PhaseNumbering(Rule):
    __doc__ = rule_doc(
        "Phase numbers start at 1, increase by one, and `n.test` follows `n.train`.",
        "The sequence of valid labels: the first is `1.train` (or `0.test` under the `pretest` "
        "profile); each train phase is numbered one more than the phase before; a test phase "
        "carries the number of the train phase it follows. Duplicates are P303.",
        '{"$phase": "1.train"}, ..., {"$phase": "3.train"}, ..., {"$phase": "2.test"}',
        '{"$phase": "1.train"}, ..., {"$phase": "1.test"}, ..., {"$phase": "2.train"}',
        "Renumber the phases; sylla does not guess which label was meant.",
        why="**Why it matters.** The metrics pair each test phase with the training before it by "
        "number; a gap or a test numbered after a later train phase compares the wrong phases.",
    )
    code, name, severity = "P302", "phase-numbering", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        seen: set[str] = set()
        prev: PhaseMark | None = None
        for phase in valid_phases(ctx.model):
            if phase.label in seen:
                continue  # P303
            seen.add(phase.label)
            want = expected_label(prev, phase, ctx.profile)
            if want is not None:
                if prev is None:
                    extra = ' (or "0.test" with profile pretest)' if ctx.profile == "l2m" else ' (or "0.test")'
                    if phase.number == 0 and phase.kind == "test" and ctx.profile == "l2m":
                        extra = '; a leading "0.test" pre-training evaluation needs profile pretest'
                    message = f'phase numbering starts at "1.train", got "{phase.label}"{extra}'
                else:
                    message = f'"{phase.label}" follows "{prev.label}": expected "{want}"'
                yield ctx.finding(self, message, phase.label_span)
            prev = phase
