"""N606 unknown-info-key."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import Info, Syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import replace
from sylla.kit.suggest import closest

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

KNOWN = ("disable_updates",)


def misspelt_keys(info: Info) -> list[str]:
    """Keys of an ``$info`` that are near misses of ``disable_updates`` (``disable_update``)."""
    return [k for k in info.data if k not in KNOWN and closest(k, KNOWN) is not None]


def has_misspelt_info(model: Syllabus) -> bool:
    """Whether some ``$info`` means to turn learning off but misspells the key: the phase
    rules (learning still on in a test phase) would follow from that typo."""
    return any(isinstance(i, Info) and misspelt_keys(i) for i in model.instructions)


class UnknownInfoKey(Rule):
    __doc__ = rule_doc(
        "An `$info` instruction sets a key sylla does not know.",
        "Keys of `$info` other than `disable_updates`. A near miss of `disable_updates` is an "
        "error, with a \"did you mean\"; any other key is a warning.",
        '{"$phase": "1.test"}, {"$info": {"disable_update": true}}, ...',
        '{"$phase": "1.test"}, {"$info": {"disable_updates": true}}, ...',
        "Correct the key to `disable_updates`.",
        why="**Why it matters.** Engines act on `disable_updates` only: with the key misspelt, "
        "learning stays on through the test phase, the agent trains on its evaluation episodes, "
        "and every test-based metric measures a trained agent instead.",
    )
    code, name, severity = "N606", "unknown-info-key", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        sm = ctx.model.source_map
        for ins in ctx.model.instructions:
            if not isinstance(ins, Info):
                continue
            near = misspelt_keys(ins)
            for key in ins.data:
                if key in KNOWN:
                    continue
                span = (sm.key_span(ins.path + ("$info", key)) if sm is not None else None) or ins.span
                if key in near:
                    yield ctx.finding(self, f'unknown $info key "{key}" (did you mean "disable_updates"?): learning is not turned off', span)
                else:
                    finding = ctx.finding(self, f'unknown $info key "{key}": engines act on "disable_updates" only', span)
                    yield replace(finding, severity=Severity.WARNING)
