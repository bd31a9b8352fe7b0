"""Which metrics a syllabus can yield, decided from the parsed syllabus alone.

Every metric plugin declares per metric a ``Need`` (``sylla.metrics.needs``); this module
decides each need on the schedule the metrics will see (the same blocks, tasks and train/test
kinds that alignment gives a log of this syllabus), and for every "no" says why and what the
smallest change is, with the place in the file where that change goes (so ``sylla lint`` can
report it there). Transfer metrics are decided per ordered task pair exactly as the l2metrics
transfer plugin pairs evaluations, including its overwrite of a pair by a later one.

Nothing here imports numpy: the linter and the language server call it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, Iterable, Mapping, Sequence

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block, PhaseMark, Syllabus
from sylla.grammar.syllabus.schedule import ScheduledBlock, schedule

from .needs import SCHEDULE_NEEDS, Need, needs_of
from .registry import Metric, load_plugins

STE_FIX = ("record a single-task-expert run of {tasks} (sylla new --type STE --task NAME writes its "
           "syllabus) and pass its log with --ste")


@dataclass(frozen=True)
class Slot:
    """One scheduled block as the metrics see it."""

    pos: int
    task: str
    kind: str  # "train" or "test"
    block: Block
    phase: PhaseMark | None


@dataclass
class PairFeasibility:
    source: str
    target: str
    feasible: bool
    reason: str
    fix: str = ""
    span: Span | None = None


@dataclass
class MetricFeasibility:
    """One metric's verdict; ``span`` is where the fix goes (None: the top of the file)."""

    name: str
    plugin: str
    feasible: bool
    reason: str
    fix: str = ""
    pairs: list[PairFeasibility] = field(default_factory=list)
    span: Span | None = None
    declared: bool = True
    #: a "yes" that the data can still leave empty, and why (``Need.unless``)
    unless: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "plugin": self.plugin, "feasible": self.feasible, "reason": self.reason,
            "fix": self.fix or None,
            "pairs": [{"source": p.source, "target": p.target, "feasible": p.feasible, "reason": p.reason}
                      for p in self.pairs],
        }


def kind_of(block: ScheduledBlock) -> str:
    """Train or test, as alignment decides it (``metrics.align.block_kind``): the learning flag
    when the syllabus sets one, else the phase kind, else train."""
    if block.learning is not None:
        return "train" if block.learning else "test"
    if block.phase is not None and block.phase.kind in ("train", "test"):
        return block.phase.kind
    return "train"


def slots(model: Syllabus, without: frozenset[int] = frozenset()) -> list[Slot]:
    """The scheduled blocks, less those whose instruction index is in ``without``."""
    out: list[Slot] = []
    for b in schedule(model).blocks:
        if b.end > b.start and b.block.index not in without:  # zero episodes leave nothing in the log
            out.append(Slot(len(out), b.task, kind_of(b), b.block, b.phase))
    return out


class _Schedule:
    """The facts the needs are decided on, computed once."""

    def __init__(self, model: Syllabus, without: frozenset[int] = frozenset()) -> None:
        self.model = model
        self.slots = slots(model, without)
        self.train = [s for s in self.slots if s.kind == "train"]
        self.test = [s for s in self.slots if s.kind == "test"]
        self.tasks = list(dict.fromkeys(s.task for s in self.slots))
        self.trained = list(dict.fromkeys(s.task for s in self.train))
        self._by: dict[tuple[str, str], list[Slot]] = {}
        for x in self.slots:
            self._by.setdefault((x.task, x.kind), []).append(x)
        self.pairs: dict[str, list[PairFeasibility]] = {}  # transfer_pairs per direction, computed once

    def of(self, task: str, kind: str) -> list[Slot]:
        return self._by.get((task, kind), [])

    def first_train(self, task: str) -> Slot | None:
        mine = self.of(task, "train")
        return mine[0] if mine else None

    def trained_first(self, task: str) -> Slot:
        """The first train block of a task in ``trained``, which has one."""
        return self.of(task, "train")[0]

    def test_phase_after(self, slot: Slot) -> str:
        """The label of the first test phase after ``slot``, for messages."""
        label = next((s.phase.label for s in self.test if s.pos > slot.pos and s.phase is not None), None)
        return f'"{label}"' if label is not None else "a test phase after it"


