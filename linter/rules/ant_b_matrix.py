"""T410 ant-b-transfer-matrix."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.model import Block, Syllabus
from sylla.kit.no_typing import TYPE_CHECKING

from .. import complete
from ..context import Context
from ..finding import Finding, Fix
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator


class AntBTransferMatrix(Rule):
    __doc__ = rule_doc(
        "An ANT-B syllabus misses a test that a transfer-matrix cell needs.",
        "For every ordered pair of trained tasks (i trained before j): forward transfer i→j "
        "needs a test of j after i's first training block and before j's first training block; "
        "reverse transfer needs a test of i after j's first training block. Each missing cell is "
        "reported once, at j's first training block, naming the pair and the test to add.",
        '{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, ...}, {"$phase": "2.train"}, {"$repeat": {"$episode": "Breakout"}, ...}, {"$phase": "2.test"}, ... Pong ...',
        '{"$phase": "1.train"}, ... Pong ..., {"$phase": "1.test"}, ... Breakout ..., {"$phase": "2.train"}, ... Breakout ..., {"$phase": "2.test"}, ... Pong ...',
        "Unsafe (it changes the experiment: `sylla lint --fix --unsafe-fixes`, or the editor's code "
        "action): adds the missing test block, with the task's reference and parameters as it is "
        "trained and the file's test length, at the end of the test phase between the two "
        "trainings (forward) or the first test phase after j's training (reverse); where there is "
        "no such phase it opens one, `n.test` right after `n.train`, turning learning off in the "
        "file's style. Cells whose two trainings share one train phase get no fix.",
        why="**Why it matters.** ANT-B exists to compute a transfer matrix; a missing test leaves "
        "its cell empty and the matrix cannot be summarised.",
    )
    code, name, severity = "T410", "ant-b-transfer-matrix", Severity.WARNING
    fixable = True

    def check(self, ctx: Context) -> Iterator[Finding]:
        if ctx.syllabus_type.type != "ANT-B":
            return
        model = ctx.model
        pos = {id(ins): k for k, ins in enumerate(model.instructions)}
        first_train: dict[str, Block] = {}
        tests: dict[str, list[int]] = {}
        for phase, blocks in complete.blocks_by_phase(model):
            if phase is None or phase.kind is None:
                continue
            for b in blocks:
                if phase.kind == "train":
                    first_train.setdefault(b.task, b)
                else:
                    tests.setdefault(b.task, []).append(pos[id(b)])
        tasks = sorted(first_train, key=lambda t: pos[id(first_train[t])])
        line = lambda b: ctx.lines.line_col(b.span.start)[0]
        for a, i in enumerate(tasks):
            for j in tasks[a + 1 :]:
                ti, tj = pos[id(first_train[i])], pos[id(first_train[j])]
                if not any(ti < t < tj for t in tests.get(j, ())):
                    yield ctx.finding(
                        self,
                        f'transfer matrix: forward transfer {i}→{j} needs a test of "{j}" after training "{i}" '
                        f"(line {line(first_train[i])}) and before training \"{j}\" (line {line(first_train[j])}); add one in a test phase between them",
                        first_train[j].task_span,
                        _fix(model, first_train[j], after=ti, before=tj),
                    )
                if not any(t > tj for t in tests.get(i, ())):
                    yield ctx.finding(
                        self,
                        f'transfer matrix: reverse transfer {j}→{i} needs a test of "{i}" after training "{j}" '
                        f"(line {line(first_train[j])}); add one in a later test phase",
                        first_train[j].task_span,
                        _fix(model, first_train[i], after=tj, before=None),
                    )


def _fix(model: Syllabus, trained: Block, after: int, before: int | None) -> Fix | None:
    """Insert a test of ``trained``'s task between instruction ``after`` and ``before`` (None:
    anywhere later): into the last (forward) or first (reverse) test phase there, else a new
    ``n.test`` phase closing the train phase that holds instruction ``after``."""
    pos = {id(ins): k for k, ins in enumerate(model.instructions)}
    new = [complete.block_text(trained, complete.test_count(model, trained))]
    runs = [(p, bs) for p, bs in complete.blocks_by_phase(model) if p is not None]
    inside = [(p, bs) for p, bs in runs if p.kind == "test" and after < pos[id(p)]
              and (before is None or pos[id(bs[-1] if bs else p)] < before)]
    if inside:
        phase, blocks = inside[-1] if before is not None else inside[0]
        return Fix(f'Add a test of "{trained.task}" to "{phase.label}"',
                   (complete.append_to_phase(model, phase, blocks, new),), safe=False)
    # the train phase holding instruction `after`, and the phase mark that follows it
    marks = [p for p, _ in runs]
    holder = next((p for p in reversed(marks) if pos[id(p)] < after), None)
    if holder is None or holder.kind != "train" or holder.number is None:
        return None
    nxt = next((p for p in marks if pos[id(p)] > pos[id(holder)]), None)
    if nxt is not None and before is not None and pos[id(nxt)] > before:
        return None  # both trainings are in one train phase: no place for a test between them
    label = f"{holder.number}.test"
    description = f'Open test phase "{label}" testing "{trained.task}"'
    if nxt is None:
        edit = complete.open_phase_at_end(model, label, new)
        return Fix(description, (edit,), safe=False) if edit else None
    if nxt.kind != "train" or nxt.number != holder.number + 1:
        return None  # a new n.test here would break the numbering
    return Fix(description, (complete.open_phase_before(model, nxt, label, new),), safe=False)



