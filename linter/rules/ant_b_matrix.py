"""T410 ant-b-transfer-matrix."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.model import Block, Severity

from ..context import Context
from ..finding import Finding
from ..rule import Rule
from ._phases import blocks_by_phase
from ..rule import rule_doc


class AntBTransferMatrix(Rule):
    __doc__ = rule_doc(
        "An ANT-B syllabus misses a test that a transfer-matrix cell needs.",
        "For every ordered pair of trained tasks (i trained before j): forward transfer i→j "
        "needs a test of j after i's first training block and before j's first training block; "
        "reverse transfer needs a test of i after j's first training block. Each missing cell is "
        "reported once, at j's first training block, naming the pair and the test to add.",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "2.train"}, {"$repeat": {"$episode": "Breakout"}, ...}, {"$phase": "2.test"}, ... Pong ...',
        '{"$phase": "1.train"}, ... Pong ..., {"$phase": "1.test"}, ... Breakout ..., {"$phase": "2.train"}, ... Breakout ..., {"$phase": "2.test"}, ... Pong ...',
        "Add the test block the message names.",
        why="**Why it matters.** ANT-B exists to compute a transfer matrix; a missing test leaves "
        "its cell empty and the matrix cannot be summarised.",
    )
    code, name, severity = "T410", "ant-b-transfer-matrix", Severity.WARNING

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type != "ANT-B":
            return
        order: dict[int, int] = {b.index: i for i, b in enumerate(ctx.model.blocks)}
        first_train: dict[str, Block] = {}
        tests: dict[str, list[int]] = {}
        for phase, blocks in blocks_by_phase(ctx.model):
            if phase is None or phase.kind is None:
                continue
            for b in blocks:
                if phase.kind == "train":
                    first_train.setdefault(b.task, b)
                else:
                    tests.setdefault(b.task, []).append(order[b.index])
        tasks = sorted(first_train, key=lambda t: order[first_train[t].index])
        line = lambda b: ctx.lines.line_col(b.span.start)[0]  # noqa: E731
        for a, i in enumerate(tasks):
            for j in tasks[a + 1 :]:
                ti, tj = order[first_train[i].index], order[first_train[j].index]
                if not any(ti < t < tj for t in tests.get(j, ())):
                    yield ctx.finding(
                        self,
                        f'transfer matrix: forward transfer {i}→{j} needs a test of "{j}" after training "{i}" '
                        f"(line {line(first_train[i])}) and before training \"{j}\" (line {line(first_train[j])}); add one in a test phase between them",
                        first_train[j].task_span,
                    )
                if not any(t > tj for t in tests.get(i, ())):
                    yield ctx.finding(
                        self,
                        f'transfer matrix: reverse transfer {j}→{i} needs a test of "{i}" after training "{j}" '
                        f"(line {line(first_train[j])}); add one in a later test phase",
                        first_train[j].task_span,
                    )