def _span(slot: Slot | None) -> Span | None:
    return slot.block.span if slot is not None else None


Verdict = tuple[bool, str, str, "Span | None"]  # feasible, reason, fix, where


def _decide(need: Need, s: _Schedule) -> Verdict:
    kind = need.schedule
    first = s.train[0] if s.train else (s.slots[0] if s.slots else None)
    if kind == "blocks":
        return (bool(s.slots), "" if s.slots else "the syllabus schedules no episodes",
                "add a phase with a $repeat block", None)
    if not s.train and kind != "scores":
        return (False, "no train block: every block runs with learning off",
                'add a train phase ({"$phase": "1.train"} and a block) with learning on', _span(first))
    if kind == "train":
        return True, "", "", None
    if kind == "test":
        ok = bool(s.test)
        return (ok, "" if ok else "no test block (a block with learning off)",
                f"add a test phase after {_label(s.train[0])} that tests {s.train[0].task} with learning off",
                _span(s.train[0]))
    if kind == "test_after_train":
        for t in s.trained:
            ft = s.trained_first(t)
            if any(x.pos > ft.pos for x in s.of(t, "test")):
                return True, "", "", None
        t = s.trained[0]
        ft = s.trained_first(t)
        return (False, "no task is tested after its first training",
                f"test {t} in {s.test_phase_after(ft)} after its training", _span(ft))
    if kind == "test_before_train":
        for t in s.tasks:
            first = s.first_train(t)
            if any(first is None or x.pos < first.pos for x in s.of(t, "test")):
                return True, "", "", None
        return (False, "no task is tested before its first training (no baseline)",
                f"test {s.trained[0]} in a 0.test phase before 1.train (lint with profile pretest)",
                _span(s.train[0]))
    if kind == "retrain":
        counts = {t: len(s.of(t, "train")) for t in s.trained}
        best = max(counts, key=lambda t: counts[t])
        if counts[best] >= need.count:
            return True, "", "", None
        more = need.count - counts[best]
        return (False, f"needs a task with {need.count} train blocks; the most is {counts[best]} ({best})",
                f"train {best} in {more} more block{'s' if more > 1 else ''} (e.g. a later train phase)",
                _span(s.of(best, "train")[-1]))
    if kind == "reevaluation":
        return _reevaluation(s)
    if kind in ("forward_pairs", "backward_pairs"):
        pairs = transfer_pairs(s, kind.split("_")[0])
        good = [p for p in pairs if p.feasible]
        if good:
            return True, "", "", None
        bad = next((p for p in pairs if p.fix), None)
        direction = kind.split("_")[0]
        if bad is None:
            return (False, f"no task pair can have {direction} transfer (needs two trained tasks)",
                    "train a second task, with tests of each task around the other's training", _span(s.train[-1]))
        return False, f"no task pair has {direction} transfer: {bad.reason}", bad.fix, bad.span
    if kind == "later_task_trained":
        ok = len(s.trained) > 1
        return (ok, "" if ok else "only one task is trained (the first task has no transfer to measure)",
                "train a second task after the first", _span(s.train[-1]))
    if kind.startswith("gem_"):
        return _gem(kind, s)
    if kind == "scores":
        return (False, "computed from iSCIL score logs, not from a syllabus run", "", None)
    raise AssertionError(kind)


def _label(slot: Slot) -> str:
    return f'"{slot.phase.label}"' if slot.phase is not None else "the first block"


def _reevaluation(s: _Schedule) -> Verdict:
    """l2metrics' performance maintenance: a test of a task after the first test that follows
    one of its trainings, that is not itself such a first test."""
    for t in s.tasks:
        train = [x.pos for x in s.of(t, "train")]
        test = [x.pos for x in s.of(t, "test")]
        refs = {next(p for p in test if p > tr) for tr in train if any(p > tr for p in test)}
        if refs and any(p > min(refs) and p not in refs for p in test):
            return True, "", "", None
    for t in s.trained:
        ft = s.trained_first(t)
        tested = [x for x in s.of(t, "test") if x.pos > ft.pos]
        if tested:
            later = [x for x in s.test if x.pos > tested[0].pos and x.phase is not None
                     and x.phase is not tested[0].phase]
            where = _label(later[0]) if later else "a later test phase"
            return (False, f"no task is evaluated again after its first post-training evaluation "
                    f"({t} is tested once after training)", f"test {t} again in {where}",
                    _span(later[0] if later else s.slots[-1]))
    t = s.trained[0]
    ft = s.trained_first(t)
    return (False, "no task is tested after its training", f"test {t} in two test phases after its training",
            _span(ft))


