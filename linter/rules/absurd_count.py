"""H506 absurd-count."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.schedule import MAX_EPISODES, absurd_block, count_text
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class AbsurdCount(Rule):
    __doc__ = rule_doc(
        f"A count makes the schedule longer than any run could be (more than {MAX_EPISODES:,} episodes).",
        f"The first `count` above {MAX_EPISODES:,}, or the block at which the schedule's running total "
        f"of episodes passes {MAX_EPISODES:,}. The limit is a thousand times the longest run sylla's "
        "metrics are measured on (10 million episodes) and two hundred thousand times the largest block "
        "of a published syllabus (5,000): at a thousand episodes a second an agent would run for twelve "
        "days. Such a count is a typo (digits pasted twice, a number of frames where episodes belong). "
        "`sylla simulate`, `sylla metrics --syllabus` and `sylla watch` refuse such a schedule at the "
        "same count, since each makes per-episode data from it.",
        '{"$repeat": {"$episode": "Pong"}, "count": 1000000000000}',
        '{"$repeat": {"$episode": "Pong"}, "count": 1000}',
        "Write the number of episodes the block should run.",
        why="**Why it matters.** The metrics lay every logged episode over the schedule: a schedule no "
        "run can finish makes every run partial, and a simulation or a check of it would allocate "
        "memory for each scheduled episode (a count of 10^12 is 7 TiB for one number per episode).",
    )
    code, name, severity = "H506", "absurd-count", Severity.WARNING
    reads_structure = False  # a count is what it is, whatever typo the structure has

    def check(self, ctx: Context) -> Iterator[Finding]:
        found = absurd_block(ctx.model)
        if found is None:
            return
        block, total = found
        span = block.count_span or block.span
        if block.count > MAX_EPISODES:
            message = f"count {count_text(block.count)} is more than the {MAX_EPISODES:,} episodes sylla calls a sensible schedule"
        else:
            message = f"the schedule passes {MAX_EPISODES:,} episodes here ({count_text(total)} so far)"
        yield ctx.finding(self, message + "; sylla simulate and metrics refuse it", span)
