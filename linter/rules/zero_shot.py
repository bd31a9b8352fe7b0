"""H504 zero-shot-test."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.suggest import did_you_mean

from ..context import Context
from ..finding import Finding
from ..rule import Rule, rule_doc
from ._phases import blocks_by_phase

if TYPE_CHECKING:
    from typing import Iterator


class ZeroShotTest(Rule):
    __doc__ = rule_doc(
        "A test phase tests a task that is never trained anywhere.",
        "Reported once per task, at its first test block. A zero-shot test is fine for forward "
        "transfer (the reference ANT-A example tests Freeway without training it), but often a typo.",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "1.test"}, ..., {"$repeat": {"$episode": "Pnog"}, ...}',
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "1.test"}, ..., {"$repeat": {"$episode": "Pong"}, ...}',
        "Fix the task name if it is a typo; otherwise ignore the information.",
        why="**Why it matters.** A task that is never trained has no learning curve: it contributes "
        "only to forward-transfer metrics, and a misspelt name silently creates such a task.",
    )
    code, name, severity = "H504", "zero-shot-test", Severity.INFO

    def check(self, ctx: Context) -> Iterator[Finding]:
        runs = blocks_by_phase(ctx.model)
        trained = {b.task for p, bs in runs if p is not None and p.kind == "train" for b in bs}
        reported: set[str] = set()
        for phase, blocks in runs:
            if phase is None or phase.kind != "test":
                continue
            for b in blocks:
                if b.task not in trained and b.task not in reported:
                    reported.add(b.task)
                    yield ctx.finding(
                        self, f'"{b.task}" is tested but never trained (zero-shot test){did_you_mean(b.task, trained)}', b.task_span
                    )