def transfer_pairs(s: _Schedule, direction: str) -> list[PairFeasibility]:
    if direction not in s.pairs:
        s.pairs[direction] = _transfer_pairs(s, direction)
    return s.pairs[direction]


def _transfer_pairs(s: _Schedule, direction: str) -> list[PairFeasibility]:
    """Per ordered pair (A, B), A trained: whether l2metrics' transfer yields a value of
    ``direction`` for A->B: a training of A (before B's first training for forward, after it for
    backward) between two consecutive tests of B. The value is keyed by the later test, so a
    later pair (in task order) with the same test replaces an earlier one."""
    found: dict[int, str] = {}  # later test of the target -> source (the last pair wins)
    hits: dict[tuple[str, str], list[int]] = {}
    verdicts: dict[tuple[str, str], PairFeasibility] = {}
    for a, b in permutations(s.tasks, 2):
        train = s.of(a, "train")
        if not train:
            continue
        tests = [x.pos for x in s.of(b, "test")]
        fb = s.first_train(b)
        regs = [x for x in train if fb is None or x.pos < fb.pos] if direction == "forward" else \
            [x for x in train if fb is not None and x.pos > fb.pos]
        for tr in regs:
            for t1, t2 in zip(tests[:-1], tests[1:]):
                if t1 < tr.pos < t2:
                    found[t2] = a
                    hits.setdefault((a, b), []).append(t2)
        if (a, b) in hits:
            verdicts[(a, b)] = PairFeasibility(a, b, True, "")
        elif not regs:
            when = "before" if direction == "forward" else "after"
            fix = "" if direction == "forward" else f"train {a} again after {b}'s training, between two tests of {b}"
            verdicts[(a, b)] = PairFeasibility(a, b, False, f"{a} is not trained {when} {b}'s first training",
                                               fix, _span(train[-1]))
        else:
            tr = regs[0]
            if not [p for p in tests if p < tr.pos]:
                where = "a 0.test phase (profile pretest)" if tr.pos == s.train[0].pos else "the test phase before it"
                reason, fix = f"no test of {b} before {a}'s training", \
                    f"test {b} before {a}'s training at {_label(tr)}, in {where}"
            else:
                reason = f"no test of {b} after {a}'s training" + (" and before its own" if direction == "forward" else "")
                fix = f"test {b} in {s.test_phase_after(tr)}, after {a}'s training"
            verdicts[(a, b)] = PairFeasibility(a, b, False, reason, fix, _span(tr))
    for (a, b), t2s in hits.items():
        if not any(found[t] == a for t in t2s):
            other = found[t2s[-1]]
            v = verdicts[(a, b)]
            v.feasible = False
            v.reason = (f"replaced by {other}->{b}: both are measured by the same test of {b} "
                        "(l2metrics keeps the later pair)")
            v.fix = f"test {b} between the trainings of {a} and {other}"
    return list(verdicts.values())


def _gem_matrix(s: _Schedule) -> tuple[list[str], list[list[bool]], list[bool]]:
    """Which cells of GEM's R (and b) will hold a value: ``plugins.gem.performance_matrix``
    on presence instead of numbers."""
    phases: list[tuple[int, set[str]]] = []
    previous = False
    for x in s.slots:
        if x.kind == "test":
            if not previous:
                phases.append((x.pos, set()))
            phases[-1][1].add(x.task)
        previous = x.kind == "test"
    last: dict[str, int] = {}
    for x in s.train:
        last[x.task] = x.pos
    order = sorted(last, key=last.__getitem__)
    T = len(order)
    R = [[False] * T for _ in range(T)]
    base = [False] * T
    if phases and s.train and phases[0][0] < s.train[0].pos:
        base = [t in phases[0][1] for t in order]
    for i, task in enumerate(order):
        start = last[task]
        later = [x.pos for x in s.train if x.pos > start and x.task != task]
        end = later[0] if later else len(s.slots)
        chosen = [p for p in phases if start < p[0] < end] if i + 1 < T else [p for p in phases if p[0] > start]
        if chosen:
            R[i] = [t in chosen[-1][1] for t in order]
    return order, R, base


def _gem(kind: str, s: _Schedule) -> Verdict:
    order, R, base = _gem_matrix(s)
    T = len(order)
    last = {t: [x for x in s.train if x.task == t][-1] for t in order}
    if not any(any(r) for r in R):
        return (False, "no test phase follows a training phase", f"add a test phase after {_label(s.train[0])}",
                _span(s.train[0]))
    if kind == "gem_matrix":
        return True, "", "", None
    if kind == "gem_baseline":
        ok = any(base)
        return (ok, "" if ok else "no test phase before any training (GEM's baseline b)",
                "test every task in a 0.test phase before 1.train (lint with profile pretest)", _span(s.train[0]))
    missing = [order[j] for j in range(T) if not R[T - 1][j]]
    if kind == "gem_final_row":
        if missing:
            return (False, f"the last test phase does not test {', '.join(missing)}",
                    f"test {', '.join(missing)} in the test phase after {_label(last[order[-1]])}",
                    _span(last[order[-1]]))
        return True, "", "", None
    if T < 2:
        return (False, "needs two trained tasks", "train a second task, with a test phase after it", _span(s.train[-1]))
    if kind == "gem_diagonal":  # R[T-1][j] - R[j][j] for every j < T-1
        for j in range(T - 1):
            t = order[j]
            if not R[j][j]:
                return (False, f"{t} is not tested right after its (last) training",
                        f"test {t} in the test phase after {_label(last[t])}", _span(last[t]))
            if not R[T - 1][j]:
                return (False, f"the last test phase does not test {t}",
                        f"test {t} in the test phase after {_label(last[order[-1]])}", _span(last[order[-1]]))
        return True, "", "", None
    gaps = [order[j] for j in range(1, T) if not R[j - 1][j]]  # gem_forward: R[j-1][j] - b[j], j >= 1
    if gaps:
        t = gaps[0]
        prev = order[order.index(t) - 1]
        return (False, f"{t} is not tested after {prev}'s training (GEM's R[i-1][i])",
                f"test {t} in the test phase after {_label(last[prev])}", _span(last[prev]))
    no_base = [order[j] for j in range(1, T) if not base[j]]
    if no_base:
        return (False, f"no test of {', '.join(no_base)} before any training (GEM's baseline b)",
                f"test {', '.join(no_base)} in a 0.test phase before 1.train (lint with profile pretest)",
                _span(s.train[0]))
    return True, "", "", None


def _ste(need: Need, s: _Schedule, ste_tasks: set[str] | None) -> Verdict:
    relevant = s.trained[1:] if need.schedule == "later_task_trained" else s.trained
    if ste_tasks is None:
        return (False, f"needs single-task-expert runs (--ste) of {_names(relevant)}",
                STE_FIX.format(tasks=_names(relevant)), None)
    lower = {t.lower() for t in ste_tasks}
    if any(t.lower() in lower for t in relevant):
        return True, "", "", None
    return (False, f"no single-task-expert run of {_names(relevant)}", STE_FIX.format(tasks=_names(relevant)), None)


def _names(tasks: Sequence[str]) -> str:
    return " or ".join(tasks) if len(tasks) < 3 else ", ".join(tasks[:-1]) + " or " + tasks[-1]


def feasibility(
    model: Syllabus, *, params: Mapping[str, Any] | None = None, ste_tasks: Iterable[str] | None = None,
    plugins: Sequence[Metric] | None = None, any_params: bool = False, without: frozenset[int] = frozenset(),
) -> list[MetricFeasibility]:
    """Every metric of every plugin (in plugin and emit order) with its verdict for this syllabus.

    ``params``: metric parameters as ``sylla metrics -P`` gives them (defaults otherwise);
    ``ste_tasks``: the tasks that STE runs will cover (None: none known, so every STE-relative
    metric is a "no" whose fix is to record them); ``any_params``: judge the syllabus only, as if
    every parameter that gates a metric (``-P transfer_method=both``) were set to emit it;
    ``without``: judge the syllabus as if the blocks with these instruction indices were gone."""
    if plugins is None:
        plugins = load_plugins()
    s = _Schedule(model, without)
    ste = set(ste_tasks) if ste_tasks is not None else None
    out: list[MetricFeasibility] = []
    for plugin in plugins:
        needs = needs_of(plugin)
        if any(n.schedule == "scores" for n in needs.values()):
            continue  # score-log metrics (iSCIL) are not about a syllabus run
        defaults = {p.name: p.default for p in getattr(plugin, "parameters", ())}
        values = {**defaults, **(params or {})}
        for name in plugin.emits:
            need = needs.get(name)
            pname = str(plugin.name)
            if need is None:
                out.append(MetricFeasibility(name, pname, True, f"plugin {pname} declares no needs; assumed feasible",
                                             declared=False))
                continue
            if need.when is not None and not any_params and str(values.get(need.when[0])) not in need.when[1]:
                param, allowed = need.when
                out.append(MetricFeasibility(
                    name, pname, False, f"emitted only with -P {param}={'|'.join(allowed)}",
                    f"pass -P {param}={allowed[-1]} to sylla metrics"))
                continue
            ok, reason, fix, span = _decide(need, s)
            if ok and need.ste:
                ok, reason, fix, span = _ste(need, s, ste)
            pairs = transfer_pairs(s, need.schedule.split("_")[0]) if need.schedule.endswith("_pairs") else []
            if ok:
                reason = "has " + SCHEDULE_NEEDS[need.schedule].replace("`count`", str(need.count)) + (
                    " and STE runs of its tasks" if need.ste else "") + (
                    f" (the data can still leave it empty: {need.unless})" if need.unless else "")
            out.append(MetricFeasibility(name, pname, ok, reason, fix if not ok else "", pairs, span,
                                         unless=need.unless if ok else ""))
    return out


def render_text(results: Sequence[MetricFeasibility], path: str) -> str:
    """The table ``sylla explain FILE --metrics`` prints."""
    rows = [("metric", "plugin", "yields", "reason / smallest fix")]
    for m in results:
        note = m.reason if m.feasible else f"{m.reason}; fix: {m.fix}" if m.fix else m.reason
        rows.append((m.name, m.plugin, "yes" if m.feasible else "no", note))
        for p in m.pairs:
            rows.append((f"  {p.source}->{p.target}", "", "yes" if p.feasible else "no", p.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"{path}: metrics this syllabus can yield "
             f"({sum(m.feasible for m in results)} of {len(results)})", ""]
    for i, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r[:3], widths)) + "  " + r[3])
        if i == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 21)
    return "\n".join(line.rstrip() for line in lines)


def enabled_by(model: Syllabus, blocks: Iterable[Block], plugins: Sequence[Metric] | None = None) -> list[str]:
    """The metrics (and transfer pairs, as ``metric A->B``) that these blocks make possible:
    feasible with them and not without them. STE runs and metric parameters are assumed given,
    so the answer is about the structure (the editor's hover on a phase or block)."""
    tasks = [b.task for b in model.blocks]
    if plugins is None:
        plugins = load_plugins()
    with_them = feasibility(model, ste_tasks=tasks, any_params=True, plugins=plugins)
    without = {m.name: m for m in feasibility(model, without=frozenset(b.index for b in blocks),
                                              ste_tasks=tasks, any_params=True, plugins=plugins)}
    out = []
    for m in with_them:
        other = without[m.name]
        if m.feasible and not other.feasible:
            out.append(m.name)
        elif m.feasible and m.pairs:
            gone = {(p.source, p.target) for p in other.pairs if p.feasible}
            out += [f"{m.name} {p.source}->{p.target}" for p in m.pairs if p.feasible and (p.source, p.target) not in gone]
    return out
